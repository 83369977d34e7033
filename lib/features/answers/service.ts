/**
 * Builds answer presence's dependencies (lib/features/answers/context.ts) from the server's parts: called
 * once by the composition root. The vendors get a guarded fetcher of their own: ANSWERS_RESOLVE
 * (tests' replay server; never SCAN_RESOLVE, so an instance mapping an intranet host for scanning
 * cannot send vendor keys there), no redirects, 2 MB answers, ANSWERS_TIMEOUT_MS per attempt.
 */
import type { Config } from "../../kit/config.ts";
import { createGuardedFetcher, type LookupFunction } from "../../kit/net/guarded_fetch.ts";
import type { ServiceDef } from "../../service.ts";
import { AnswersStore } from "./store.ts";
import type { Store } from "../../kit/storage/store.ts";
import type { SecretBox } from "../../kit/auth/secret_box.ts";
import type { AnswersDeps, WatchedSites } from "./context.ts";
import { MAX_ANSWER_BYTES } from "./vendor_call.ts";
import type { JobRunner } from "../../kit/isolate/protocol.ts";
import { inlineRunner } from "../../kit/isolate/runner.ts";
import { answersJobModules } from "./jobs.ts";

/** The parts answer presence is built from. */
export interface AnswersParts {
  kv: Deno.Kv;
  store: Store;
  service: ServiceDef;
  config: Config;
  /** The watch list (who watches what: the watch feature's) and the instance's secret box. */
  watches: WatchedSites;
  box: () => Promise<SecretBox>;
  now: () => number;
  lookup?: LookupFunction;
  log: (entry: Record<string, unknown>) => void;
  /** Tests replace the wait between vendor retries. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Where the site's facts and the vendors' answers are read: the server's workers
   * (lib/app/server.ts); default: this isolate (the CLI, `deno task answers`, which reads the sites
   * its operator names).
   */
  runJob?: JobRunner;
}

/** Answer presence of one service. */
export function createAnswersDeps(parts: AnswersParts): AnswersDeps {
  const { config } = parts;
  const inline = inlineRunner({}, answersJobModules());
  return {
    config,
    service: parts.service,
    store: parts.store,
    answers: new AnswersStore(parts.kv, parts.service.name),
    watches: parts.watches,
    box: parts.box,
    vendorFetcher: createGuardedFetcher({
      userAgent: config.userAgent,
      resolve: config.answers.resolve,
      requestTimeoutMs: config.answers.timeoutMs,
      maxBodyBytes: MAX_ANSWER_BYTES,
      maxRedirects: 0,
      lookup: parts.lookup,
    }),
    runJob: parts.runJob ?? ((job, ms) => inline.runJob(job, ms)),
    now: parts.now,
    sleep: parts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    log: parts.log,
    running: new Set(),
  };
}

/** Closes the fetchers once the runs in progress have ended. */
export async function closeAnswers(deps: AnswersDeps): Promise<void> {
  await Promise.allSettled([...deps.running]);
  await deps.vendorFetcher.close();
}
