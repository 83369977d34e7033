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
  /** Times each question is asked per vendor in a run (ANSWERS_SAMPLES, 1-10, default 3). */
  samples: number;
  /** Questions per watched site at most (ANSWERS_MAX_QUESTIONS, 1-10, default 5). */
  maxQuestions: number;
  /** Calls per account per UTC day, all vendors (ANSWERS_ACCOUNT_CALLS_PER_DAY, default 60). */
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
    samples: intSetting(env, "ANSWERS_SAMPLES", 3, 1, 10),
    maxQuestions: intSetting(env, "ANSWERS_MAX_QUESTIONS", 5, 1, 10),
    accountCallsPerDay: intSetting(env, "ANSWERS_ACCOUNT_CALLS_PER_DAY", 60, 0, 100_000),
    globalCallsPerDay: intSetting(env, "ANSWERS_GLOBAL_CALLS_PER_DAY", 500, 0, 1_000_000),
    // Users' keys are sealed with WATCH_SECRET_KEY, a key kept outside the store: without it
    // they stay off (a key kept in KV beside them would open them for anyone with a copy).
    userKeys: userKeysAsked && sealingKey,
    userKeysRefused: userKeysAsked && !sealingKey,
    timeoutMs: intSetting(env, "ANSWERS_TIMEOUT_MS", 60_000, 1_000, 300_000),
    resolve: parseResolve("ANSWERS_RESOLVE", env.ANSWERS_RESOLVE),
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
  }; ${s.samples} answers per question; ` +
    `budgets ${s.accountCallsPerDay} calls per account and ${s.globalCallsPerDay} on the ` +
    `operator's keys per UTC day${s.resolve.size ? "; ANSWERS_RESOLVE is set (tests only)" : ""}`;
}
