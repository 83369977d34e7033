/**
 * One provider's part of a run: the canary panel first (canary.ts), then every question asked N
 * times (the published floor by default), one call after another, each answer (or failed call)
 * kept as a sample; with adaptive sampling, more rounds for each question whose interval is still
 * wider than the target, up to the most answers per question. The provider stops at a refused
 * key, a rate limit it kept answering after its retries, or a request it refused. Then its samples
 * are counted (results.ts): every source an answer gives, whatever is kept for display.
 */
import { keyVariable } from "./config.ts";
import type { AnswersDeps } from "./context.ts";
import { callCost, round } from "./cost.ts";
import type { Plan, PlannedProvider } from "./plan.ts";
import { type SiteIdentity, siteOf } from "./presence.ts";
import type { Usage } from "./provider.ts";
import { tally } from "./results.ts";
import type { AnswerRun, ProviderResult, ProviderStatus, Sample } from "./run_types.ts";
import { type CallFailure, type CallOutcome, callProvider } from "./vendor_call.ts";
import {
  CANARY_QUESTIONS,
  type CanaryPrint,
  type CanaryVerdict,
  compareCanary,
  shortAnswer,
} from "./canary.ts";
import type { Rate } from "./wilson.ts";
import {
  VENDOR_ANSWER_TIMEOUT_MS,
  type VendorAnswerJob,
  type VendorReading,
} from "./vendor_answer.ts";

/** Failures that stop a provider for the rest of the run. */
const STOPS: CallFailure[] = ["key_refused", "rate_limited", "bad_request"];

/** Asks every question of one provider; stops it on a refused key, a rate limit, a bad request. */
export async function askProvider(
  deps: AnswersDeps,
  plan: Plan,
  run: AnswerRun,
  p: PlannedProvider,
  onCalls: (n: number) => void,
  retention: number,
): Promise<ProviderResult> {
  const site: SiteIdentity = {
    domain: siteOf(plan.domain),
    brand: plan.set.facts?.brand.text ?? null,
    competitors: plan.set.competitors,
    competitorNames: plan.set.competitorNames ?? {},
  };
  const samples: Sample[] = [];
  let calls = 0;
  let stop: CallFailure | null = null;
  const usage: Usage = { inputTokens: 0, outputTokens: 0, searches: 0 };
  let usd = 0;
  let reported: string | null = null;
  const ask = async (question: string): Promise<CallOutcome> => {
    calls++;
    onCalls(calls);
    const outcome = await callProvider(p.adapter, question, p.model, p.key!, {
      fetcher: deps.vendorFetcher,
      timeoutMs: deps.config.answers.timeoutMs,
      sleep: deps.sleep,
      now: deps.now,
      // The vendor's body is read and judged in a worker (lib/features/answers/vendor_answer.ts).
      read: (response) => {
        const job: VendorAnswerJob = { kind: "vendor-answer", ...response, site };
        return deps.runJob(job, VENDOR_ANSWER_TIMEOUT_MS) as Promise<VendorReading>;
      },
    });
    if (outcome.ok) {
      const a = outcome.answer;
      usage.inputTokens += a.usage.inputTokens;
      usage.outputTokens += a.usage.outputTokens;
      usage.searches += a.usage.searches;
      usd += callCost(p.price, a.usage);
      reported = a.model ?? reported;
    } else if (STOPS.includes(outcome.failure)) stop = outcome.failure;
    return outcome;
  };
  const canary = plan.canaryCalls ? await askCanary(deps, p, ask) : null;
  const one = async (q: number, i: number) => {
    const outcome = await ask(plan.set.questions[q].text);
    const sample = sampleOf(outcome, { provider: p.adapter.id, question: q, index: i }, deps);
    samples.push(sample);
    await deps.answers.putSample(run.id, sample, retention);
  };
  // The first round: every question `samples` times, one question after another.
  outer: for (let q = 0; q < plan.set.questions.length && !stop; q++) {
    for (let i = 0; i < plan.samples; i++) {
      await one(q, i);
      if (stop) break outer;
    }
  }
  // Adaptive: one more answer for each question still too wide, round after round.
  const s = deps.config.answers;
  if (s.sampling === "adaptive") {
    for (let i = plan.samples; i < plan.maxSamples && !stop; i++) {
      const wide = plan.set.questions.map((_, q) => q).filter((q) =>
        widthOf(samples.filter((x) => x.question === q)) > s.targetWidth
      );
      if (!wide.length) break;
      for (const q of wide) {
        await one(q, i);
        if (stop) break;
      }
    }
  }
  const counted = tally(samples, plan.set.questions.length);
  const answered = samples.filter((x) => x.ok).length;
  const asked = samples.length;
  const status: ProviderStatus = stop === "key_refused"
    ? "key_refused"
    : stop === "rate_limited"
    ? "rate_limited"
    : answered === 0
    ? "failed"
    : answered < asked
    ? "partial"
    : "done";
  return {
    id: p.adapter.id,
    label: p.adapter.label,
    model: p.model,
    keySource: p.keySource,
    status,
    detail: statusText(status, p, answered, asked, plan.callsPerProvider, stop),
    planned: plan.callsPerProvider,
    calls,
    questions: counted.questions,
    overall: counted.overall,
    usage,
    usd: round(usd),
    failures: failuresOf(samples),
    causes: null,
    changes: [],
    rateLabel: {
      provider: p.adapter.label,
      model: reported ?? p.model,
      surface: p.adapter.surface,
      answers: counted.overall.mentioned.n,
    },
    voice: counted.voice,
    canary,
  };
}

/** The widest of a question's named and cited intervals so far (1 with no answer). */
function widthOf(samples: Sample[]): number {
  const ok = samples.filter((s) => s.ok && s.presence);
  if (!ok.length) return 1;
  const { mentioned, cited } = tally(ok, 1).overall;
  const w = (r: Rate) => r.high - r.low;
  return Math.max(w(mentioned), w(cited));
}

/** One call's sample: the answer (its display cut, its presence judged on every source). */
function sampleOf(
  outcome: CallOutcome,
  base: { provider: Sample["provider"]; question: number; index: number },
  deps: AnswersDeps,
): Sample {
  const at = { ...base, at: deps.now() };
  if (outcome.ok) {
    // Read, clipped and judged in the worker (every source counted there; these are for display).
    const a = outcome.answer;
    return {
      ...at,
      ok: true,
      text: a.text,
      cut: a.cut,
      sources: a.sources,
      sourceTotal: a.sourceTotal,
      queries: a.queries,
      presence: a.presence,
      failure: null,
      status: 200,
      code: null,
      usage: a.usage,
      model: a.model,
    };
  }
  return {
    ...at,
    ok: false,
    text: "",
    cut: false,
    sources: [],
    sourceTotal: { cited: 0, retrieved: 0 },
    queries: [],
    presence: null,
    failure: outcome.failure,
    status: outcome.status,
    code: outcome.code,
    usage: null,
    model: null,
  };
}

/**
 * Asks the canary panel once each and compares the reading with the provider's previous one for
 * the same model name (then keeps this one for the next run).
 */
async function askCanary(
  deps: AnswersDeps,
  p: PlannedProvider,
  ask: (question: string) => Promise<CallOutcome>,
): Promise<CanaryVerdict> {
  const answers: (string | null)[] = [];
  let model: string | null = null;
  for (const q of CANARY_QUESTIONS) {
    const outcome = await ask(q);
    answers.push(outcome.ok ? shortAnswer(outcome.answer.text) : null);
    if (outcome.ok) model = outcome.answer.model?.slice(0, 200) ?? model;
    if (!outcome.ok && STOPS.includes(outcome.failure)) break;
  }
  while (answers.length < CANARY_QUESTIONS.length) answers.push(null);
  const print: CanaryPrint = { model, answers, at: deps.now() };
  const previous = await deps.answers.getCanary<CanaryPrint>(p.adapter.id, p.model);
  const verdict = compareCanary(p.adapter.label, print, previous);
  if (verdict.status !== "not_read") await deps.answers.putCanary(p.adapter.id, p.model, print);
  return verdict;
}

export function notConfigured(p: PlannedProvider): ProviderResult {
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
    rateLabel: {
      provider: p.adapter.label,
      model: p.model,
      surface: p.adapter.surface,
      answers: 0,
    },
    voice: [],
    canary: null,
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
      return `All ${calls} questions asked were answered (${p.model}, ${who}).`;
    case "partial":
      return `${answered} of ${calls} questions asked were answered; the failures are listed ` +
        "and not counted.";
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
