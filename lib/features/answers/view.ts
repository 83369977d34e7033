/**
 * Answer presence as the API, MCP and the report's section show it: a site's plan (its questions
 * with their basis, which providers are configured, the estimated cost and the budgets left
 * today), a run with its results, and its answers with their sources. Times are ISO strings;
 * nothing secret is in any of it (no key, no sealed value, no vendor error message).
 */
import type { AnswersDeps } from "./context.ts";
import { budgetLimits } from "./config.ts";
import type { Plan } from "./plan.ts";
import { PROVIDERS } from "./providers.ts";
import type { AnswerRun, Owner, Sample } from "./run_types.ts";
import { settled, utcDay } from "./run.ts";
import { MAX_ANSWER_CHARS, MAX_SOURCES } from "./provider.ts";
import { fillPath, PATHS } from "../../kit/report_urls.ts";

/** Where one run is, over the API. */
export function runPath(domain: string, id: string): string {
  return fillPath(PATHS.answerRun, { domain, id });
}

/** The caps on what is kept of an answer (said with every answer list). */
export const KEPT = {
  answerChars: MAX_ANSWER_CHARS,
  sourcesPerAnswer: MAX_SOURCES,
} as const;

/** A site's plan, as shown before a run. */
export async function planView(deps: AnswersDeps, plan: Plan) {
  const day = utcDay(deps.now());
  const used = await deps.answers.used(
    plan.owner.kind === "account" ? plan.owner.accountId : null,
    day,
  );
  const settings = deps.config.answers;
  const limits = budgetLimits(settings);
  return {
    domain: plan.domain,
    questions: plan.set.questions,
    questionsOrigin: plan.set.origin,
    competitors: plan.set.competitors,
    competitorNames: plan.set.competitorNames ?? {},
    brand: plan.set.facts?.brand ?? null,
    samples: plan.samples,
    sampling: plan.sampling,
    providers: plan.providers.map((p) => ({
      id: p.adapter.id,
      label: p.adapter.label,
      configured: !!p.key,
      keySource: p.keySource,
      model: p.key ? p.model : null,
      surface: p.adapter.surface,
      returnsQueries: p.adapter.returnsQueries,
      api: p.adapter.api,
      docs: p.adapter.docs,
    })),
    estimate: {
      ...plan.estimate,
      note: "An estimate: calls x the vendors' published prices (or the operator's), with the " +
        "tokens and searches each call is assumed to use. The vendors bill what the calls " +
        "really use.",
    },
    budget: {
      day,
      account: plan.owner.kind === "account" ? { used: used.account, limit: limits.account } : null,
      // The account's fair share of the operator's keys, and what all accounts may use of them
      // (the rest is the operator's reserve).
      share: plan.owner.kind === "account" ? { used: used.share, limit: limits.share } : null,
      accounts: { used: used.accounts, limit: limits.accounts },
      global: { used: used.global, limit: limits.global },
    },
    userKeys: settings.userKeys,
  };
}

/** A run, as listed and shown. */
export function runView(run: AnswerRun) {
  return {
    id: run.id,
    domain: run.domain,
    status: run.status,
    createdAt: new Date(run.createdAt).toISOString(),
    finishedAt: run.finishedAt === null ? null : new Date(run.finishedAt).toISOString(),
    samples: run.samples,
    sampling: run.sampling,
    questions: run.questions,
    brand: run.brand,
    competitors: run.competitors,
    estimate: run.estimate,
    providers: run.providers,
    scan: run.scan,
    previousRunId: run.previousRunId,
    problem: run.problem,
    links: { self: runPath(run.domain, run.id) },
  };
}

/** A run's answers, by provider and question, in order. */
export function answersView(run: AnswerRun, samples: Sample[]) {
  const order = (s: Sample) =>
    PROVIDERS.findIndex((p) => p.id === s.provider) * 10_000 + s.question * 100 + s.index;
  return {
    kept: KEPT,
    answers: [...samples].sort((a, b) => order(a) - order(b)).map((s) => ({
      provider: s.provider,
      question: run.questions[s.question]?.text ?? null,
      questionIndex: s.question,
      sample: s.index + 1,
      at: new Date(s.at).toISOString(),
      ok: s.ok,
      text: s.text,
      cut: s.cut,
      sources: s.sources,
      sourceTotal: s.sourceTotal,
      queries: s.queries,
      presence: s.presence,
      failure: s.failure,
      status: s.status,
      code: s.code,
      model: s.model,
    })),
  };
}

/** The owner's runs of a site, newest first (the list's view). */
export async function runList(deps: AnswersDeps, owner: Owner, domain: string) {
  const runs = (await deps.answers.listRuns(owner, domain)).map((r) => settled(r, deps.now()));
  return runs.map((r) => ({
    id: r.id,
    status: r.status,
    createdAt: new Date(r.createdAt).toISOString(),
    providers: r.providers.map((p) => ({
      id: p.id,
      status: p.status,
      cited: p.overall.cited,
      mentioned: p.overall.mentioned,
    })),
    link: runPath(domain, r.id),
  }));
}
