/**
 * A run: every question asked N times of every provider that has a key, each answer kept with its
 * sources, then counted (results.ts), set beside the site's crawler verdicts (causes.ts) and
 * compared with the owner's previous run. Before anything is called the run is checked (who may
 * run it, a provider configured, no other run of the site in progress) and its calls are reserved
 * against the budgets of the day in one commit: a run over budget is refused with nothing spent.
 * Calls not made (a provider stopped early, a failure) are given back at the end.
 *
 * A run takes minutes (web-search answers take 5-60 s each), so it goes on in the background of
 * this process: the API answers 202 with the running run and its link.
 */
import { keyVariable } from "../config_answers.ts";
import { RateLimitedError } from "../errors.ts";
import { assertMayRun } from "./access.ts";
import type { AnswersDeps } from "./context.ts";
import { callCost, round } from "./cost.ts";
import { AnswersBudgetError, NotConfiguredError, RunInProgressError } from "./errors.ts";
import { domainOf, type Plan, type PlannedProvider, planRun } from "./plan.ts";
import { presenceOf, siteOf } from "./presence.ts";
import { MAX_ANSWER_CHARS, type Usage } from "./provider.ts";
import { causesFor } from "./causes.ts";
import { changesSince, tally } from "./results.ts";
import type { AnswerRun, Owner, ProviderResult, ProviderStatus, Sample } from "./run_types.ts";
import { type CallFailure, callProvider } from "./vendor_call.ts";

/** How long a run may hold its site's lock (a process that dies mid-run frees it then). */
export const LOCK_MS = 2 * 3600_000;
/** Runs in progress in one process at most (each holds up to four vendor connections). */
export const MAX_RUNS_AT_ONCE = 8;
/** Failures that stop a provider for the rest of the run. */
const STOPS: CallFailure[] = ["key_refused", "rate_limited", "bad_request"];

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
  via: "api" | "mcp" | "page" | "cli",
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
  const perProvider = plan.set.questions.length * plan.samples;
  const operatorCalls = configured.filter((p) => p.keySource === "operator").length * perProvider;
  const refused = await deps.answers.reserve({
    accountId,
    calls: plan.estimate.calls,
    operatorCalls,
    day: utcDay(now),
    accountLimit: deps.config.answers.accountCallsPerDay,
    globalLimit: deps.config.answers.globalCallsPerDay,
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
      configured.map((p) => askProvider(deps, plan, run, p, (n) => made.set(p.adapter.id, n))),
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
    const perProvider = plan.set.questions.length * plan.samples;
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

/** Asks every question of one provider; stops it on a refused key, a rate limit, a bad request. */
async function askProvider(
  deps: AnswersDeps,
  plan: Plan,
  run: AnswerRun,
  p: PlannedProvider,
  onCalls: (n: number) => void,
): Promise<ProviderResult> {
  const site = {
    domain: siteOf(plan.domain),
    brand: plan.set.facts?.brand.text ?? null,
    competitors: plan.set.competitors,
  };
  const samples: Sample[] = [];
  let calls = 0;
  let stop: CallFailure | null = null;
  const usage: Usage = { inputTokens: 0, outputTokens: 0, searches: 0 };
  let usd = 0;
  outer: for (const [q, question] of plan.set.questions.entries()) {
    for (let i = 0; i < plan.samples; i++) {
      calls++;
      onCalls(calls);
      const outcome = await callProvider(p.adapter, question.text, p.model, p.key!, {
        fetcher: deps.vendorFetcher,
        timeoutMs: deps.config.answers.timeoutMs,
        sleep: deps.sleep,
        now: deps.now,
      });
      const base = { provider: p.adapter.id, question: q, index: i, at: deps.now() };
      let sample: Sample;
      if (outcome.ok) {
        const a = outcome.answer;
        usage.inputTokens += a.usage.inputTokens;
        usage.outputTokens += a.usage.outputTokens;
        usage.searches += a.usage.searches;
        usd += callCost(p.price, a.usage);
        sample = {
          ...base,
          ok: true,
          text: a.text.slice(0, MAX_ANSWER_CHARS),
          cut: a.text.length > MAX_ANSWER_CHARS,
          sources: a.sources,
          presence: presenceOf(a, site),
          failure: null,
          status: 200,
          code: null,
          usage: a.usage,
          model: a.model,
        };
      } else {
        sample = {
          ...base,
          ok: false,
          text: "",
          cut: false,
          sources: [],
          presence: null,
          failure: outcome.failure,
          status: outcome.status,
          code: outcome.code,
          usage: null,
          model: null,
        };
        if (STOPS.includes(outcome.failure)) stop = outcome.failure;
      }
      samples.push(sample);
      await deps.answers.putSample(run.id, sample, retention(deps));
      if (stop) break outer;
    }
  }
  const counted = tally(samples, plan.set.questions.length);
  const answered = samples.filter((s) => s.ok).length;
  const planned = plan.set.questions.length * plan.samples;
  const status: ProviderStatus = stop === "key_refused"
    ? "key_refused"
    : stop === "rate_limited"
    ? "rate_limited"
    : answered === 0
    ? "failed"
    : answered < planned
    ? "partial"
    : "done";
  return {
    id: p.adapter.id,
    label: p.adapter.label,
    model: p.model,
    keySource: p.keySource,
    status,
    detail: statusText(status, p, answered, calls, planned, stop),
    planned,
    calls,
    questions: counted.questions,
    overall: counted.overall,
    usage,
    usd: round(usd),
    failures: failuresOf(samples),
    causes: null,
    changes: [],
  };
}

function notConfigured(p: PlannedProvider): ProviderResult {
  const empty = tally([], 0).overall;
  return {
    id: p.adapter.id,
    label: p.adapter.label,
    model: null,
    keySource: null,
    status: "not_configured",
    detail: `Not configured: no key (the operator sets ${keyVariable(p.adapter.id)}). This is ` +
      "not a zero: nothing was asked.",
    planned: 0,
    calls: 0,
    questions: [],
    overall: empty,
    usage: { inputTokens: 0, outputTokens: 0, searches: 0 },
    usd: 0,
    failures: [],
    causes: null,
    changes: [],
  };
}

function statusText(
  status: ProviderStatus,
  p: PlannedProvider,
  answered: number,
  calls: number,
  planned: number,
  stop: CallFailure | null,
): string {
  const who = p.keySource === "account" ? "your own key" : "the instance's key";
  switch (status) {
    case "done":
      return `All ${planned} calls answered (${p.model}, ${who}).`;
    case "partial":
      return `${answered} of ${calls} calls answered; the failures are listed and not counted.`;
    case "rate_limited":
      return `${p.adapter.label} kept answering "too many requests": stopped after ${calls} of ` +
        `${planned} calls (${answered} answered); the rest was not asked and is not counted.`;
    case "key_refused":
      return `${p.adapter.label} refused ${who} (not valid, or no credit left): stopped after ` +
        `${calls} of ${planned} calls.`;
    default:
      return stop === "bad_request"
        ? `${p.adapter.label} refused the request (is "${p.model}" a model it serves with web ` +
          "search?): stopped."
        : `None of ${calls} calls was answered; the failures are listed.`;
  }
}

function failuresOf(samples: Sample[]): ProviderResult["failures"] {
  const out = new Map<string, ProviderResult["failures"][number]>();
  for (const s of samples) {
    if (s.ok || !s.failure) continue;
    const key = `${s.failure}:${s.status}:${s.code}`;
    const f = out.get(key) ?? { failure: s.failure, status: s.status, code: s.code, count: 0 };
    f.count++;
    out.set(key, f);
  }
  return [...out.values()];
}
