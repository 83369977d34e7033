/**
 * The one place that reads the environment. Everything else receives a typed {@link Config}.
 *
 * @example
 * ```ts
 * const config = loadConfig(); // from Deno.env
 * const testConfig = loadConfig({ SCAN_RESOLVE: "shop.test=127.0.0.1:4507" });
 * ```
 */
import { z } from "zod";
import type { Config, IsolationSettings, RenderBrowser, ResolveTarget } from "./config_types.ts";
import { machineMemory, type MemoryPlan, memoryPlan } from "./config_memory.ts";
import { answersFromEnv } from "../features/answers/config.ts";
import { logsFromEnv } from "../features/logs/config.ts";
import { WATCH_ENV, watchSettings } from "../features/watch/config.ts";
import { ACCOUNTS_ENV, accountsSettings } from "../features/accounts/config.ts";
import { SERVICE_DEFAULTS, SERVICE_NAMES } from "./service_defaults.ts";
import { charsOf, trimEnd } from "./text/trim.ts";
export type {
  Config,
  IsolationSettings,
  RenderBrowser,
  RenderSettings,
  ResolveTarget,
} from "./config_types.ts";

/** Parses `SCAN_RESOLVE="shop.test=127.0.0.1:4507,blog.test=127.0.0.1:4508"`. */
export function parseScanResolve(value: string | undefined): Map<string, ResolveTarget> {
  const map = new Map<string, ResolveTarget>();
  if (!value || !value.trim()) return map;
  for (const part of value.split(",")) {
    const item = part.trim();
    if (!item) continue;
    const m = item.match(/^([a-z0-9.-]+)=(\[[0-9a-f:.]+\]|[0-9.]+|localhost):(\d{1,5})$/i);
    if (!m) {
      throw new ConfigError(
        `SCAN_RESOLVE entry "${item}" is not of the form host=ip:port (e.g. shop.test=127.0.0.1:4507)`,
      );
    }
    const port = Number(m[3]);
    if (port < 1 || port > 65535) {
      throw new ConfigError(`SCAN_RESOLVE port out of range in "${item}"`);
    }
    map.set(m[1].toLowerCase().replace(/\.$/, ""), {
      host: m[2].replace(/^\[|\]$/g, ""),
      port,
    });
  }
  return map;
}

/** Thrown when the environment holds a value that cannot be used. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const optionalString = z.string().trim().min(1).optional().catch(undefined);
const url = (fallback: string) =>
  z.string().trim().default(fallback).pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  );
const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const EnvSchema = z.object({
  SERVICE: z.enum(SERVICE_NAMES).default(SERVICE_NAMES[0]),
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HOST: optionalString,
  KV_PATH: optionalString,
  PIPELINE_TOKEN: optionalString,
  TURNSTILE_SITE_KEY: optionalString,
  TURNSTILE_SECRET_KEY: optionalString,
  TURNSTILE_VERIFY_URL: url("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
  TRUST_PROXY: z.enum(["0", "1", "true", "false", ""]).default("0"),
  SCAN_RESOLVE: z.string().optional(),
  WIKIDATA_API_URL: url("https://www.wikidata.org/w/api.php"),
  WIKIPEDIA_API_URL: url("https://en.wikipedia.org/w/api.php"),
  COMMONCRAWL_INDEX_URL: url("https://index.commoncrawl.org"),
  PUBLIC_URL: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  ),
  CONTACT: optionalString,
  SISTER_URL: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  ),
  SOURCE_URL: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  ),
  MCP_ALLOWED_HOSTS: optionalString,
  MCP_ALLOWED_ORIGINS: optionalString,
  TURNSTILE_HOSTNAMES: optionalString,
  TURNSTILE_ACTION: optionalString,
  SCAN_TIMEOUT_MS: int(25_000, 1_000, 300_000),
  REQUEST_TIMEOUT_MS: int(10_000, 500, 120_000),
  OFFSITE_TIMEOUT_MS: int(6_000, 200, 60_000),
  COMMONCRAWL_TIMEOUT_MS: z.coerce.number().int().min(200).max(120_000).optional(),
  MAX_BODY_BYTES: int(5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  MEMORY_MB: z.coerce.number().int().min(256).max(1_048_576).optional(),
  SCAN_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  SCAN_HEAP_MB: z.coerce.number().int().min(32).max(4096).optional(),
  SCAN_THREADS_WARM: z.coerce.number().int().min(0).max(64).optional(),
  SCAN_THREAD_IDLE_MS: z.coerce.number().int().min(1000).max(86_400_000).optional(),
  AUDIT_PAGES: int(10, 1, 50),
  AUDIT_BUDGET_MS: int(12_000, 500, 120_000),
  AUDIT_MAX_CRAWL_DELAY_S: int(5, 0, 60),
  RENDER_BROWSER_URL: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.url({ protocol: /^(wss?|https?)$/, error: "must be a ws(s):// or http(s):// URL" })
      .optional(),
  ),
  RENDER_BROWSER_PROTOCOL: z.enum(["cdp", "playwright"]).default("cdp"),
  RENDER_CHROMIUM: z.string().trim().default("/usr/bin/chromium"),
  RENDER_LOCAL: z.enum(["auto", "on", "off"], { error: "must be auto, on or off" }).default("auto"),
  RENDER_BUDGET_MS: int(20_000, 2_000, 120_000),
  RENDER_PAGES: int(10, 1, 50),
  RENDER_PAGE_MS: int(8_000, 1_000, 60_000),
  RENDER_CONCURRENCY: int(1, 1, 8),
  ALTCHA_HMAC_KEY: optionalString,
  ...ACCOUNTS_ENV,
  DENO_DEPLOYMENT_ID: optionalString,
  DENO_KV_ACCESS_TOKEN: optionalString,
  UPSTASH_REDIS_REST_URL: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  ),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  LOG_REQUESTS: z.enum(["0", "1", "true", "false", ""]).default("1"),
  RECORD_RETENTION_DAYS: int(30, 1, 3650),
  HISTORY_RETENTION_DAYS: int(90, 1, 3650),
  HISTORY_MAX_SCANS: int(1000, 1, 100_000),
  ...WATCH_ENV,
  // The instance's secret box (lib/kit/auth/secret_box.ts): it seals webhooks and users' keys.
  WATCH_SECRET_KEY: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  ),
  WATCH_SECRET_KEY_PREVIOUS: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  ),
  JOB_QUEUE: z.enum(["auto", "queue", "poll"]).default("auto"),
  CONN_GUARD: z.enum(["0", "1", "true", "false", "auto", ""]).default("auto"),
  MAX_CONNECTIONS: int(0, 0, 1_000_000),
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(1_000_000).optional(),
  HEADER_TIMEOUT_MS: int(10_000, 500, 120_000),
  KEEPALIVE_TIMEOUT_MS: int(120_000, 1_000, 3_600_000),
});

/**
 * The default of every setting that has one, by its variable's name, as the schema above gives it
 * (the docs print them: `deno task facts`).
 */
export function settingDefaults(): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(EnvSchema.parse({})).filter(([, v]) =>
      typeof v === "string" || typeof v === "number"
    ),
  ) as Record<string, string | number>;
}

/** True for a KV_PATH that names a KV Connect endpoint (denokv, or a Deno Deploy KV database). */
export function isKvConnectUrl(path: string | undefined): boolean {
  return !!path && /^https?:\/\//i.test(path);
}

/** Product name and version sent in the User-Agent. */
export const PRODUCT = { name: "AIVisibilityBot", version: "0.1.0" } as const;

/** Host names that only ever mean this machine. */
export const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"] as const;

/** True for a bind address that accepts connections from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * The User-Agent of every outbound request, in the form Wikimedia's User-Agent policy asks for:
 * `<client>/<version> (<contact>) <library>/<version>`. No browser token: we are a bot and say so.
 * Without PUBLIC_URL the contact is this instance's local address, marked as such; a public
 * deployment must set PUBLIC_URL (the start-up summary warns when it is missing).
 */
export function userAgentFor(
  publicUrl: string | undefined,
  contact: string | undefined,
  port: number,
): string {
  const site = publicUrl ?? `http://localhost:${port || SERVICE_DEFAULTS.visibility.port}/`;
  const parts = [`+${site}`, ...(contact ? [contact] : []), ...(publicUrl ? [] : ["local"])];
  return `${PRODUCT.name}/${PRODUCT.version} (${parts.join("; ")}) Deno/${denoVersion()}`;
}

function denoVersion(): string {
  try {
    return Deno.version.deno;
  } catch {
    return "2";
  }
}

/** Splits a comma-separated setting into trimmed, non-empty, lower-cased items. */
function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
}

/** Reads MCP_ALLOWED_ORIGINS: "*" or origins ("https://app.example.org"), normalised. */
function parseOrigins(value: string | undefined): string[] | "*" {
  const items = list(value);
  if (items.includes("*")) return "*";
  return items.map((item) => {
    try {
      const u = new URL(item);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
      return u.origin;
    } catch {
      throw new ConfigError(
        `Invalid configuration: MCP_ALLOWED_ORIGINS entry "${item}" is not an origin such as ` +
          "https://app.example.org (or use * to accept every origin)",
      );
    }
  });
}

/**
 * Adds PUBLIC_URL's origin to the accepted /mcp origins: behind a proxy that rewrites Host, the
 * deployment's own pages would otherwise not count as same-origin.
 */
function withPublicOrigin(origins: string[] | "*", publicUrl: string | undefined): string[] | "*" {
  if (origins === "*" || !publicUrl) return origins;
  return [...new Set([...origins, new URL(publicUrl).origin])];
}

/** Reads a list of host names (no scheme, no port), e.g. MCP_ALLOWED_HOSTS. */
function parseHostNames(name: string, value: string | undefined): string[] {
  return list(value).map((item) => {
    const host = item.replace(/^\[|\]$/g, "");
    if (!/^[a-z0-9.:-]+$/.test(host) || host.includes("/")) {
      throw new ConfigError(
        `Invalid configuration: ${name} entry "${item}" is not a host name such as checker.example.org`,
      );
    }
    return host;
  });
}

/**
 * Builds the configuration from an environment map (defaults to the process environment).
 * `machine` is the memory the plan is made for when MEMORY_MB is not set (default: this machine's,
 * lib/kit/config_memory.ts).
 */
export function loadConfig(
  env: Record<string, string | undefined> = readEnv(),
  machine: ReturnType<typeof machineMemory> = machineMemory(),
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  if (!!e.UPSTASH_REDIS_REST_URL !== !!e.UPSTASH_REDIS_REST_TOKEN) {
    throw new ConfigError(
      "Invalid configuration: set both UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (the " +
        "shared rate limits in Upstash Redis), or neither (the limits stay in Deno KV)",
    );
  }
  if (isKvConnectUrl(e.KV_PATH) && !e.DENO_KV_ACCESS_TOKEN) {
    throw new ConfigError(
      "Invalid configuration: KV_PATH is a KV Connect URL but DENO_KV_ACCESS_TOKEN is not set; " +
        "set it to the access token of that denokv server or Deno Deploy KV database",
    );
  }
  const onDeploy = e.DENO_DEPLOYMENT_ID !== undefined;
  if (onDeploy && e.KV_PATH && e.KV_PATH !== ":memory:" && !isKvConnectUrl(e.KV_PATH)) {
    throw new ConfigError(
      "Invalid configuration: on Deno Deploy, leave KV_PATH unset (the platform's KV) or set it " +
        "to a KV Connect URL; a local file cannot be written there",
    );
  }
  const port = e.PORT ?? SERVICE_DEFAULTS[e.SERVICE].port;
  let browser = renderBrowser(e.RENDER_BROWSER_URL, e.RENDER_BROWSER_PROTOCOL, e.RENDER_CHROMIUM);
  let mode: IsolationSettings["mode"];
  try {
    mode = isolationMode(env, onDeploy);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  const memory = memoryPlan({
    memoryMb: e.MEMORY_MB,
    isolation: mode,
    threads: e.SCAN_THREADS,
    heapMb: e.SCAN_HEAP_MB,
    warm: e.SCAN_THREADS_WARM,
    idleMs: e.SCAN_THREAD_IDLE_MS,
    localRender: browser.kind === "local"
      ? {
        unavailable: localChromiumProblem(browser.path),
        mode: e.RENDER_LOCAL,
        concurrency: e.RENDER_CONCURRENCY,
      }
      : undefined,
  }, machine);
  // A local Chromium the plan does not let run is no browser: render requests say why.
  if (browser.kind === "local" && !memory.localRender.on) {
    browser = { kind: "off", reason: `local rendering is off: ${memory.localRender.why}` };
  }
  let isolation: IsolationSettings;
  try {
    isolation = isolationFromEnv(env, { scanTimeoutMs: e.SCAN_TIMEOUT_MS, onDeploy, memory });
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  let answers: Config["answers"];
  let logs: Config["logs"];
  try {
    answers = answersFromEnv(env, parseResolveSetting);
    logs = logsFromEnv(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  // Deno Deploy binds for us; elsewhere loopback unless the operator asks for more.
  const hostname = e.HOST ?? (onDeploy ? "0.0.0.0" : "127.0.0.1");
  const loopbackOnly = !onDeploy && isLoopbackHost(hostname);
  const publicHost = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname.replace(/^\[|\]$/g, "") : null;
  const configuredHosts = parseHostNames("MCP_ALLOWED_HOSTS", e.MCP_ALLOWED_HOSTS);
  // No names known on a bind to every interface: loopback names and IP addresses only (safe by
  // default, see lib/kit/mcp/http.ts checkOrigin); on Deno Deploy its proxy routes only our names.
  const mcpAllowIpHosts = !onDeploy && !loopbackOnly && configuredHosts.length === 0 &&
    !publicHost;
  const mcpAllowedHosts = onDeploy && configuredHosts.length === 0 && !publicHost
    ? null
    : [...new Set([...configuredHosts, ...(publicHost ? [publicHost] : []), ...LOOPBACK_NAMES])];
  return {
    service: e.SERVICE,
    port,
    hostname,
    loopbackOnly,
    kvPath: e.KV_PATH ?? (onDeploy ? undefined : SERVICE_DEFAULTS[e.SERVICE].kvPath),
    pipelineToken: e.PIPELINE_TOKEN,
    turnstileSiteKey: e.TURNSTILE_SITE_KEY,
    turnstileSecretKey: e.TURNSTILE_SECRET_KEY,
    turnstileVerifyUrl: e.TURNSTILE_VERIFY_URL,
    trustProxy: e.TRUST_PROXY === "1" || e.TRUST_PROXY === "true",
    scanResolve: parseScanResolve(e.SCAN_RESOLVE),
    wikidataApiUrl: e.WIKIDATA_API_URL,
    wikipediaApiUrl: e.WIKIPEDIA_API_URL,
    commonCrawlIndexUrl: trimEnd(e.COMMONCRAWL_INDEX_URL, charsOf("/")),
    publicUrl: e.PUBLIC_URL,
    contact: e.CONTACT,
    sisterUrl: e.SISTER_URL ??
      (e.PUBLIC_URL
        ? undefined
        : `http://localhost:${SERVICE_DEFAULTS[SERVICE_DEFAULTS[e.SERVICE].sister].port}/`),
    sourceUrl: e.SOURCE_URL,
    userAgent: userAgentFor(e.PUBLIC_URL, e.CONTACT, port),
    mcpAllowedHosts,
    mcpAllowIpHosts,
    mcpAllowedOrigins: withPublicOrigin(parseOrigins(e.MCP_ALLOWED_ORIGINS), e.PUBLIC_URL),
    turnstileHostnames: e.TURNSTILE_HOSTNAMES
      ? parseHostNames("TURNSTILE_HOSTNAMES", e.TURNSTILE_HOSTNAMES)
      : publicHost
      ? [publicHost]
      : [],
    turnstileAction: e.TURNSTILE_ACTION,
    scanTimeoutMs: e.SCAN_TIMEOUT_MS,
    isolation,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    offsiteTimeoutMs: e.OFFSITE_TIMEOUT_MS,
    commonCrawlTimeoutMs: Math.max(
      e.OFFSITE_TIMEOUT_MS,
      e.COMMONCRAWL_TIMEOUT_MS ?? 2 * e.OFFSITE_TIMEOUT_MS,
    ),
    maxBodyBytes: e.MAX_BODY_BYTES,
    maxRedirects: 5,
    // As many scans at once as there are scan workers (more would only wait for one).
    workerConcurrency: e.WORKER_CONCURRENCY ??
      (isolation.mode === "inline" ? 4 : isolation.threads),
    memory,
    audit: {
      pages: e.AUDIT_PAGES,
      budgetMs: e.AUDIT_BUDGET_MS,
      maxCrawlDelayMs: e.AUDIT_MAX_CRAWL_DELAY_S * 1000,
    },
    render: {
      browser,
      budgetMs: e.RENDER_BUDGET_MS,
      pages: e.RENDER_PAGES,
      pageMs: Math.min(e.RENDER_PAGE_MS, e.RENDER_BUDGET_MS),
      concurrency: e.RENDER_CONCURRENCY,
    },
    altchaHmacKey: e.ALTCHA_HMAC_KEY,
    ...accountsSettings(e),
    onDeploy,
    kvAccessTokenSet: !!e.DENO_KV_ACCESS_TOKEN,
    upstash: e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN
      ? { url: trimEnd(e.UPSTASH_REDIS_REST_URL, charsOf("/")), token: e.UPSTASH_REDIS_REST_TOKEN }
      : undefined,
    logRequests: e.LOG_REQUESTS === "1" || e.LOG_REQUESTS === "true",
    recordRetentionDays: e.RECORD_RETENTION_DAYS,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    historyMaxScans: e.HISTORY_MAX_SCANS,
    watch: watchSettings(e, parseResolveSetting),
    secretBox: {
      secretKey: e.WATCH_SECRET_KEY,
      previousSecretKeys: e.WATCH_SECRET_KEY_PREVIOUS ? [e.WATCH_SECRET_KEY_PREVIOUS] : [],
    },
    answers,
    logs,
    jobQueue: e.JOB_QUEUE === "auto" ? (isKvConnectUrl(e.KV_PATH) ? "poll" : "queue") : e.JOB_QUEUE,
    connections: {
      // On a loopback bind only this machine connects (a local proxy bounds the connections), so
      // Deno.serve runs alone there unless CONN_GUARD=1; on any other bind the guard is in front.
      guard: !onDeploy && (e.CONN_GUARD === "1" || e.CONN_GUARD === "true" ||
        ((e.CONN_GUARD === "auto" || e.CONN_GUARD === "") && !loopbackOnly)),
      max: e.MAX_CONNECTIONS,
      // Behind a proxy every connection comes from the proxy: no per-address cap by default;
      // otherwise derived from the total at start-up (lib/kit/net/conn_limits.ts).
      perIp: e.MAX_CONNECTIONS_PER_IP ??
        (e.TRUST_PROXY === "1" || e.TRUST_PROXY === "true" ? 0 : null),
      headerTimeoutMs: e.HEADER_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEPALIVE_TIMEOUT_MS,
    },
  };
}

/** {@link parseScanResolve} for another setting of the same form, its errors naming it. */
function parseResolveSetting(name: string, value: string | undefined): Map<string, ResolveTarget> {
  try {
    return parseScanResolve(value);
  } catch (e) {
    throw new ConfigError((e as Error).message.replaceAll("SCAN_RESOLVE", name));
  }
}

/**
 * The rendering step's browser: RENDER_BROWSER_URL (a remote browser) wins; else the local
 * Chromium at RENDER_CHROMIUM (an absolute path; "off" turns rendering off).
 */
function renderBrowser(
  url: string | undefined,
  protocol: "cdp" | "playwright",
  chromium: string,
): RenderBrowser {
  if (url) return { kind: "remote", url, protocol };
  if (!chromium || chromium.toLowerCase() === "off") {
    return {
      kind: "off",
      reason: "rendering is off on this server (RENDER_CHROMIUM=off, no RENDER_BROWSER_URL)",
    };
  }
  if (!chromium.startsWith("/")) {
    throw new ConfigError(
      `Invalid configuration: RENDER_CHROMIUM must be an absolute path (or off), not "${chromium}"`,
    );
  }
  return { kind: "local", path: chromium };
}

/**
 * Why this process cannot start the local Chromium at `path`, or undefined when it can: the file
 * must exist and the process must hold `--allow-run` for exactly that path (the start task grants
 * /usr/bin/chromium, Debian's package).
 */
function localChromiumProblem(path: string): string | undefined {
  try {
    if (!Deno.statSync(path).isFile) throw new Error("not a file");
  } catch {
    return `no browser: ${path} is not installed and no RENDER_BROWSER_URL is set`;
  }
  let state = "denied";
  try {
    state = Deno.permissions.querySync({ name: "run", command: path }).state;
  } catch { /* no permissions API: treated as denied */ }
  return state === "granted" ? undefined : `this server may not start ${path} (it runs without ` +
    `--allow-run=${path}) and no RENDER_BROWSER_URL is set`;
}

function readEnv(): Record<string, string | undefined> {
  try {
    return Deno.env.toObject();
  } catch {
    // Without --allow-env the defaults apply.
    return {};
  }
}

/** The isolation modes SCAN_ISOLATION names (docs/reliability.md). */
const ISOLATION_MODES = ["process", "thread", "inline"] as const;

/**
 * SCAN_ISOLATION: `process` (worker processes, the default except on Deno Deploy), `thread` (scan
 * threads, which cannot stop code that never returns) or `inline` (this isolate: Deno Deploy's
 * default, where there are no processes). @throws Error for another value.
 */
function isolationMode(
  env: Record<string, string | undefined>,
  onDeploy: boolean,
): IsolationSettings["mode"] {
  const asked = env.SCAN_ISOLATION?.trim().toLowerCase();
  if (!asked) return onDeploy ? "inline" : "process";
  if (!(ISOLATION_MODES as readonly string[]).includes(asked)) {
    throw new Error(
      `SCAN_ISOLATION must be "process", "thread" or "inline", not ${JSON.stringify(asked)}`,
    );
  }
  return asked as IsolationSettings["mode"];
}

/**
 * Where scans and other untrusted work run (SCAN_ISOLATION, {@link isolationMode}); the workers'
 * count and V8 limits come from the memory plan (lib/kit/config_memory.ts: MEMORY_MB, SCAN_THREADS,
 * SCAN_HEAP_MB); SCAN_THREAD_TIMEOUT_MS (default `scanTimeoutMs` + 10 s) is when a scan's worker
 * is ended (the scan's own deadline aborts its requests first; this bounds a runaway parse).
 */
export function isolationFromEnv(
  env: Record<string, string | undefined>,
  config: { scanTimeoutMs: number; onDeploy: boolean; memory?: MemoryPlan },
): IsolationSettings {
  const mode = isolationMode(env, config.onDeploy);
  const timeout = env.SCAN_THREAD_TIMEOUT_MS
    ? Number(env.SCAN_THREAD_TIMEOUT_MS)
    : config.scanTimeoutMs + 10_000;
  if (!Number.isInteger(timeout) || timeout < 500 || timeout > 3_600_000) {
    throw new Error("SCAN_THREAD_TIMEOUT_MS must be a whole number of ms from 500 to 3600000");
  }
  const plan = config.memory ?? memoryPlan({ isolation: mode }, machineMemory());
  return {
    mode,
    heapMb: plan.heapMb,
    youngMb: plan.youngMb,
    threads: plan.threads,
    warm: plan.warm,
    idleMs: plan.idleMs,
    timeoutMs: timeout,
  };
}
