/**
 * One provider's part of a run: every question asked N times, one call after another, each answer
 * (or failed call) kept as a sample; the provider stops at a refused key, a rate limit it kept
 * answering after its retries, or a request it refused. Then its samples are counted (results.ts).
 */
import { keyVariable } from "./config.ts";
import type { AnswersDeps } from "./context.ts";
import { callCost, round } from "./cost.ts";
import type { Plan, PlannedProvider } from "./plan.ts";
import { presenceOf, siteOf } from "./presence.ts";
import { MAX_ANSWER_CHARS, type Usage } from "./provider.ts";
import { tally } from "./results.ts";
import type { AnswerRun, ProviderResult, ProviderStatus, Sample } from "./run_types.ts";
import { type CallFailure, callProvider } from "./vendor_call.ts";

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
      await deps.answers.putSample(run.id, sample, retention);
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
