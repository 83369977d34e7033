/**
 * An in-process service for the security suite, like tests/helpers/app_env.ts but with every
 * outside dependency under the test's control:
 * - one injected DNS resolver (a spy) used by BOTH the API's "resolves publicly" check and the
 *   worker's guarded fetcher, so no name is ever sent to a real resolver;
 * - SCAN_RESOLVE built from the test's own loopback servers plus the fake off-site services and
 *   the fake Turnstile;
 * - the real scanner (`scanSite`) in the worker, with a fresh off-site cache per environment;
 * - the app's log sink captured.
 *
 * MCP, the web form, accounts and sessions are not wired yet; when they arrive, their entry points
 * are added to {@link SecurityEnv} (e.g. `mcp(...)`, `form(...)`) and the suites gain cases.
 */
import { turnstileVerifier } from "../../../lib/kit/auth/challenge.ts";
import { type Config, loadConfig } from "../../../lib/kit/config.ts";
import { createApiKey } from "../../../lib/kit/auth/keys.ts";
import {
  createGuardedFetcher,
  type LookupAddress,
  type LookupFunction,
} from "../../../lib/kit/net/guarded_fetch.ts";
import { OffSiteCache } from "../../../lib/engines/offsite/cache.ts";
import { type ServiceDef } from "../../../lib/service.ts";
import type { Store } from "../../../lib/kit/storage/store.ts";
import { createServer, type Server } from "../../../lib/app/server.ts";
import { ScanRecordSchema } from "../../../lib/engines/visibility/record.ts";
import { scanSite } from "../../../lib/engines/visibility/scan.ts";
import type { Worker } from "../../../lib/engines/scan/worker.ts";
import {
  type FakeOffSite,
  type OffSiteScenario,
  startFakeOffSite,
} from "../../fixtures/offsite_server.ts";
import {
  type FakeTurnstile,
  startFakeTurnstile,
  TURNSTILE_SECRET,
} from "../../fixtures/turnstile_server.ts";
import { visibilityService } from "../../../lib/features/visibility/service.ts";

export const PIPELINE = "pipeline-token-for-security-tests-0123456789abcdef";

/** A DNS resolver that answers from a table and records every question. */
export interface LookupSpy {
  lookup: LookupFunction;
  /** Every host name asked, in order. */
  asked: string[];
}

/**
 * Builds a resolver from a table of name -> addresses. A function value is called with how many
 * times the name was asked before (DNS rebinding). Names not in the table: `fallback` (default:
 * ENOTFOUND, so an unexpected name can never reach a real server).
 */
export function lookupSpy(
  table: Record<string, string[] | ((n: number) => string[])>,
  fallback?: (hostname: string) => string[] | null,
): LookupSpy {
  const asked: string[] = [];
  const counts = new Map<string, number>();
  const lookup: LookupFunction = (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, "");
    asked.push(name);
    const n = counts.get(name) ?? 0;
    counts.set(name, n + 1);
    const entry = Object.hasOwn(table, name) ? table[name] : undefined;
    const answer = typeof entry === "function" ? entry(n) : entry ?? fallback?.(name) ?? null;
    if (!answer || answer.length === 0) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }),
      );
    }
    return Promise.resolve(
      answer.map((address): LookupAddress => ({
        address,
        family: address.includes(":") ? 6 : 4,
      })),
    );
  };
  return { lookup, asked };
}

/** A running environment. */
export interface SecurityEnv {
  app: Server["app"];
  /** What the routes were built with (the watch feature: `deps.watch`). */
  deps: Server["deps"];
  kv: Deno.Kv;
  store: Store;
  config: Config;
  offSite: FakeOffSite;
  turnstile: FakeTurnstile;
  worker: Worker | null;
  logs: Record<string, unknown>[];
  clock: { now: number };
  /** POST /api/scan (X-Forwarded-For `ip`, TRUST_PROXY=1). */
  scan(
    body: unknown,
    options?: { ip?: string; auth?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  report(domain: string): Promise<Response>;
  newKey(name?: string): Promise<{ key: string; id: string }>;
  /** Waits for a stored record of `domain` (polling the API), or throws after `timeoutMs`. */
  waitForRecord(domain: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Options of {@link startSecurityEnv}. */
export interface SecurityEnvOptions {
  /** Extra SCAN_RESOLVE entries ("host=127.0.0.1:port,..."). */
  scanResolve?: string;
  /** The resolver of the API check and of the worker's fetcher. */
  lookup: LookupFunction;
  /** Run the queue worker with the real scanner. */
  worker?: boolean;
  /** Off-site scenario of the fake Wikidata/Wikipedia/Common Crawl. */
  offSite?: OffSiteScenario;
  /** Environment overrides. */
  env?: Record<string, string>;
  /** Replaces the scanner the worker runs. */
  service?: ServiceDef;
  /** Use the real clock instead of a fixed, injected one. */
  realClock?: boolean;
}

/** Starts an environment. */
export async function startSecurityEnv(options: SecurityEnvOptions): Promise<SecurityEnv> {
  const turnstile = startFakeTurnstile();
  const offSite = await startFakeOffSite(options.offSite ?? {});
  const resolve = [
    turnstile.resolveEntry,
    ...[...offSite.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`),
    options.scanResolve,
  ].filter(Boolean).join(",");
  const config = loadConfig({
    SCAN_RESOLVE: resolve,
    PIPELINE_TOKEN: PIPELINE,
    TURNSTILE_SECRET_KEY: TURNSTILE_SECRET,
    TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
    TRUST_PROXY: "1",
    WIKIDATA_API_URL: offSite.config.wikidataApiUrl,
    WIKIPEDIA_API_URL: offSite.config.wikipediaApiUrl,
    COMMONCRAWL_INDEX_URL: offSite.config.commonCrawlIndexUrl,
    SCAN_TIMEOUT_MS: "6000",
    REQUEST_TIMEOUT_MS: "2000",
    OFFSITE_TIMEOUT_MS: "1500",
    ...options.env,
  });
  const kv = await Deno.openKv(":memory:");
  const offSiteCache = new OffSiteCache();
  const service: ServiceDef = options.service ?? {
    ...visibilityService,
    recordSchema: ScanRecordSchema,
    run: async (target, { config, now, signal }) => {
      const fetcher = createGuardedFetcher({
        userAgent: config.userAgent,
        resolve: config.scanResolve,
        requestTimeoutMs: config.requestTimeoutMs,
        maxBodyBytes: config.maxBodyBytes,
        lookup: options.lookup,
      });
      try {
        const { record, failure } = await scanSite(target, {
          config,
          now,
          signal,
          fetcher,
          offSiteCache,
        });
        return { record, failure };
      } finally {
        await fetcher.close();
      }
    },
  } as ServiceDef;
  const clock = { now: Date.parse("2026-11-21T10:00:00Z") };
  const nowMs = () => (options.realClock ? Date.now() : clock.now);
  const logs: Record<string, unknown>[] = [];
  // Built as main.ts builds it (lib/app/server.ts); the server's own fetcher (the Turnstile verifier)
  // uses the same injected resolver.
  const server = await createServer(config, {
    kv,
    exclusive: false,
    service,
    challenge: ({ fetcher }) => ({
      widget: { kind: "turnstile", siteKey: "security-test-site-key" },
      verify: turnstileVerifier({
        secret: config.turnstileSecretKey,
        verifyUrl: config.turnstileVerifyUrl,
        fetcher,
        timeoutMs: 500,
      }),
    }),
    now: nowMs,
    lookup: options.lookup,
    log: (e) => logs.push(e),
    worker: options.worker ? { concurrency: 4 } : false,
    runner: null,
  });
  const { app, store, worker } = server;
  const env: SecurityEnv = {
    app,
    deps: server.deps,
    kv,
    store,
    config,
    offSite,
    turnstile,
    worker,
    logs,
    clock,
    scan: async (body, o = {}) =>
      await app.request("/api/scan", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": o.ip ?? "203.0.113.10",
          ...(o.auth !== undefined ? { authorization: o.auth } : {}),
          ...o.headers,
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    report: async (domain) => await app.request(`/api/report/${domain}.json`),
    newKey: async (name = "security test key") => {
      const { key, entry } = await createApiKey(store, "uvk_", { name, now: nowMs() });
      return { key, id: entry.id };
    },
    waitForRecord: async (domain, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const res = await env.report(domain);
        if (res.status === 200) return await res.json();
        await res.body?.cancel();
        if (Date.now() > until) throw new Error(`no record for ${domain} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: async () => {
      await worker?.idle();
      await server.close();
      await turnstile.close();
      await offSite.close();
    },
  };
  return env;
}

/** Every entry of a KV store (key, value, versionstamp), for before/after comparisons. */
export async function dumpKv(
  kv: Deno.Kv,
  prefix: Deno.KvKey = [],
): Promise<{ key: Deno.KvKey; value: unknown; versionstamp: string }[]> {
  const out = [];
  for await (const e of kv.list({ prefix })) out.push(e);
  return out;
}
