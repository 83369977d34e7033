/**
 * The composition root: the one place that builds the stores, the limiter, the job queue, the
 * challenge, the route dependencies, the scan workers, the worker, the report cache and the
 * request handler. main.ts calls it with the loaded config; the tests and benchmarks call it with
 * overrides (an in-memory KV, a clock, a DNS resolver, a challenge, a service), so what they
 * exercise is what production wires.
 */
import {
  type BoundRecordAnswer,
  type BoundRecordJob,
  setStoredRecordSummariser,
} from "../kit/limits/record_budget.ts";
import type { JobKind, ThreadJobModules } from "../kit/isolate/protocol.ts";
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
import { startScanThreads } from "../kit/isolate/scan_threads.ts";
import { inlineRunner, type ScanRunner } from "../kit/isolate/runner.ts";
import { startWorkerProcesses } from "../kit/isolate/process_pool.ts";
import { denoForWorkers } from "../kit/isolate/worker_command.ts";
import { ANSWERS_JOBS } from "../features/answers/jobs.ts";
import { LOGS_JOBS } from "../features/logs/jobs.ts";
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
import { sealAgain } from "../features/watch/sealing.ts";
import { sealKeysAgain } from "../features/answers/user_keys.ts";
import { AnswersStore } from "../features/answers/store.ts";
import { type TickReport, watchTick } from "../features/watch/scheduler.ts";
import { closeAnswers, createAnswersDeps } from "../features/answers/service.ts";
import { accountSections, reportSections } from "./sections.ts";
import { instanceSecretBox } from "../kit/auth/secret_box.ts";
import { citedPagesOf } from "../features/answers/cited_pages.ts";
import { logsOf } from "../features/logs/site_logs.ts";
import { startRun } from "../features/answers/run.ts";

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
   * Where scans and jobs run: a runner, or null for this isolate (scans through the service
   * definitions, jobs loaded by URL: tests). Default: worker processes, scan threads or inline as
   * SCAN_ISOLATION says.
   */
  runner?: ScanRunner | null;
  /**
   * Stand-in modules for job kinds, by kind (tests: a log reader whose code never returns), loaded
   * by the workers in place of the registered ones.
   */
  jobModules?: Record<string, URL>;
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
  /** Where scans and jobs run (this isolate's inline runner when the process has no worker). */
  runner: ScanRunner;
  /** One line saying where scans run (printed at start-up). */
  isolation: string;
  /** The hourly clean-up of expired records, sessions and counters. */
  cleanUp(): Promise<void>;
  /** One tick of the watch scheduler (Deno.cron, every minute: lib/features/watch/scheduler.ts). */
  watchTick(): Promise<TickReport>;
  /** Stops the worker and the scan workers, closes the KV and the fetcher. */
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
  // WATCH_SECRET_KEY set: the values an older key sealed (webhooks, e-mail addresses, users' vendor
  // keys of every service in this store) are sealed again with it, and a key kept in KV from before
  // it was set is deleted once nothing it sealed is left (lib/features/watch/sealing.ts).
  const sealed = await sealAgain(
    kv,
    config.secretBox,
    box,
    Object.keys(services),
    Object.keys(services).map((name) => () =>
      sealKeysAgain({ answers: new AnswersStore(kv, name), box })
    ),
  );
  if (sealed.resealed || sealed.unopened || sealed.busy || sealed.keptKeyDeleted) {
    log({ event: "watch.sealed_again", ...sealed });
  }
  const jobModules = {
    ...jobModulesFor(service),
    ...Object.fromEntries(
      Object.entries(overrides.jobModules ?? {}).map(([kind, url]) => [kind, url.href]),
    ),
  };
  // Scans and jobs run in this isolate until the workers below are started (and where none are).
  let runner: ScanRunner = inlineRunner(services, jobModules);
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
    runJob: (job, timeoutMs) => runner.runJob(job, timeoutMs),
  });
  // A watch's scheduled answer runs (lib/features/watch/scheduler.ts) start answer presence's run,
  // within the account's budget and its fair share of the operator's pool.
  watch.startAnswers = async (accountId, domain) => {
    const { run } = await startRun(answers, { kind: "account", accountId }, domain, "watch");
    return `started run ${run.id} (${run.estimate.calls} calls reserved)`;
  };
  const sectionParts = { service, store: stores[service.name], watch, answers };
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
    // The pages view of answer presence sets the logs' verified crawler hits per path beside the
    // first-party imports (lib/features/answers/pages.ts).
    answers.observed = async (accountId, domain) => {
      const agg = await logsOf(deps).store.aggregates(accountId, domain);
      const hits = new Map<string, number>();
      for (const crawlers of Object.values(agg.days)) {
        for (const day of Object.values(crawlers)) {
          for (const [path, c] of Object.entries(day.paths)) {
            hits.set(path, (hits.get(path) ?? 0) + c.hits);
          }
        }
      }
      return Object.keys(agg.days).length ? hits : null;
    };
  }
  const app = createApp(deps, overrides.routes);
  const handler = createHandler(app, reportCache, deps);

  const workerOption = overrides.worker ?? true;
  let isolation = "Scan isolation: no worker in this process";
  let worker: Worker | null = null;
  if (workerOption) {
    if (overrides.runner !== undefined) {
      if (overrides.runner) runner = overrides.runner;
      isolation = runner.kind === "inline"
        ? "Scan isolation: none (scans run in this isolate)"
        : `Scan isolation: each scan in a ${
          runner.kind === "process" ? "worker process" : "thread"
        }`;
    } else {
      const built = startRunner(config, services, jobModules, log);
      runner = built.runner;
      isolation = built.line;
      // Serve only once the workers have loaded their code (about a second), at most 20 s:
      // loading opens files, which a flood of connections could starve of descriptors.
      let warmTimer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        runner.warmed(),
        new Promise((r) => warmTimer = setTimeout(r, 20_000)),
      ]);
      clearTimeout(warmTimer);
    }
    // The summaries of stored records over their budget are made in the workers too
    // (lib/kit/limits/record_budget.ts; in this isolate without them).
    if (runner.kind !== "inline") {
      const pool = runner;
      setStoredRecordSummariser(async (json) => {
        const job: BoundRecordJob = { kind: "bound-record", json };
        return ((await pool.runJob(job, 30_000)) as BoundRecordAnswer).json;
      });
    }
    worker = startWorker({
      runner,
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

  // Code validation and the /validate result run in the workers (lib/features/validate/validate_request.ts),
  // or in this isolate's inline runner where this process has none.
  deps.threads = runner;

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
      watch.mailer?.close();
      await worker?.stop();
      await worker?.idle();
      setStoredRecordSummariser(null);
      await runner.close();
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
 * Every kind of job besides scans that the workers run (lib/kit/isolate/protocol.ts JobKind): the
 * one registry. A feature adds its kinds here, each a module the workers load by URL, so
 * lib/kit/isolate imports none of them and the server's own modules never import a job's parser
 * (tests/security/server_thread_test.ts).
 */
export const JOB_KINDS: readonly JobKind[] = [
  {
    kind: "bound-record",
    module: new URL("../kit/limits/record_budget.ts", import.meta.url),
    what: "the summary of a stored record over its budget",
  },
  {
    kind: "validate-code",
    module: new URL("../features/validate/validate_job.ts", import.meta.url),
    what: "code validation (POST /api/validate, /validate, MCP)",
    when: (s) => s.validatesCode === true,
  },
  {
    // Code in hand shown as the schema report shows a page (its result sections).
    kind: "validate-html",
    module: new URL("../features/schema/views/code_result_job.tsx", import.meta.url),
    what: "the /validate page's result sections as HTML",
    when: (s) => s.validatesCode === true,
  },
  ...ANSWERS_JOBS,
  ...LOGS_JOBS,
];

/** The job modules a server of `service` gives its workers, by kind. */
function jobModulesFor(service: AnyServiceDef): ThreadJobModules {
  return Object.fromEntries(
    JOB_KINDS.filter((k) => !k.when || k.when(service)).map((k) => [k.kind, k.module.href]),
  );
}

/**
 * The runner SCAN_ISOLATION asks for, and the start-up line that says so. Worker processes need
 * permission to run Deno (`--allow-run=deno` in the start task): without it the server does not
 * start, saying how to fix it.
 */
function startRunner(
  config: Config,
  services: Record<string, ServiceDef>,
  jobs: ThreadJobModules,
  log: Logger,
): { runner: ScanRunner; line: string } {
  const settings = config.isolation;
  const scanners = Object.fromEntries(
    Object.values(services).map((s) => [s.name, s.scanner.href]),
  );
  const limits = `heap ${settings.heapMb} MB, ended after ${
    Math.round(settings.timeoutMs / 1000)
  } s`;
  if (settings.mode === "process") {
    const deno = denoForWorkers();
    if (!deno) {
      throw new StartupConfigError(
        "SCAN_ISOLATION=process runs each scan in a worker process, which needs permission to " +
          "run Deno: grant --allow-run=deno (the start task does), or set SCAN_ISOLATION=thread " +
          "or inline (which cannot stop work stuck in code that never returns: docs/reliability.md)",
      );
    }
    const browser = config.render.browser;
    // Kinds with workers of their own heap (a log read), among those this server runs.
    const ownHeap = Object.fromEntries(
      JOB_KINDS.flatMap((k) => k.heapMb && k.kind in jobs ? [[k.kind, k.heapMb(config)]] : []),
    );
    return {
      runner: startWorkerProcesses({
        deno,
        heapMb: settings.heapMb,
        youngMb: settings.youngMb,
        timeoutMs: settings.timeoutMs,
        maxWorkers: settings.threads,
        warm: settings.warm,
        idleMs: settings.idleMs,
        scanners,
        jobs,
        ownHeap,
        chromium: browser.kind === "local" ? browser.path : null,
        // Work ended at its limit: the operator sees which and why (and /healthz counts them).
        onKilled: (k) => log({ event: "scan.worker_killed", ...k }),
        // A worker that cannot start leaves scans failing: the operator must see why.
        onStartFailed: (f) => log({ event: "scan.worker_start_failed", ...f }),
      }),
      line: `Scan isolation: each scan and job in a worker process (at most ${settings.threads}; ` +
        `${limits}; killed and replaced at its limit)`,
    };
  }
  if (settings.mode === "thread") {
    return {
      runner: startScanThreads({
        heapMb: settings.heapMb,
        youngMb: settings.youngMb,
        timeoutMs: settings.timeoutMs,
        maxThreads: settings.threads,
        warm: settings.warm,
        idleMs: settings.idleMs,
        scanners,
        jobs,
        // Stuck in code Deno cannot stop: the operator has to know (and /healthz says it too).
        onLost: (lost) =>
          log({ event: lost.work ? "scan.thread_lost" : "scan.thread_lost_ended", ...lost }),
      }),
      line: `Scan isolation: each scan in a thread of its own (at most ${settings.threads}; ` +
        `${limits}; a thread stuck in code that never returns cannot be stopped)`,
    };
  }
  return {
    runner: inlineRunner(services, jobs),
    line:
      "Scan isolation: none (SCAN_ISOLATION=inline or Deno Deploy): the parsers' caps and the " +
      "platform's request limits bound scans",
  };
}
