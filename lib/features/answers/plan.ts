/**
 * What a run of a site would do, before it does anything: the owner's questions (the default set
 * built from the site's own facts the first time), which providers have a key (the account's own
 * where the operator allows it, else the operator's), the model of each, and the estimated cost.
 * The API's estimate, MCP and the report's section show this plan; a run starts from it.
 */
import { priceVariable, SAMPLE_FLOOR } from "./config.ts";
import { CANARY_QUESTIONS } from "./canary.ts";
import { normaliseTarget } from "../../kit/net/target.ts";
import { BadRequestError } from "../../kit/errors.ts";
import type { AnswersDeps } from "./context.ts";
import { estimateProvider, round } from "./cost.ts";
import type { CallPrice, ProviderAdapter } from "./provider.ts";
import { PROVIDERS } from "./providers.ts";
import { defaultQuestions, ownerCompetitors, ownerQuestions } from "./questions.ts";
import { siteOf } from "./presence.ts";
import type { Estimate, KeySource, Owner, QuestionSet, Sampling } from "./run_types.ts";
import { bare, SITE_FACTS_TIMEOUT_MS, type SiteFacts, type SiteFactsJob } from "./site_facts.ts";
import { ScanIsolationError } from "../../kit/isolate/runner.ts";
import { openUserKey } from "./user_keys.ts";
import { watchOfDomain } from "./access.ts";

/** One provider in a plan. */
export interface PlannedProvider {
  adapter: ProviderAdapter;
  model: string;
  /** The key in clear (never shown, never logged), or null: not configured. */
  key: string | null;
  keySource: KeySource | null;
  price: CallPrice;
}

/** A run's plan. */
export interface Plan {
  owner: Owner;
  domain: string;
  /** The home page whose facts built the default questions. */
  url: string;
  set: QuestionSet;
  /** Answers per question in the first round. */
  samples: number;
  /** The most answers per question (adaptive), else `samples`. */
  maxSamples: number;
  sampling: Sampling;
  /** Canary calls per provider (0: the panel is off). */
  canaryCalls: number;
  /** The most calls one provider's part may make: what is reserved for it. */
  callsPerProvider: number;
  providers: PlannedProvider[];
  estimate: Estimate;
}

/** The domain of a `url` argument. @throws BadRequestError. */
export function domainOf(input: string): { domain: string; url: string } {
  try {
    const t = normaliseTarget(input);
    return { domain: t.domain, url: t.url };
  } catch (error) {
    throw new BadRequestError(`url: ${(error as Error).message}`);
  }
}

/** The owner's questions for the site: the stored set, or the default one (stored now). */
export async function questionSet(
  deps: AnswersDeps,
  owner: Owner,
  domain: string,
  url: string,
): Promise<QuestionSet> {
  const stored = await deps.answers.getQuestions(owner, domain);
  if (stored) return stored;
  const facts = await siteFacts(deps, url, domain);
  const set: QuestionSet = {
    questions: defaultQuestions(facts),
    competitors: [],
    origin: "default",
    facts,
    updatedAt: deps.now(),
  };
  await deps.answers.putQuestions(owner, domain, set);
  return set;
}

/**
 * What the site's home page says about itself, read and parsed in a worker (the "site-facts"
 * job): a page that takes the worker past its limits gives the domain alone, saying so.
 */
async function siteFacts(deps: AnswersDeps, url: string, domain: string): Promise<SiteFacts> {
  const job: SiteFactsJob = {
    kind: "site-facts",
    url,
    domain,
    fetch: {
      userAgent: deps.config.userAgent,
      scanResolve: deps.config.scanResolve,
      requestTimeoutMs: deps.config.requestTimeoutMs,
    },
  };
  try {
    return await deps.runJob(job, SITE_FACTS_TIMEOUT_MS) as SiteFacts;
  } catch (error) {
    if (!(error instanceof ScanIsolationError)) throw error;
    deps.log({ event: "answers.site_facts_failed", domain, cause: error.kind });
    return bare(domain, `the home page could not be analysed (${error.message})`);
  }
}

/** The owner's edit of a site's questions and competitors. @throws BadRequestError. */
export async function editQuestions(
  deps: AnswersDeps,
  owner: Owner,
  domain: string,
  url: string,
  input: { questions?: unknown; competitors?: unknown },
): Promise<QuestionSet> {
  const before = await questionSet(deps, owner, domain, url);
  const site = { domain: siteOf(domain), brand: before.facts?.brand.text ?? null };
  const set: QuestionSet = {
    questions: input.questions === undefined
      ? before.questions
      : ownerQuestions(input.questions, deps.config.answers.maxQuestions, site),
    ...(input.competitors === undefined
      ? { competitors: before.competitors, competitorNames: before.competitorNames ?? {} }
      : (({ domains, names }) => ({ competitors: domains, competitorNames: names }))(
        ownerCompetitors(input.competitors, site.domain),
      )),
    origin: "owner",
    facts: before.facts,
    updatedAt: deps.now(),
  };
  await deps.answers.putQuestions(owner, domain, set);
  deps.log({ event: "answers.questions_set", domain, questions: set.questions.length });
  return set;
}

/** The plan of a run of `domain` by `owner` (nothing is called, nothing is reserved). */
export async function planRun(deps: AnswersDeps, owner: Owner, input: string): Promise<Plan> {
  const { domain, url: typedUrl } = domainOf(input);
  const watch = owner.kind === "account"
    ? await watchOfDomain(deps, owner.accountId, domain)
    : null;
  const url = watch?.url ?? typedUrl;
  const set = await questionSet(deps, owner, domain, url);
  const settings = deps.config.answers;
  const providers: PlannedProvider[] = [];
  for (const adapter of PROVIDERS) {
    const s = settings.providers[adapter.id];
    const own = owner.kind === "account"
      ? await openUserKey(deps, owner.accountId, adapter.id)
      : null;
    providers.push({
      adapter,
      model: s.model ?? adapter.defaultModel,
      key: own ?? s.key ?? null,
      keySource: own ? "account" : s.key ? "operator" : null,
      price: s.price ?? adapter.price.value,
    });
  }
  const adaptive = settings.sampling === "adaptive";
  const maxSamples = adaptive ? Math.max(settings.samples, settings.maxSamples) : settings.samples;
  const canaryCalls = settings.canary ? CANARY_QUESTIONS.length : 0;
  const calls = set.questions.length * maxSamples + canaryCalls;
  const configured = providers.filter((p) => p.key);
  const estimates = configured.map((p) =>
    estimateProvider(
      p.adapter,
      p.model,
      calls,
      settings.providers[p.adapter.id].price,
      priceVariable(p.adapter.id),
    )
  );
  return {
    owner,
    domain,
    url,
    set,
    samples: settings.samples,
    maxSamples,
    sampling: {
      mode: settings.sampling,
      samples: settings.samples,
      floor: SAMPLE_FLOOR,
      meetsFloor: settings.samples >= SAMPLE_FLOOR,
      targetWidth: adaptive ? settings.targetWidth : null,
      maxSamples,
    },
    canaryCalls,
    callsPerProvider: calls,
    providers,
    estimate: {
      questions: set.questions.length,
      samples: settings.samples,
      canaryCalls,
      calls: calls * configured.length,
      usd: round(estimates.reduce((n, e) => n + e.usd, 0)),
      providers: estimates,
      notConfigured: providers.filter((p) => !p.key).map((p) => p.adapter.id),
    },
  };
}
