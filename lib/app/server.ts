/**
 * The composition root: the one place that builds the stores, the limiter, the job queue, the
 * challenge, the route dependencies, the scan threads, the worker, the report cache and the
 * request handler. main.ts calls it with the loaded config; the tests and benchmarks call it with
 * overrides (an in-memory KV, a clock, a DNS resolver, a challenge, a service), so what they
 * exercise is what production wires.
 */
import {
  type BoundRecordAnswer,
  type BoundRecordJob,
  setStoredRecordSummariser,
} from "../kit/limits/record_budget.ts";
import type { ThreadJobModules } from "../kit/isolate/protocol.ts";
import type { Hono } from "hono";
import { createApp, createHandler } from "./app.ts";
import type { AppEnv } from "../kit/web/context.ts";
import type { ServerDeps } from "./deps.ts";
import type { RouteDef } from "../kit/web/route.ts";
import { Altcha, sharedSecret } from "../kit/auth/altcha.ts";
import {
  type ChallengeProvider,
  challengeProvider,
  TurnstileMonitor,
  turnstileVerifier,
} from "../kit/auth/challenge.ts";
import type { Config } from "../kit/config.ts";
import { cleanUp } from "../kit/storage/cleanup.ts";
import { inlineRunner, type ScanRunner, startScanThreads } from "../kit/isolate/scan_threads.ts";
import { type JobQueue, KvNativeQueue, KvPolledQueue } from "../kit/storage/job_queue.ts";
import { openKv } from "../kit/storage/kv_open.ts";
import { KvLimiter, type Limiter } from "../kit/limits/limiter.ts";
import { admissionFor } from "../kit/limits/admission.ts";
import { RedisLimiter } from "../kit/limits/limiter_redis.ts";
import { jsonLogger, type Logger, stdoutSink, withRequestLog } from "../kit/log.ts";
import { createGuardedFetcher, type LookupFunction } from "../kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../kit/net/types.ts";
import { ReportCache } from "../kit/storage/report_cache.ts";
import { inflightTtlMs } from "../engines/scan/scan_service.ts";
import type { AnyServiceDef, ServiceDef } from "../service.ts";
import { visibilityService } from "../features/visibility/service.ts";
import { schemaService } from "../features/schema/service.ts";
import { limitKeys, Store, type StoreOptions } from "../kit/storage/store.ts";
import { AccountStore, attemptKeys } from "../kit/storage/store_accounts.ts";
import { startWorker, type Worker } from "../engines/scan/worker.ts";
import { createWatchDeps } from "../features/watch/service.ts";
import { type TickReport, watchTick } from "../features/watch/scheduler.ts";
import { closeAnswers, createAnswersDeps } from "../features/answers/service.ts";
import { accountSections, reportSections } from "./sections.ts";
import { instanceSecretBox } from "../kit/auth/secret_box.ts";
import { citedPagesOf } from "../features/answers/cited_pages.ts";
import { logsOf } from "../features/logs/site_logs.ts";

/**
 * Every service this program can run, by name: the one registry (a shared queue may carry any
 * registered service's jobs). A service is its folder, lib/features/<name>/; registering it here
 * is the only other line it needs.
 */
export const SERVICES: Record<string, ServiceDef> = registry([visibilityService, schemaService]);

function registry(services: AnyServiceDef[]): Record<string, ServiceDef> {
  return Object.fromEntries(services.map((s) => [s.name, s as ServiceDef]));
}

/** The service a config selects. */
export function serviceFor(config: Pick<Config, "service">): ServiceDef {
  const s = SERVICES[config.service];
  if (!s) throw new Error(`The ${config.service} service is not available in this build`);
  return s;
}

/** A start-up setting outside lib/kit/config.ts is wrong (SCAN_ISOLATION and its limits). */
export class StartupConfigError extends Error {
  constructor(message: string) {
    super(`Invalid configuration: ${message}`);
    this.name = "StartupConfigError";
  }
}

/** What the parts a challenge is built from are (for a {@link ServerOverrides.challenge} factory). */
export interface ChallengeParts {
  kv: Deno.Kv;
  /** The guarded fetcher the server's own outbound calls use (Turnstile's verifier). */
  fetcher: GuardedFetcher;
  now: () => number;
  config: Config;
}

/** What tests and benchmarks replace; production passes none of it. */
export interface ServerOverrides {
  /** An open KV (tests: `:memory:`); else the one the config names (lib/kit/storage/kv_open.ts). */
  kv?: Deno.Kv;
  /**
   * True when this process is the only writer of the KV (scan admissions decided in memory).
   * Default: a local file or memory opened here; with `kv` given, true unless `queue` is given.
   */
  exclusive?: boolean;
  /** Milliseconds since the epoch (tests inject a clock). */
  now?: () => number;
  /** DNS resolver of the API's "resolves publicly" check and of the server's own fetcher. */
  lookup?: LookupFunction;
  /** The browser challenge, or how to build it; default: Turnstile when configured, else ALTCHA. */
  challenge?: ChallengeProvider | ((parts: ChallengeParts) => ChallengeProvider);
  /** The service this server answers for (default: the config's SERVICE). */
  service?: ServiceDef;
  /** The routes to mount (default: lib/app/routes.ts ROUTES). */
  routes?: readonly RouteDef<ServerDeps>[];
  /** The structured log sink (default: JSON lines on stdout). */
  log?: Logger;
  /** The job transport (default: the config's JOB_QUEUE). */
  queue?: (kv: Deno.Kv) => JobQueue;
  /** The rate-limit engine of a service's store (default: Upstash Redis when configured, else KV). */
  limiter?: (service: string) => Limiter | undefined;
  /** Start the queue worker (default true), with at most `concurrency` scans at once. */
  worker?: boolean | { concurrency?: number };
  /**
   * Where scans run: a runner, or null for this isolate through the service definitions (tests).
   * Default: scan threads or inline as SCAN_ISOLATION in `env` says.
   */
  runner?: ScanRunner | null;
}

/** A built server: the handler to serve, and its parts for tests, start-up messages and ops. */
export interface Server {
  config: Config;
  app: Hono<AppEnv>;
  /** What the routes were built with. */
  deps: ServerDeps;
  /** The request handler (report-cache and scan fast paths in front of the app). */
  handler: (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  /** {@link handler}, with one log line per request when the config asks (LOG_REQUESTS). */
  servedHandler: (req: Request, info?: Deno.ServeHandlerInfo) => Response | Promise<Response>;
  kv: Deno.Kv;
  /** The store of the service served. */
  store: Store;
  /** One store per service (a shared queue may carry either service's jobs). */
  stores: Record<string, Store>;
  service: ServiceDef;
  reportCache: ReportCache;
  /** The server's own guarded fetcher (Turnstile verification). */
  fetcher: GuardedFetcher;
  log: Logger;
  worker: Worker | null;
  runner: ScanRunner | null;
  /** One line saying where scans run (printed at start-up). */
  isolation: string;
  /** The hourly clean-up of expired records, sessions and counters. */
  cleanUp(): Promise<void>;
  /** One tick of the watch scheduler (Deno.cron, every minute: lib/features/watch/scheduler.ts). */
  watchTick(): Promise<TickReport>;
  /** Stops the worker and threads, closes the KV and the fetcher. */
  close(): Promise<void>;
}

/**
 * What a service's store is built with: the rate-limit engine (KV window logs under the store's
 * own keys unless a shared `limiter`, e.g. Redis, is given) and the scan admission strategy over
 * it (lib/kit/limits/admission.ts): in memory when this process is the KV's only writer (`exclusive`).
 * Limits are built here, never by lib/storage.
 */
export function storeOptions(
  kv: Deno.Kv,
  service: string,
  options: { limiter?: Limiter; queue?: JobQueue; exclusive?: boolean } = {},
): StoreOptions {
  const keys = limitKeys(service);
  const limiter = options.limiter ?? new KvLimiter(kv, keys.key, keys.prefix);
  return {
    limiter,
    queue: options.queue,
    admission: (parts) => admissionFor(parts, limiter, options.exclusive),
  };
}

/** A service's store with its limits (see {@link storeOptions}). */
export function createStore(
  kv: Deno.Kv,
  service: string,
  options: { limiter?: Limiter; queue?: JobQueue; exclusive?: boolean } = {},
): Store {
  return new Store(kv, service, storeOptions(kv, service, options));
}

/**
 * The account store beside a Store (same KV handle, same service prefix): its sign-in attempt
 * windows in KV under the account store's keys, or in the store's limiter when that is shared
 * (Redis). `createServer` builds one per service (`AppDeps.accounts`); an AccountStore keeps no
 * state of its own, so two of them over the same store see the same accounts.
 */
export function accountStoreOf(store: Store): AccountStore {
  const keys = attemptKeys(store.service);
  const attempts = store.limiter.kind === "kv"
    ? new KvLimiter(store.kv, keys.key, keys.prefix)
    : store.limiter;
  return new AccountStore(store.kv, store.service, attempts);
}

/** The job transport the configuration asks for. */
function jobQueueFor(config: Config, kv: Deno.Kv, log: Logger): JobQueue {
  return config.jobQueue === "poll"
    ? new KvPolledQueue(kv, { leaseMs: inflightTtlMs(config), log })
    : new KvNativeQueue(kv);
}

/** Builds everything the config describes; `overrides` replace parts for tests and benchmarks. */
export async function createServer(
  config: Config,
  overrides: ServerOverrides = {},
): Promise<Server> {
  // Deno Deploy collects console output; elsewhere logs are written without blocking the server.
  const log = overrides.log ?? jsonLogger(
    { service: config.service },
    config.onDeploy ? (line) => console.log(line) : stdoutSink(),
  );
  let kv: Deno.Kv;
  let exclusive: boolean;
  if (overrides.kv) {
    kv = overrides.kv;
    exclusive = overrides.exclusive ?? !overrides.queue;
  } else {
    // Throws KvOpenError (main.ts exits 3).
    const opened = await openKv(config);
    kv = opened.kv;
    // A local file is locked to this process (and memory is its own): the only writer.
    exclusive = overrides.exclusive ?? (opened.kind === "file" || opened.kind === "memory");
  }
  const now = overrides.now ?? Date.now;
  const service = overrides.service ?? serviceFor(config);
  const services: Record<string, ServiceDef> = { ...SERVICES, [service.name]: service };
  const fetcher = createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
    requestTimeoutMs: config.requestTimeoutMs,
    lookup: overrides.lookup,
  });
  const queue = overrides.queue ? overrides.queue(kv) : jobQueueFor(config, kv, log);
  const limiterFor = overrides.limiter ?? ((name: string) =>
    config.upstash
      ? new RedisLimiter({
        ...config.upstash,
        service: name,
        onError: (error) => log({ event: "limiter.error", error }),
      })
      : undefined);
  const stores = Object.fromEntries(
    Object.keys(services).map((name) => [
      name,
      createStore(kv, name, { queue, limiter: limiterFor(name), exclusive }),
    ]),
  );
  const reportCache = new ReportCache();
  const challenge = typeof overrides.challenge === "function"
    ? overrides.challenge({ kv, fetcher, now, config })
    : overrides.challenge ?? await defaultChallenge(config, kv, fetcher, log);
  const accounts = Object.fromEntries(
    Object.entries(stores).map(([name, store]) => [name, accountStoreOf(store)]),
  );
  // One secret box for the instance: watches seal their webhooks, answer presence users' keys.
  const box = instanceSecretBox(kv, config.secretBox);
  const watch = createWatchDeps({
    kv,
    store: stores[service.name],
    service,
    config,
    now,
    lookup: overrides.lookup,
    log,
    box,
  });
  const answers = createAnswersDeps({
    kv,
    store: stores[service.name],
    service,
    config,
    watches: watch.watches,
    box,
    now,
    lookup: overrides.lookup,
    log,
  });
  const sectionParts = { store: stores[service.name], watch, answers };
  const deps: ServerDeps = {
    watch,
    answers,
    accountSections: accountSections(sectionParts),
    reportSections: reportSections(sectionParts),
    reportCache,
    config,
    store: stores[service.name],
    accounts: accounts[service.name],
    service,
    services,
    challenge,
    now,
    lookup: overrides.lookup,
    log,
    // Server logs join answer presence, and show in the report's crawler matrix, through these
    // two (the features never import each other).
    citedPagesOf: (accountId, domain) => citedPagesOf(answers, accountId, domain),
  };
  if (service.readsServerLogs) {
    deps.observedOf = (accountId, domain) => logsOf(deps).observed(accountId, domain);
    watch.logSeries = (accountId, domain) => logsOf(deps).daily(accountId, domain);
  }
  const app = createApp(deps, overrides.routes);
  const handler = createHandler(app, reportCache, deps);

  const workerOption = overrides.worker ?? true;
  let runner: ScanRunner | null = null;
  let isolation = "Scan isolation: no worker in this process";
  let worker: Worker | null = null;
  if (workerOption) {
    if (overrides.runner !== undefined) {
      runner = overrides.runner;
      isolation = runner?.kind === "thread"
        ? "Scan isolation: each scan in a thread of its own"
        : "Scan isolation: none (scans run in this isolate)";
    } else {
      // Scans run in threads with their own heap and time limits (lib/kit/isolate/scan_threads.ts).
      const settings = config.isolation;
      runner = settings.mode === "thread"
        ? startScanThreads({
          heapMb: settings.heapMb,
          youngMb: settings.youngMb,
          timeoutMs: settings.timeoutMs,
          maxThreads: settings.threads,
          warm: settings.warm,
          idleMs: settings.idleMs,
          scanners: Object.fromEntries(
            Object.values(services).map((s) => [s.name, s.scanner.href]),
          ),
          jobs: threadJobs(deps.service),
          // Stuck in code Deno cannot stop: the operator has to know (and /healthz says it too).
          onLost: (lost) =>
            log({ event: lost.work ? "scan.thread_lost" : "scan.thread_lost_ended", ...lost }),
        })
        : inlineRunner(services);
      // Serve only once the scan threads have loaded their code (a few hundred ms), at most 20 s:
      // loading opens files, which a flood of connections could starve of descriptors.
      let warmTimer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        runner.warmed(),
        new Promise((r) => warmTimer = setTimeout(r, 20_000)),
      ]);
      clearTimeout(warmTimer);
      isolation = settings.mode === "thread"
        ? `Scan isolation: each scan in a thread of its own (at most ${settings.threads}; heap ${settings.heapMb} MB, ended after ${
          Math.round(settings.timeoutMs / 1000)
        } s)`
        : "Scan isolation: none (SCAN_ISOLATION=inline or Deno Deploy): the parsers' caps bound scans";
    }
    // Code validation runs in the same threads (lib/features/validate/validate_request.ts), and so do the
    // summaries of stored records over their budget (lib/kit/limits/record_budget.ts).
    deps.threads = runner;
    const jobs = runner?.runJob?.bind(runner);
    if (jobs) {
      setStoredRecordSummariser(async (json) => {
        const job: BoundRecordJob = { kind: "bound-record", json };
        return ((await jobs(job, 30_000)) as BoundRecordAnswer).json;
      });
    }
    worker = startWorker({
      runner: runner ?? undefined,
      kv,
      stores,
      services,
      config,
      concurrency: typeof workerOption === "object" && workerOption.concurrency
        ? workerOption.concurrency
        : config.workerConcurrency,
      now: () => new Date(now()),
      log,
      // Deno KV's own queue is listened to directly; any other transport is handed over.
      queue: queue instanceof KvNativeQueue ? undefined : queue,
      onStored: (name, domain) => {
        if (name === service.name) reportCache.delete(domain);
      },
    });
  }

  return {
    config,
    app,
    deps,
    handler,
    servedHandler: config.logRequests
      ? withRequestLog(handler, { log, trustProxy: config.trustProxy })
      : handler,
    kv,
    store: stores[service.name],
    stores,
    service,
    reportCache,
    fetcher,
    log,
    worker,
    runner,
    isolation,
    cleanUp: async () => {
      const started = performance.now();
      try {
        const deleted = await cleanUp(Object.values(stores), {
          accounts,
          now: now(),
          retentionMs: config.recordRetentionDays * 24 * 3600_000,
          historyRetentionMs: config.historyRetentionDays * 24 * 3600_000,
          historyMaxScans: config.historyMaxScans,
          inflightTtlMs: inflightTtlMs(config),
        });
        log({ event: "cleanup", deleted, ms: Math.round(performance.now() - started) });
      } catch (error) {
        log({ event: "cleanup.failed", error: String(error) });
        throw error;
      }
    },
    watchTick: async () => {
      try {
        const report = await watchTick(watch);
        // A line when the tick did something (an idle minute says nothing).
        if (Object.values(report).some((n) => n > 0)) log({ event: "watch.tick", ...report });
        return report;
      } catch (error) {
        log({ event: "watch.tick_failed", error: String(error) });
        throw error;
      }
    },
    close: async () => {
      await closeAnswers(answers);
      await watch.fetcher.close();
      await worker?.stop();
      await worker?.idle();
      setStoredRecordSummariser(null);
      await runner?.close();
      kv.close();
      await fetcher.close();
    },
  };
}

/** Turnstile when both keys are configured, else the self-hosted ALTCHA proof of work. */
async function defaultChallenge(
  config: Config,
  kv: Deno.Kv,
  fetcher: GuardedFetcher,
  log: Logger,
): Promise<ChallengeProvider> {
  const turnstileMonitor = new TurnstileMonitor((entry) => log(entry));
  return challengeProvider({
    turnstileSiteKey: config.turnstileSiteKey,
    turnstileSecretKey: config.turnstileSecretKey,
    turnstile: turnstileVerifier({
      secret: config.turnstileSecretKey,
      verifyUrl: config.turnstileVerifyUrl,
      fetcher,
      hostnames: config.turnstileHostnames,
      action: config.turnstileAction,
      monitor: turnstileMonitor,
    }),
    turnstileMonitor,
    altcha: new Altcha(kv, await sharedSecret(kv, "altcha", config.altchaHmacKey)),
  });
}

/**
 * The jobs besides scans the scan threads run, by kind (lib/kit/isolate/protocol.ts ThreadJob): the
 * summary of a stored record over its budget, and code validation (and the /validate page's
 * result HTML) where the service validates code. Each is a module the threads load by URL, so
 * lib/isolate imports none of them.
 */
function threadJobs(service: AnyServiceDef): ThreadJobModules {
  const jobs: ThreadJobModules = {
    "bound-record": new URL("../kit/limits/record_budget.ts", import.meta.url).href,
  };
  if (service.validatesCode) {
    jobs["validate-code"] = new URL("../features/validate/validate_job.ts", import.meta.url).href;
    jobs["validate-html"] = service.validatesCode.resultJob.href;
  }
  return jobs;
}
