/**
 * The server: reads the config, opens Deno KV, builds the app, starts the queue worker and serves.
 *
 *   deno task start                     # the AI Visibility Checker on :8000
 *   PIPELINE_TOKEN=... deno task start  # with pipeline access
 */
import { createApp, createHandler } from "./lib/app.ts";
import { ReportCache } from "./lib/report_cache.ts";
import { Altcha, sharedSecret } from "./lib/altcha.ts";
import { challengeProvider, turnstileVerifier } from "./lib/challenge.ts";
import { type Config, ConfigError, loadConfig } from "./lib/config.ts";
import { createGuardedFetcher } from "./lib/net/guarded_fetch.ts";
import { serviceFor, SERVICES } from "./lib/service.ts";
import { Store } from "./lib/store.ts";
import { startWorker } from "./lib/worker.ts";

/** Opens the KV store the config names: the platform's on Deno Deploy, else a file or :memory:. */
export async function openKv(config: Config): Promise<Deno.Kv> {
  if (config.onDeploy && !config.kvPath) return await Deno.openKv();
  const path = config.kvPath ?? "./data/kv.sqlite3";
  if (path !== ":memory:" && !/^https?:\/\//.test(path)) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    await Deno.mkdir(dir || ".", { recursive: true });
  }
  return await Deno.openKv(path);
}

/** What is and is not configured, said once at start-up (never a secret). */
export function describeConfig(config: Config): string[] {
  const service = serviceFor(config);
  return [
    `${service.title} (SERVICE=${config.service}) on port ${config.port}`,
    `KV: ${
      config.onDeploy && !config.kvPath
        ? "Deno Deploy managed KV"
        : config.kvPath ?? "./data/kv.sqlite3"
    }`,
    config.pipelineToken
      ? "PIPELINE_TOKEN: set (Bearer access for pipelines)"
      : "PIPELINE_TOKEN: not set (pipeline access disabled)",
    config.turnstileSecretKey && config.turnstileSiteKey
      ? `Challenge: Cloudflare Turnstile, verified at ${new URL(config.turnstileVerifyUrl).origin}`
      : "Challenge: self-hosted ALTCHA proof of work (set TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY for Turnstile)",
    config.trustProxy
      ? "Client IP: right-most X-Forwarded-For entry (TRUST_PROXY=1)"
      : "Client IP: the connection's address",
    config.scanResolve.size
      ? `SCAN_RESOLVE: ${
        [...config.scanResolve.keys()].join(", ")
      } bypass DNS and the address guard`
      : "SCAN_RESOLVE: not set",
    `Worker: up to ${config.workerConcurrency} scans at once; scan time-out ${config.scanTimeoutMs} ms`,
  ];
}

if (import.meta.main) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      Deno.exit(2);
    }
    throw e;
  }
  const kv = await openKv(config);
  const service = serviceFor(config);
  const fetcher = createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
    requestTimeoutMs: config.requestTimeoutMs,
  });
  const stores = Object.fromEntries(
    Object.keys(SERVICES).map((name) => [name, new Store(kv, name)]),
  );
  const reportCache = new ReportCache();
  const app = createApp({
    reportCache,
    config,
    store: stores[service.name],
    service,
    challenge: challengeProvider({
      turnstileSiteKey: config.turnstileSiteKey,
      turnstileSecretKey: config.turnstileSecretKey,
      turnstile: turnstileVerifier({
        secret: config.turnstileSecretKey,
        verifyUrl: config.turnstileVerifyUrl,
        fetcher,
      }),
      altcha: new Altcha(kv, await sharedSecret(kv, "altcha", config.altchaHmacKey)),
    }),
    now: Date.now,
  });
  startWorker({
    kv,
    stores,
    services: SERVICES,
    config,
    concurrency: config.workerConcurrency,
    onStored: (service, domain) => {
      if (service === config.service) reportCache.delete(domain);
    },
  });
  for (const line of describeConfig(config)) console.log(line);
  Deno.serve({
    port: config.port,
    onListen: ({ hostname, port }) =>
      console.log(
        `Listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}/`,
      ),
  }, createHandler(app, reportCache));
}
