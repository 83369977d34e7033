/**
 * The server: reads the config, builds everything through lib/app/server.ts (createServer) and serves.
 * The same file is the entry point everywhere: one process, many processes (a KV Connect URL in
 * KV_PATH, Upstash Redis for the limits) and Deno Deploy (the platform's KV, no file writes).
 *
 *   deno task start                     # the AI Visibility Checker on :8000
 *   PIPELINE_TOKEN=... deno task start  # with pipeline access
 */
import { describeAnswers } from "./lib/features/answers/config.ts";
import { setListeningOrigin } from "./lib/features/watch/context.ts";
import { probeTurnstile } from "./lib/kit/auth/challenge.ts";
import { type Config, ConfigError, loadConfig } from "./lib/kit/config.ts";
import { describeKv, KvOpenError, redactUrl } from "./lib/kit/storage/kv_open.ts";
import { passwordBackend } from "./lib/kit/auth/password.ts";
import { serveHttp } from "./lib/app/serve.ts";
import { describeMemoryPlan, describeRendering } from "./lib/kit/config_memory.ts";
import {
  connectionLimits,
  DESCRIPTORS_PER_CONNECTION,
  MAX_TOTAL,
} from "./lib/kit/net/conn_limits.ts";
import { freeDescriptors } from "./lib/kit/net/fd_limit.ts";
import { setBodyBudget } from "./lib/kit/web/http_body.ts";
import { createServer, type Server, serviceFor, StartupConfigError } from "./lib/app/server.ts";

/** What the hourly clean-up runs; set once this process has started (see the cron below). */
let runCleanUp: (() => Promise<void>) | null = null;
/** What the watch scheduler runs each minute (lib/features/watch/scheduler.ts); set once started. */
let runWatchTick: (() => Promise<unknown>) | null = null;

// Deno Deploy registers the cron jobs that the entry module's top-level code defines before the
// server starts, and not those nested in conditionals or callbacks
// (https://docs.deno.com/deploy/cron, checked 2026-11-26): so these are plain top-level calls.
// Locally Deno.cron needs "cron" in deno.json's "unstable" list, which the project sets.
Deno.cron("clean-up expired records sessions and counters", "17 * * * *", async () => {
  await runCleanUp?.();
});
Deno.cron("watches - scheduled rescans alerts and webhook deliveries", "* * * * *", async () => {
  await runWatchTick?.();
});

/** What is and is not configured, said once at start-up (never a secret). */
export function describeConfig(config: Config): string[] {
  const service = serviceFor(config);
  return [
    `${service.title} (SERVICE=${config.service}) on ${
      listenAddress(config.hostname, config.port)
    }` +
    (config.onDeploy
      ? " (Deno Deploy binds for us)"
      : config.loopbackOnly
      ? " (this machine only; HOST=0.0.0.0 for every interface)"
      : " (every interface: HOST)"),
    config.publicUrl
      ? `PUBLIC_URL: ${config.publicUrl} (contact in the User-Agent, accepted by /mcp)`
      : config.loopbackOnly
      ? "PUBLIC_URL: not set (fine on this machine; required for a public deployment)"
      : "WARNING: PUBLIC_URL is not set: a public deployment must name its address (the " +
        "User-Agent's contact for the sites and APIs it calls, and the Host /mcp accepts)",
    `User-Agent: ${config.userAgent}`,
    `MCP: Host ${
      config.mcpAllowedHosts
        ? config.mcpAllowedHosts.join(", ") + (config.mcpAllowIpHosts
          ? " and IP addresses (other names are refused: set PUBLIC_URL or MCP_ALLOWED_HOSTS)"
          : "")
        : "any (MCP_ALLOWED_HOSTS)"
    }; browser origins: ${
      config.mcpAllowedOrigins === "*"
        ? "any (MCP_ALLOWED_ORIGINS=*)"
        : ["its own", ...config.mcpAllowedOrigins].join(", ")
    }`,
    config.adminPasswordHash
      ? "Administrator: configured (ADMIN_PASSWORD_HASH)"
      : config.adminPassword
      ? "Administrator: configured with a clear-text ADMIN_PASSWORD (use ADMIN_PASSWORD_HASH " +
        "outside this machine)"
      : "Administrator: not configured (/admin is off)",
    `KV: ${describeKv(config)}`,
    config.upstash
      ? `Rate limits: Upstash Redis at ${
        redactUrl(config.upstash.url)
      } (shared by every process and region)`
      : "Rate limits: Deno KV (set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN to share them in Redis)",
    config.jobQueue === "poll"
      ? "Jobs: KV job table polled by the workers (JOB_QUEUE=poll; KV Connect has no queues)"
      : "Jobs: Deno KV queue (enqueue / listenQueue)",
    config.pipelineToken
      ? "PIPELINE_TOKEN: set (Bearer access for pipelines)"
      : "PIPELINE_TOKEN: not set (pipeline access disabled)",
    config.turnstileSecretKey && config.turnstileSiteKey
      ? `Challenge: Cloudflare Turnstile, verified at ${
        new URL(config.turnstileVerifyUrl).origin
      }; hostnames ${
        config.turnstileHostnames.join(", ") || "not checked (TURNSTILE_HOSTNAMES)"
      }; action ${config.turnstileAction ?? "not checked"}`
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
    `Clean-up: hourly (Deno.cron); records kept ${config.recordRetentionDays} days, history ${config.historyRetentionDays} days (at most ${config.historyMaxScans} scans per target)`,
    config.watch.maxPerAccount === 0
      ? "Watches: off (WATCH_MAX_PER_ACCOUNT=0)"
      : `Watches: up to ${config.watch.maxPerAccount} per account, ${
        config.watch.schedules.join(" or ")
      }; webhook secrets sealed with ${
        config.secretBox.secretKey
          ? `WATCH_SECRET_KEY${
            config.secretBox.previousSecretKeys.length
              ? " (WATCH_SECRET_KEY_PREVIOUS opens older ones)"
              : ""
          }`
          : "a key kept in KV"
      }${config.watch.webhookResolve.size ? "; WEBHOOK_RESOLVE is set (tests only)" : ""}; ${
        config.watch.smtp
          ? `e-mail alerts through ${new URL(config.watch.smtp.url).host} (SMTP_URL)`
          : "no e-mail alerts (SMTP_URL)"
      }`,
    ...(config.watch.maxPerAccount && !config.secretBox.secretKey ? [KEPT_KEY_WARNING] : []),
    describeAnswers(config.answers),
    config.logRequests
      ? "Logs: one JSON line per request and per scan"
      : "Logs: one JSON line per scan (LOG_REQUESTS=0)",
  ];
}

/** Said at start-up while webhook secrets are sealed with the key kept in KV. */
export const KEPT_KEY_WARNING =
  "WARNING: webhook signing secrets are sealed with a key stored beside them in KV: a copy of " +
  "the KV file lets someone forge your alerts. Set WATCH_SECRET_KEY (32+ characters) and " +
  "restart: existing secrets are sealed again with it and the stored key is deleted " +
  "(docs/security.md)";

/** How a bind address and port read as a URL ("http://[::1]:8000/"). */
export function listenAddress(hostname: string, port: number): string {
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}/`;
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
  // The guard's caps need the free file descriptors, counted before the store, the threads or a
  // listener open any (the count briefly holds every free one): lib/kit/net/fd_limit.ts.
  const c = config.connections;
  const limits = c.guard
    ? connectionLimits(
      c,
      c.max ? null : freeDescriptors(MAX_TOTAL * DESCRIPTORS_PER_CONNECTION + 512),
      config.memory.connectionMb,
    )
    : undefined;
  setBodyBudget(config.memory.bodyMb * 1048576);
  // Stores, limiter, queue, challenge, routes, scan threads and worker: lib/app/server.ts.
  let server: Server;
  try {
    server = await createServer(config);
  } catch (e) {
    if (e instanceof KvOpenError) {
      console.error(e.message);
      Deno.exit(3);
    }
    if (e instanceof StartupConfigError) {
      console.error(e.message);
      Deno.exit(2);
    }
    throw e;
  }
  const { fetcher, log } = server;
  console.log(describeMemoryPlan(config.memory));
  console.log(describeRendering(config.render.browser, config.memory));
  console.log(server.isolation);
  runCleanUp = server.cleanUp;
  runWatchTick = server.watchTick;
  for (const line of describeConfig(config)) console.log(line);
  if (config.turnstileSecretKey && config.turnstileSiteKey) {
    // In the background: a slow verifier must not delay the start.
    probeTurnstile({
      secret: config.turnstileSecretKey,
      verifyUrl: config.turnstileVerifyUrl,
      fetcher,
    }).then((problem) => {
      if (!problem) return;
      console.error(
        `WARNING: Turnstile verification will fail (${problem}); every scan and sign-up gets ` +
          "403 until TURNSTILE_SECRET_KEY and TURNSTILE_VERIFY_URL are right. /healthz reports it.",
      );
    });
  }
  console.log(`Passwords: argon2id, ${await passwordBackend()} backend`);
  if (config.upstash) {
    try {
      await server.store.limiter.ping();
    } catch {
      console.error(
        "WARNING: Upstash Redis does not answer; new scans and sign-ins get 503 until it does. " +
          "Check UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN.",
      );
    }
  }
  // Deno.serve behind the connection guard (caps, header timeout, EMFILE): lib/app/serve.ts.
  let serving;
  try {
    serving = serveHttp(
      config,
      server.servedHandler,
      { log, hostname: config.hostname, limits },
    );
  } catch (e) {
    if (e instanceof Deno.errors.AddrInUse) {
      console.error(`Port ${config.port} is already in use: stop what listens there or set PORT.`);
      Deno.exit(4);
    }
    throw e;
  }
  // Alerts and feeds link to where the server really listens (PORT=0 picks the port).
  setListeningOrigin(server.deps.watch!, serving.addr.hostname, serving.addr.port);
  console.log(serving.describe);
  console.log(`Listening on ${listenAddress(serving.addr.hostname, serving.addr.port)}`);
}
