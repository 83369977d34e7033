/**
 * What answer presence needs, built once in the composition root (lib/app/server.ts through
 * lib/features/answers/service.ts) and handed to the API, MCP, the report's section and the CLI.
 */
import type { Config } from "../../kit/config.ts";
import type { AppDeps } from "../../kit/web/context.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import type { ServiceDef } from "../../service.ts";
import type { AnswersStore } from "./store.ts";
import type { Store } from "../../kit/storage/store.ts";
import type { AnswerRun, QuestionSet, Sample } from "./run_types.ts";
import type { SecretBox } from "../../kit/auth/secret_box.ts";
import type { JobRunner } from "../../kit/isolate/protocol.ts";

/** A site an account watches, as answer presence reads it. */
export interface WatchedSite {
  /** The record key (lib/kit/net/target.ts). */
  domain: string;
  /** Where a scan of it starts. */
  url: string;
}

/**
 * The sites an account watches: the watch feature's list (its store), handed in by the app
 * (lib/app/server.ts, lib/app/answers_cli.ts). Answer presence runs for them.
 */
export interface WatchedSites {
  list(accountId: string): Promise<WatchedSite[]>;
}

/** Answer presence's dependencies. */
export interface AnswersDeps {
  config: Config;
  service: ServiceDef;
  /** The service's scan store: the latest record of a site (its crawler verdicts), API keys. */
  store: Store;
  answers: AnswersStore<AnswerRun, Sample, QuestionSet>;
  /** The watch list: an account runs answer presence for the sites it watches. */
  watches: WatchedSites;
  /** Seals users' own vendor keys (the watch feature's box: WATCH_SECRET_KEY, else kept in KV). */
  box(): Promise<SecretBox>;
  /** Calls the vendors (ANSWERS_RESOLVE, never SCAN_RESOLVE; no redirects; 2 MB answers). */
  vendorFetcher: GuardedFetcher;
  /**
   * Runs a job in a worker (lib/kit/isolate/runner.ts): the site's facts, the vendors' answers and
   * first-party CSV exports are read there, never on the server's thread
   * (lib/features/answers/jobs.ts).
   */
  runJob: JobRunner;
  now: () => number;
  /** Waits before a vendor retry (tests record the waits instead). */
  sleep: (ms: number) => Promise<void>;
  log: (entry: Record<string, unknown>) => void;
  /** Runs in progress in this process (their promises), so tests and shutdown can wait. */
  running: Set<Promise<unknown>>;
  /**
   * Verified AI crawler hits per path in the account's server logs (the logs feature's observed
   * column), handed in by the app; absent without that feature.
   */
  observed?: (accountId: string, domain: string) => Promise<Map<string, number> | null>;
}

/**
 * The part of the app's dependencies answer presence's routes, tools and sections read
 * (lib/app/deps.ts puts it in the app's; createServer always builds it).
 */
export interface WithAnswers {
  answers?: AnswersDeps;
}

/** The app's dependencies as the feature's routes read them: the kit's, and the feature's part. */
export type AnswersAppDeps = AppDeps & WithAnswers;

/** Answer presence of an app's dependencies (createServer always builds it). */
export function answersOf(deps: WithAnswers): AnswersDeps {
  if (!deps.answers) throw new Error("answer presence was not built (lib/app/server.ts)");
  return deps.answers;
}

/** Resolves once every run in progress has ended. */
export async function idle(deps: AnswersDeps): Promise<void> {
  while (deps.running.size) await Promise.allSettled([...deps.running]);
}
