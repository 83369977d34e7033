/**
 * The shapes answer presence keeps (lib/features/answers/store.ts) and shows (the API, MCP, the
 * report's section): a run, each provider's result in it, one answer. Types only.
 */
import type { AnswerSource, ProviderId, Usage } from "./provider.ts";
import type { Presence } from "./presence.ts";
import type { Question } from "./questions.ts";
import type { CallFailure } from "./vendor_call.ts";
import type { Rate } from "./wilson.ts";
import type { ProviderEstimate } from "./cost.ts";
import type { SiteFacts } from "./site_facts.ts";
import type { Stability } from "./stability.ts";
import type { VoiceLine } from "./voice.ts";
import type { CanaryVerdict } from "./canary.ts";

/** Who a run, a question set or a key belongs to (the store's own type). */
export type { Owner, StoredKey } from "./store.ts";
import type { Owner } from "./store.ts";

/** Where the key of a provider's calls came from. */
export type KeySource = "operator" | "account";

/** The four measures of a question (or of a provider over every question). */
export interface Measures {
  mentioned: Rate;
  cited: Rate;
  competitorOnly: Rate;
  retrievedNotCited: Rate;
}
export type MeasureName = keyof Measures;

/** How one provider's part of a run went. */
export type ProviderStatus =
  /** No key: neither the operator's nor (when allowed) the account's. Never a zero. */
  | "not_configured"
  /** Every planned call was made and answered. */
  | "done"
  /** Some calls gave no answer (each failure is listed); the rates count the answers. */
  | "partial"
  /** The vendor kept answering 429 (or asked to wait too long): the rest was not asked. */
  | "rate_limited"
  /** The vendor refused the key, or it has no credit: the rest was not asked. */
  | "key_refused"
  /** No call gave an answer. */
  | "failed";

/** One question's result for one provider. */
export interface QuestionResult {
  /** Index into the run's questions. */
  question: number;
  /** Calls made for it, and answers among them (the rates' N). */
  asked: number;
  answered: number;
  measures: Measures;
  /** How much its answers agree with one another (stability.ts). */
  stability: Stability;
  /** The ranks at which its answers cite the site: the best and the median (null: never cited). */
  citedRank: { best: number | null; median: number | null };
  /** The searches the assistant ran for it, most frequent first, with how many answers ran each. */
  queries: { query: string; answers: number }[];
}

/** What every rate of a provider is: whose, which model, through what, how many answers. */
export interface RateLabel {
  provider: string;
  /** The model the vendor reported (else the one asked). */
  model: string;
  /** "API with web search (the Responses API), not the ChatGPT app". */
  surface: string;
  /** Answers the overall rates count. */
  answers: number;
}

/** A rate that moved between two runs: its intervals no longer overlap. */
export interface Change {
  /** A question (by its text), or the provider over every question (the sets must be equal). */
  question: string | null;
  measure: MeasureName;
  direction: "up" | "down";
  before: Rate;
  after: Rate;
}

/** One source's verdict on one crawler, beside the provider's result. */
export interface CrawlerLine {
  token: string;
  /** What the crawler does for the vendor: "search", "user" (fetches for a user), "other". */
  role: "search" | "user" | "other";
  verdicts: { source: string; label: string; access: "allowed" | "blocked" }[];
  /** The vendor says user-initiated fetches may not follow robots.txt. */
  mayIgnoreRobots: boolean;
}

/** The on-site causes beside a provider's result (never claimed as the cause). */
export interface Causes {
  crawlers: CrawlerLine[];
  /** Sentences: what plausibly explains an absence, or why access does not. */
  notes: string[];
}

/** One provider's part of a run. */
export interface ProviderResult {
  id: ProviderId;
  label: string;
  model: string | null;
  keySource: KeySource | null;
  status: ProviderStatus;
  /** The status in words. */
  detail: string;
  planned: number;
  /** Calls made (retries not counted). */
  calls: number;
  questions: QuestionResult[];
  /** Every question together. */
  overall: Measures;
  /** What the calls used, as the vendor reported it. */
  usage: Usage;
  /** Dollars by that usage at the estimate's price (an estimate). */
  usd: number;
  /** Failed calls by kind. */
  failures: { failure: CallFailure; status: number | null; code: string | null; count: number }[];
  causes: Causes | null;
  changes: Change[];
  /** Provider, model, surface and sample size of its rates. */
  rateLabel: RateLabel;
  /** The site's and each competitor's share of voice over every answer (voice.ts). */
  voice: VoiceLine[];
  /** The canary panel's reading, compared with the previous one (canary.ts); null: not asked. */
  canary: CanaryVerdict | null;
}

/** How a run samples (config.ts `sampling`). */
export interface Sampling {
  mode: "fixed" | "adaptive";
  /** Answers per question asked first (the published floor unless the operator set fewer). */
  samples: number;
  /** The published floor, and whether `samples` meets it. */
  floor: number;
  meetsFloor: boolean;
  /** Adaptive: the interval width it samples down to, and the most answers per question. */
  targetWidth: number | null;
  maxSamples: number;
}

/** The estimate shown before a run, and kept with it. */
export interface Estimate {
  questions: number;
  samples: number;
  /** Canary calls per provider, in `calls`. */
  canaryCalls: number;
  calls: number;
  usd: number;
  providers: ProviderEstimate[];
  notConfigured: ProviderId[];
}

/** A run. */
export interface AnswerRun {
  id: string;
  owner: Owner;
  domain: string;
  status: "running" | "done" | "failed";
  createdAt: number;
  finishedAt: number | null;
  /** Times each question is asked per provider (the first round, when adaptive). */
  samples: number;
  sampling: Sampling;
  questions: Question[];
  brand: string | null;
  competitors: string[];
  estimate: Estimate;
  providers: ProviderResult[];
  /** The stored scan whose crawler verdicts stand beside the results, when there was one. */
  scan: { scannedAt: string; status: string } | null;
  previousRunId: string | null;
  /** Why the run failed (status "failed"). */
  problem: string | null;
}

/** One answer (or one failed call), stored apart from its run. */
export interface Sample {
  provider: ProviderId;
  question: number;
  /** 0..samples-1. */
  index: number;
  at: number;
  ok: boolean;
  /** The answer's text, cut at MAX_ANSWER_CHARS (then `cut`). */
  text: string;
  cut: boolean;
  /** The first sources kept for display (every source was counted: `sourceTotal`). */
  sources: AnswerSource[];
  sourceTotal: { cited: number; retrieved: number };
  /** The searches the assistant ran (where its API says). */
  queries: string[];
  presence: Presence | null;
  failure: CallFailure | null;
  status: number | null;
  code: string | null;
  usage: Usage | null;
  model: string | null;
}

/** An owner's questions for a site, kept until they change them. */
export interface QuestionSet {
  questions: Question[];
  competitors: string[];
  /** A competitor's name the owner gave, by domain (share of voice looks for it). */
  competitorNames?: Record<string, string>;
  /** "default": built from the facts below; "owner": edited. */
  origin: "default" | "owner";
  facts: SiteFacts | null;
  updatedAt: number;
}
