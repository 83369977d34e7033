/**
 * The answer-presence settings (docs/answer-presence.md), read from the environment map that
 * lib/kit/config.ts hands over (config.ts stays the only reader of the environment): the operator's
 * API keys of the four vendors, the model and price of each, how often each question is asked, the
 * budgets of calls per day, whether users may bring their own keys, and the tests' resolve map.
 */

import { intSetting } from "../../kit/config_values.ts";

/** Where a host of a resolve map connects (the shape of config_types.ts's ResolveTarget). */
type ResolveTarget = { host: string; port: number };

/** The vendors whose answers are read (lib/features/answers/providers.ts). */
export const PROVIDER_IDS = ["openai", "perplexity", "anthropic", "gemini"] as const;
export type ProviderId = typeof PROVIDER_IDS[number];

/**
 * What calls cost, in US dollars: a fee per request (Perplexity's request fee), a fee per web
 * search the call runs (OpenAI's and Anthropic's search tool, Gemini's search queries) and the
 * price of a million input and output tokens.
 */
export interface CallPrice {
  perRequest: number;
  perSearch: number;
  inputPerMTok: number;
  outputPerMTok: number;
}

/** One vendor's settings. */
export interface ProviderSettings {
  /** The operator's key (OPENAI_API_KEY, ...); undefined: only users' own keys, if allowed. */
  key: string | undefined;
  /** ANSWERS_<VENDOR>_MODEL; undefined: the adapter's default. */
  model: string | undefined;
  /**
   * ANSWERS_<VENDOR>_PRICE ("perRequest,perSearch,inputPerMTok,outputPerMTok"); undefined: the
   * adapter's default (the price of its default model).
   */
  price: CallPrice | undefined;
}

/** The answer-presence settings. */
export interface AnswersSettings {
  providers: Record<ProviderId, ProviderSettings>;
  /**
   * Times each question is asked per vendor in a run (ANSWERS_SAMPLES, 1-20, default
   * {@link SAMPLE_FLOOR}, the published floor); with adaptive sampling, the first round.
   */
  samples: number;
  /**
   * "fixed": every question `samples` times; "adaptive": then more, one round at a time, for each
   * question whose interval is wider than `targetWidth`, up to `maxSamples` (ANSWERS_SAMPLING).
   */
  sampling: "fixed" | "adaptive";
  /** The interval width adaptive sampling stops at, 0..1 (ANSWERS_TARGET_WIDTH, default 0.35). */
  targetWidth: number;
  /** The most answers per question in an adaptive run (ANSWERS_MAX_SAMPLES, default 15). */
  maxSamples: number;
  /** Whether each run asks every provider the canary panel (canary.ts; ANSWERS_CANARY, on). */
  canary: boolean;
  /**
   * One account's share of the global pool on the operator's keys, in percent
   * (ANSWERS_ACCOUNT_SHARE_PERCENT, default 25).
   */
  accountSharePercent: number;
  /**
   * The part of the global pool no account may use, kept for the operator's own runs, in percent
   * (ANSWERS_OPERATOR_RESERVE_PERCENT, default 20).
   */
  operatorReservePercent: number;
  /** Questions per watched site at most (ANSWERS_MAX_QUESTIONS, 1-10, default 5). */
  maxQuestions: number;
  /** Calls per account per UTC day, all vendors (ANSWERS_ACCOUNT_CALLS_PER_DAY, default 150). */
  accountCallsPerDay: number;
  /** Calls on the operator's keys per UTC day, every caller (ANSWERS_GLOBAL_CALLS_PER_DAY, 500). */
  globalCallsPerDay: number;
  /** Signed-in users may store their own vendor keys (ANSWERS_USER_KEYS=1; default off). */
  userKeys: boolean;
  /** ANSWERS_USER_KEYS was set without WATCH_SECRET_KEY: users' keys stay off (start-up says so). */
  userKeysRefused: boolean;
  /** Time given to one vendor call, retries not included (ANSWERS_TIMEOUT_MS, default 60 s). */
  timeoutMs: number;
  /** Tests only: vendor hosts reached at a loopback address over HTTP (ANSWERS_RESOLVE). */
  resolve: Map<string, ResolveTarget>;
}

/**
 * The published floor of answers per question: Schulte, Bleeker & Kaufmann, "Don't Measure Once:
 * Measuring Visibility in AI Search (GEO)", arXiv 2604.07585 (2026-04-08,
 * https://arxiv.org/abs/2604.07585, checked 2026-12-06), recommend at least 7 runs per prompt per
 * day for brand visibility.
 */
export const SAMPLE_FLOOR = 7;

const ENV_NAMES: Record<ProviderId, { key: string; prefix: string }> = {
  openai: { key: "OPENAI_API_KEY", prefix: "ANSWERS_OPENAI" },
  perplexity: { key: "PERPLEXITY_API_KEY", prefix: "ANSWERS_PERPLEXITY" },
  anthropic: { key: "ANTHROPIC_API_KEY", prefix: "ANSWERS_ANTHROPIC" },
  gemini: { key: "GEMINI_API_KEY", prefix: "ANSWERS_GEMINI" },
};

/** The environment variable of each vendor's operator key (for messages and docs). */
export function keyVariable(id: ProviderId): string {
  return ENV_NAMES[id].key;
}

/** The setting of a vendor's price ("ANSWERS_OPENAI_PRICE"). */
export function priceVariable(id: ProviderId): string {
  return `${ENV_NAMES[id].prefix}_PRICE`;
}

/**
 * Reads the settings. `parseResolve` is lib/kit/config.ts's parser of `host=ip:port` lists.
 * @throws Error naming the setting when a value cannot be used.
 */
export function answersFromEnv(
  env: Record<string, string | undefined>,
  parseResolve: (name: string, value: string | undefined) => Map<string, ResolveTarget>,
): AnswersSettings {
  const text = (name: string) => env[name]?.trim() || undefined;
  const providers = Object.fromEntries(PROVIDER_IDS.map((id) => {
    const names = ENV_NAMES[id];
    const model = text(`${names.prefix}_MODEL`);
    if (model && (model.length > 100 || !/^[A-Za-z0-9._:-]+$/.test(model))) {
      throw new Error(`${names.prefix}_MODEL must be a model name such as "sonar"`);
    }
    return [id, {
      key: text(names.key),
      model,
      price: parsePrice(`${names.prefix}_PRICE`, text(`${names.prefix}_PRICE`)),
    }];
  })) as Record<ProviderId, ProviderSettings>;
  const userKeysAsked = ["1", "true"].includes(text("ANSWERS_USER_KEYS") ?? "0");
  const sealingKey = (text("WATCH_SECRET_KEY")?.length ?? 0) >= 32;
  return {
    providers,
    samples: intSetting(env, "ANSWERS_SAMPLES", SAMPLE_FLOOR, 1, 20),
    sampling: sampling(text("ANSWERS_SAMPLING")),
    targetWidth: fraction(env, "ANSWERS_TARGET_WIDTH", 0.35),
    maxSamples: intSetting(env, "ANSWERS_MAX_SAMPLES", 15, 1, 50),
    canary: !["0", "false"].includes(text("ANSWERS_CANARY") ?? "1"),
    accountSharePercent: intSetting(env, "ANSWERS_ACCOUNT_SHARE_PERCENT", 25, 0, 100),
    operatorReservePercent: intSetting(env, "ANSWERS_OPERATOR_RESERVE_PERCENT", 20, 0, 100),
    maxQuestions: intSetting(env, "ANSWERS_MAX_QUESTIONS", 5, 1, 10),
    accountCallsPerDay: intSetting(env, "ANSWERS_ACCOUNT_CALLS_PER_DAY", 150, 0, 100_000),
    globalCallsPerDay: intSetting(env, "ANSWERS_GLOBAL_CALLS_PER_DAY", 500, 0, 1_000_000),
    // Users' keys are sealed with WATCH_SECRET_KEY, a key kept outside the store: without it
    // they stay off (a key kept in KV beside them would open them for anyone with a copy).
    userKeys: userKeysAsked && sealingKey,
    userKeysRefused: userKeysAsked && !sealingKey,
    timeoutMs: intSetting(env, "ANSWERS_TIMEOUT_MS", 60_000, 1_000, 300_000),
    resolve: parseResolve("ANSWERS_RESOLVE", env.ANSWERS_RESOLVE),
  };
}

function sampling(value: string | undefined): "fixed" | "adaptive" {
  if (value === undefined || value === "fixed" || value === "adaptive") return value ?? "fixed";
  throw new Error('ANSWERS_SAMPLING must be "fixed" or "adaptive"');
}

function fraction(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n >= 1) throw new Error(`${name} must be between 0 and 1`);
  return n;
}

/** The day's budgets of calls, from the settings (lib/features/answers/store.ts BudgetLimits). */
export function budgetLimits(s: AnswersSettings) {
  const global = s.globalCallsPerDay;
  return {
    account: s.accountCallsPerDay,
    share: Math.floor((global * s.accountSharePercent) / 100),
    accounts: Math.floor((global * (100 - s.operatorReservePercent)) / 100),
    global,
  };
}

function parsePrice(name: string, value: string | undefined): CallPrice | undefined {
  if (!value) return undefined;
  const parts = value.split(",").map((s) => Number(s.trim()));
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n) || n < 0 || n > 10_000)) {
    throw new Error(
      `${name} must be "perRequest,perSearch,inputPerMTok,outputPerMTok" in US dollars ` +
        "(e.g. 0,0.01,0.75,4.5)",
    );
  }
  return {
    perRequest: parts[0],
    perSearch: parts[1],
    inputPerMTok: parts[2],
    outputPerMTok: parts[3],
  };
}

/** The start-up line about answer presence (which vendors have a key; the budgets). */
export function describeAnswers(s: AnswersSettings): string {
  const keyed = PROVIDER_IDS.filter((id) => s.providers[id].key);
  return `Answer presence: ${
    keyed.length ? `operator keys for ${keyed.join(", ")}` : "no operator key"
  }${s.userKeys ? "; users may add their own keys" : ""}${
    s.userKeysRefused
      ? "; users' own keys are OFF: ANSWERS_USER_KEYS needs WATCH_SECRET_KEY (the key that seals " +
        "them, kept outside the store; docs/security.md)"
      : ""
  }; ${s.samples} answers per question${
    s.sampling === "adaptive" ? ` (adaptive, up to ${s.maxSamples})` : ""
  }${s.samples < SAMPLE_FLOOR ? ` (below the published floor of ${SAMPLE_FLOOR})` : ""}; ` +
    `budgets ${s.accountCallsPerDay} calls per account and ${s.globalCallsPerDay} on the ` +
    `operator's keys per UTC day, of which an account may use ${
      budgetLimits(s).share
    } and all accounts ${budgetLimits(s).accounts}${
      s.resolve.size ? "; ANSWERS_RESOLVE is set (tests only)" : ""
    }`;
}
