/**
 * A run: every question asked N times of every provider that has a key (ask.ts), each answer kept
 * with its sources, then counted (results.ts), set beside the site's crawler verdicts (causes.ts) and
 * compared with the owner's previous run. Before anything is called the run is checked (who may
 * run it, a provider configured, no other run of the site in progress) and its calls are reserved
 * against the budgets of the day in one commit: a run over budget is refused with nothing spent.
 * Calls not made (a provider stopped early, a failure) are given back at the end.
 *
 * A run makes dozens of calls that each wait for a web search, so it goes on in the background of
 * this process: the API answers 202 with the running run and its link.
 */
import { budgetLimits, keyVariable } from "./config.ts";
import { RateLimitedError } from "../../kit/errors.ts";
import { assertMayRun } from "./access.ts";
import type { AnswersDeps } from "./context.ts";
import { AnswersBudgetError, NotConfiguredError, RunInProgressError } from "./errors.ts";
import { domainOf, type Plan, type PlannedProvider, planRun } from "./plan.ts";
import { causesFor } from "./causes.ts";
import { changesSince } from "./results.ts";
import { askProvider, notConfigured } from "./ask.ts";
import type { AnswerRun, Owner } from "./run_types.ts";

/** How long a run may hold its site's lock (a process that dies mid-run frees it then). */
export const LOCK_MS = 2 * 3600_000;
/** Runs in progress in one process at most (each holds up to four vendor connections). */
export const MAX_RUNS_AT_ONCE = 8;

/** The UTC day of a time, "2026-11-26": budgets are per UTC day. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Seconds until the next UTC midnight (when the budgets start again). */
function untilTomorrow(ms: number): number {
  const next = Date.parse(`${utcDay(ms)}T00:00:00Z`) + 24 * 3600_000;
  return Math.max(1, Math.ceil((next - ms) / 1000));
}

/**
 * Starts a run of the site `input` for `owner`; returns it running (its results come in the
 * background). @throws NotWatchedError (403), NotConfiguredError (409), RunInProgressError (409),
 * AnswersBudgetError (429; nothing reserved), BadRequestError (400).
 */
export async function startRun(
  deps: AnswersDeps,
  owner: Owner,
  input: string,
  via: "api" | "mcp" | "page" | "cli" | "watch",
): Promise<{ run: AnswerRun; done: Promise<AnswerRun> }> {
  await assertMayRun(deps, owner, domainOf(input).domain);
  if (deps.running.size >= MAX_RUNS_AT_ONCE) {
    throw new RateLimitedError(
      `${MAX_RUNS_AT_ONCE} runs are in progress on this server; nothing was spent. Retry in a minute.`,
      60,
    );
  }
  const plan = await planRun(deps, owner, input);
  const configured = plan.providers.filter((p) => p.key);
  if (!configured.length) {
    throw new NotConfiguredError(
      "No provider is configured: the operator sets " +
        plan.providers.map((p) => keyVariable(p.adapter.id)).join(", ") +
        (deps.config.answers.userKeys && owner.kind === "account"
          ? ", or add your own key (PUT /api/answers/keys/<provider>)."
          : "."),
    );
  }
  const id = crypto.randomUUID();
  if (!(await deps.answers.lock(owner, plan.domain, id, LOCK_MS))) {
    throw new RunInProgressError((await deps.answers.active(owner, plan.domain)) ?? "");
  }
  const now = deps.now();
  const accountId = owner.kind === "account" ? owner.accountId : null;
  const perProvider = plan.callsPerProvider;
  const operatorCalls = configured.filter((p) => p.keySource === "operator").length * perProvider;
  const refused = await deps.answers.reserve({
    accountId,
    calls: plan.estimate.calls,
    operatorCalls,
    day: utcDay(now),
    limits: budgetLimits(deps.config.answers),
  });
  if (refused) {
    await deps.answers.unlock(owner, plan.domain, id);
    deps.log({ event: "answers.refused", domain: plan.domain, scope: refused.scope, via });
    throw new AnswersBudgetError({
      ...refused,
      needed: refused.scope === "account" ? plan.estimate.calls : operatorCalls,
    }, untilTomorrow(now));
  }
  const previous = (await deps.answers.listRuns(owner, plan.domain, 5))
    .find((r) => r.status === "done") ?? null;
  const run: AnswerRun = {
    id,
    owner,
    domain: plan.domain,
    status: "running",
    createdAt: now,
    finishedAt: null,
    samples: plan.samples,
    sampling: plan.sampling,
    questions: plan.set.questions,
    brand: plan.set.facts?.brand.text ?? null,
    competitors: plan.set.competitors,
    estimate: plan.estimate,
    providers: [],
    scan: null,
    previousRunId: previous?.id ?? null,
    problem: null,
  };
  await deps.answers.saveRun(run, retention(deps));
  deps.log({
    event: "answers.run_started",
    runId: id,
    domain: plan.domain,
    calls: plan.estimate.calls,
    via,
  });
  const done = execute(deps, plan, run, previous, operatorCalls);
  deps.running.add(done);
  done.finally(() => deps.running.delete(done)).catch(() => {});
  return { run, done };
}

/**
 * A run as it stands: one still "running" after {@link LOCK_MS} was cut short (the process that ran
 * it stopped); it reads as failed. Its reserved calls are not given back: nobody knows how many
 * were made.
 */
export function settled(run: AnswerRun, now: number): AnswerRun {
  if (run.status !== "running" || now - run.createdAt <= LOCK_MS) return run;
  return {
    ...run,
    status: "failed",
    problem: "The run was cut short (the server stopped during it); its answers so far are kept.",
  };
}

function retention(deps: AnswersDeps): number {
  return deps.config.historyRetentionDays * 24 * 3600_000;
}

/** Runs the plan; never rejects (a failure is the run's status). */
async function execute(
  deps: AnswersDeps,
  plan: Plan,
  run: AnswerRun,
  previous: AnswerRun | null,
  operatorCalls: number,
): Promise<AnswerRun> {
  const made = new Map<string, number>();
  let finished: AnswerRun;
  try {
    const configured = plan.providers.filter((p) => p.key);
    const parts = await Promise.all(
      configured.map((p) =>
        askProvider(deps, plan, run, p, (n) => made.set(p.adapter.id, n), retention(deps))
      ),
    );
    const stored = await deps.store.getScan(plan.domain);
    const result = stored?.record.status === "ok" ? stored.record.result : null;
    const providers = plan.providers.map((p) => {
      const part = parts[configured.indexOf(p)];
      const r = part ?? notConfigured(p);
      if (part) r.causes = causesFor(p.adapter, result, r.overall);
      return r;
    });
    finished = {
      ...run,
      status: "done",
      finishedAt: deps.now(),
      providers,
      scan: stored ? { scannedAt: stored.record.scannedAt, status: stored.record.status } : null,
    };
    for (const p of finished.providers) p.changes = changesSince(previous, finished, p);
  } catch (error) {
    deps.log({ event: "answers.run_failed", runId: run.id, error: String(error) });
    finished = {
      ...run,
      status: "failed",
      finishedAt: deps.now(),
      problem: "The run stopped on an internal error; the calls it did not make were given back.",
    };
  }
  try {
    const perProvider = plan.callsPerProvider;
    const unmade = (p: PlannedProvider) => perProvider - (made.get(p.adapter.id) ?? 0);
    const configured = plan.providers.filter((p) => p.key);
    await deps.answers.release({
      accountId: plan.owner.kind === "account" ? plan.owner.accountId : null,
      calls: configured.reduce((n, p) => n + unmade(p), 0),
      operatorCalls: Math.min(
        operatorCalls,
        configured.filter((p) => p.keySource === "operator").reduce((n, p) => n + unmade(p), 0),
      ),
      day: utcDay(run.createdAt),
    });
    await deps.answers.saveRun(finished, retention(deps));
  } finally {
    await deps.answers.unlock(plan.owner, plan.domain, run.id);
  }
  deps.log({
    event: "answers.run_done",
    runId: run.id,
    domain: plan.domain,
    status: finished.status,
    providers: Object.fromEntries(finished.providers.map((p) => [p.id, p.status])),
  });
  return finished;
}
