/**
 * An in-process API for tests: `:memory:` KV, an injected clock, a fake DNS, a fake Turnstile
 * verifier reached through the real guarded fetcher, and optionally the queue worker running the
 * real scanner against the fixture sites.
 */
import type { ServerDeps } from "../../lib/app/deps.ts";
import { challengeProvider, turnstileVerifier } from "../../lib/kit/auth/challenge.ts";
import { Altcha } from "../../lib/kit/auth/altcha.ts";
import { type Config, loadConfig } from "../../lib/kit/config.ts";
import { createApiKey } from "../../lib/kit/auth/keys.ts";
import type { LookupFunction } from "../../lib/kit/net/guarded_fetch.ts";
import type { ServiceDef } from "../../lib/service.ts";
import type { RouteDef } from "../../lib/kit/web/route.ts";
import type { Store } from "../../lib/kit/storage/store.ts";
import type { Worker } from "../../lib/engines/scan/worker.ts";
import { RedisLimiter } from "../../lib/kit/limits/limiter_redis.ts";
import { KvPolledQueue } from "../../lib/kit/storage/job_queue.ts";
import { createServer, type Server } from "../../lib/app/server.ts";
import {
  type FakeTurnstile,
  startFakeTurnstile,
  TURNSTILE_SECRET,
} from "../fixtures/turnstile_server.ts";
import { type ScanEnv, startScanEnv } from "./scan_env.ts";

/** A fake resolver: *.nx.example does not exist, *.private.example is 10.0.0.5, the rest public. */
export const fakeLookup: LookupFunction = (hostname) => {
  if (hostname.endsWith("nx.example")) {
    return Promise.reject(
      Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }),
    );
  }
  if (hostname.endsWith("private.example")) {
    return Promise.resolve([{ address: "10.0.0.5", family: 4 }]);
  }
  if (hostname.endsWith("metadata.example")) {
    return Promise.resolve([{ address: "93.184.216.34", family: 4 }, {
      address: "169.254.169.254",
      family: 4,
    }]);
  }
  return Promise.resolve([{ address: "93.184.216.34", family: 4 }]);
};

/** A running test API. */
export interface TestEnv {
  app: Server["app"];
  /** What the app was built with. */
  deps: ServerDeps;
  /** The server's request handler (lib/app/server.ts createServer), as main.ts serves it. */
  handler: Server["handler"];
  /** The whole server (lib/app/server.ts), as main.ts builds it. */
  server: Server;
  kv: Deno.Kv;
  store: Store;
  config: Config;
  service: ServiceDef;
  turnstile: FakeTurnstile;
  scanEnv: ScanEnv | null;
  worker: Worker | null;
  /** The injected clock, in ms; tests move it. */
  clock: { now: number };
  /** Every structured log line the server wrote, in order. */
  logs: Record<string, unknown>[];
  /** POST /api/scan with a JSON body from an IP (X-Forwarded-For, TRUST_PROXY=1). */
  scan(
    body: unknown,
    options?: { ip?: string; auth?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  /** GET /api/report/<domain>.json. */
  report(domain: string, headers?: Record<string, string>): Promise<Response>;
  /** A fresh client key. */
  newKey(name?: string): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

export const PIPELINE = "pipeline-token-for-tests-0123456789";

/** Starts a test API. With `worker: true`, scans really run against the fixture sites. */
export async function startAppEnv(options: {
  worker?: boolean;
  env?: Record<string, string>;
  service?: ServiceDef;
  /** The routes to mount (default: lib/app/routes.ts ROUTES). */
  routes?: readonly RouteDef[];
  /** "altcha" uses the self-hosted proof of work instead of the fake Turnstile. */
  challenge?: "turnstile" | "altcha";
  /** ALTCHA's iterations per attempt (default the production cost; tests that solve lower it). */
  altchaCost?: number;
  /** Keeps the rate limits in Redis behind this Upstash REST endpoint instead of KV. */
  redis?: { url: string; token: string };
  /** "poll": jobs travel through the polled KV job table (lib/kit/storage/job_queue.ts), as on KV Connect. */
  queue?: "queue" | "poll";
  /** Decide scan pools in memory, as the only writer of the KV (default: unless `queue: "poll"`). */
  exclusive?: boolean;
  /** Wraps the in-memory KV (e.g. to make its writes fail as a full disk does). */
  wrapKv?: (kv: Deno.Kv) => Deno.Kv;
  /** A KV file instead of the in-memory KV (a restart on the same file keeps the store). */
  kvPath?: string;
  /** More SCAN_RESOLVE entries ("host=127.0.0.1:port"), e.g. a test's own site server. */
  extraResolve?: string[];
} = {}): Promise<TestEnv> {
  const turnstile = startFakeTurnstile();
  const scanEnv = options.worker ? await startScanEnv() : null;
  const resolve = [
    turnstile.resolveEntry,
    scanEnv?.env.SCAN_RESOLVE,
    ...(options.extraResolve ?? []),
  ]
    .filter(Boolean).join(",");
  const config = loadConfig({
    ...(scanEnv?.env ?? {}),
    SCAN_RESOLVE: resolve,
    PIPELINE_TOKEN: PIPELINE,
    TURNSTILE_SECRET_KEY: TURNSTILE_SECRET,
    TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
    TRUST_PROXY: "1",
    ...options.env,
  });
  const rawKv = await Deno.openKv(options.kvPath ?? ":memory:");
  const kv = options.wrapKv ? options.wrapKv(rawKv) : rawKv;
  const clock = { now: Date.parse("2026-11-21T10:00:00Z") };
  const logs: Record<string, unknown>[] = [];
  const server = await createServer(config, {
    kv,
    // As main.ts does for a local KV file; a polled queue stands for a shared KV (KV Connect).
    exclusive: options.exclusive ?? options.queue !== "poll",
    queue: options.queue === "poll"
      ? (kv) => new KvPolledQueue(kv, { leaseMs: 60_000, pollMs: 50, log: () => {} })
      : undefined,
    limiter: (n) => options.redis ? new RedisLimiter({ ...options.redis, service: n }) : undefined,
    service: options.service,
    routes: options.routes,
    now: () => clock.now,
    lookup: fakeLookup,
    log: (e) => logs.push(e),
    challenge: ({ kv, fetcher }) =>
      options.challenge === "altcha"
        ? challengeProvider({
          turnstileSiteKey: undefined,
          turnstileSecretKey: undefined,
          turnstile: () => Promise.resolve(false),
          altcha: new Altcha(kv, "altcha-test-secret", () => clock.now, options.altchaCost),
        })
        : {
          widget: { kind: "turnstile", siteKey: "test-site-key" },
          verify: turnstileVerifier({
            secret: config.turnstileSecretKey,
            verifyUrl: config.turnstileVerifyUrl,
            fetcher,
            timeoutMs: 2000,
          }),
        },
    worker: options.worker ? { concurrency: 4 } : false,
    runner: null,
  });
  const { app, handler, deps, store, service, worker } = server;
  const env: TestEnv = {
    app,
    kv,
    store,
    config,
    service,
    turnstile,
    scanEnv,
    worker,
    clock,
    logs,
    deps,
    handler,
    server,
    scan: (body, o = {}) =>
      Promise.resolve(handler(
        new Request("http://localhost/api/scan", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-forwarded-for": o.ip ?? "203.0.113.10",
            ...(o.auth !== undefined ? { authorization: o.auth } : {}),
            ...o.headers,
          },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
      )),
    report: (domain, headers = {}) =>
      Promise.resolve(app.request(`/api/report/${domain}.json`, { headers })),
    newKey: async (name = "test key") => {
      const { key, entry } = await createApiKey(store, service.keyPrefix, { name, now: clock.now });
      return { key, id: entry.id };
    },
    close: async () => {
      await server.close();
      await turnstile.close();
      await scanEnv?.close();
    },
  };
  return env;
}
