/**
 * The shape of the validated configuration (lib/kit/config.ts builds it from the environment and is
 * the only module that reads it). Types only.
 */

import type { AnswersSettings } from "../features/answers/config.ts";
import type { LogsSettings } from "../features/logs/config.ts";
import type { WatchSettings } from "../features/watch/config.ts";
import type { AccountsSettings } from "../features/accounts/config.ts";
import type { SecretBoxKeys } from "./auth/secret_box.ts";
import type { ServiceName } from "./service_defaults.ts";

/** Where a host named in SCAN_RESOLVE connects instead of using DNS. */
export interface ResolveTarget {
  host: string;
  port: number;
}

/** How scans are isolated, from the environment and the memory plan (lib/kit/config_memory.ts). */
export interface IsolationSettings {
  /**
   * Where untrusted work runs (SCAN_ISOLATION): worker processes (the default), scan threads, or
   * this isolate (Deno Deploy). lib/kit/isolate/runner.ts.
   */
  mode: "process" | "thread" | "inline";
  /** Each scan worker's V8 old-generation limit, in MB. */
  heapMb: number;
  /** Each scan worker's V8 young-generation limit, in MB. */
  youngMb: number;
  /** Scan workers at most (processes or threads). */
  threads: number;
  /** Workers kept loaded while idle. */
  warm: number;
  /** A worker beyond the warm ones ends after this long without work. */
  idleMs: number;
  timeoutMs: number;
}

import type { MemoryPlan } from "./config_memory.ts";

/**
 * Where the rendering step (lib/engines/render/, docs/rendering.md) gets its browser: none, a local
 * Chromium this process starts (it needs `--allow-run` for that executable), or a remote browser
 * the operator names (a CDP or Playwright WebSocket endpoint, e.g. a Browserless instance).
 */
export type RenderBrowser =
  /** `reason`: why not, as a render request's "not rendered" says it. */
  | { kind: "off"; reason: string }
  | { kind: "local"; path: string }
  | { kind: "remote"; url: string; protocol: "cdp" | "playwright" };

/** The rendering step's settings (RENDER_*). */
export interface RenderSettings {
  /**
   * The browser a rendering scan uses: a local Chromium only where it is installed, this process
   * may start it, and the memory plan lets it run (lib/kit/config_memory.ts; RENDER_LOCAL).
   */
  browser: RenderBrowser;
  /** Wall time of one scan's rendering, all pages together (RENDER_BUDGET_MS, default 20 s). */
  budgetMs: number;
  /** Pages rendered at most per scan, home page included (RENDER_PAGES, default 10). */
  pages: number;
  /** Wall time of one page's render (RENDER_PAGE_MS, default 8 s). */
  pageMs: number;
  /** Rendered scans at once in this process (RENDER_CONCURRENCY, default 1). */
  concurrency: number;
}

/**
 * The validated configuration of one process: the kit's settings, and each feature's slice (its
 * config.ts: the administrator's password at the top level, the others under the feature's name).
 */
export interface Config extends AccountsSettings {
  service: ServiceName;
  /** The TCP port (default: its service's, lib/kit/service_defaults.ts, so both run side by side). */
  port: number;
  /**
   * The bind address (HOST). Default 127.0.0.1 (loopback only); "0.0.0.0" or "::" for every
   * interface (containers, a VM behind a proxy). Deno Deploy ignores it.
   */
  hostname: string;
  /** True when `hostname` only accepts connections from this machine. */
  loopbackOnly: boolean;
  /** Deno KV location; undefined means the platform default (Deno Deploy) or ./data/kv.sqlite3. */
  kvPath: string | undefined;
  pipelineToken: string | undefined;
  turnstileSiteKey: string | undefined;
  turnstileSecretKey: string | undefined;
  turnstileVerifyUrl: string;
  trustProxy: boolean;
  /** Host names that bypass DNS and the private-address guard (tests and self-hosting only). */
  scanResolve: Map<string, ResolveTarget>;
  wikidataApiUrl: string;
  wikipediaApiUrl: string;
  commonCrawlIndexUrl: string;
  /**
   * The public address of this deployment (PUBLIC_URL, e.g. "https://checker.example.org"): the
   * contact in every outbound User-Agent and a name /mcp accepts in Host and Origin. Required for
   * a public deployment; undefined for a local one (the User-Agent then says so).
   */
  publicUrl: string | undefined;
  /** An e-mail address or URL for operators of the sites and APIs we call (CONTACT). */
  contact: string | undefined;
  /**
   * The home page of the sister service (the Schema Markup Generator for the AI Visibility
   * Checker, and the other way round): SISTER_URL, else, for a local instance (no PUBLIC_URL),
   * the sister's default local port; undefined for a public one without SISTER_URL.
   */
  sisterUrl: string | undefined;
  /** Where the source code is published (SOURCE_URL), linked from the home page. */
  sourceUrl: string | undefined;
  /**
   * Host names /mcp accepts in the Host header (DNS-rebinding protection); null accepts any Host
   * (on Deno Deploy with neither MCP_ALLOWED_HOSTS nor PUBLIC_URL: its proxy routes only the
   * deployment's own names to it).
   */
  mcpAllowedHosts: string[] | null;
  /**
   * /mcp also accepts an IP address as Host: a bind to every interface with neither
   * MCP_ALLOWED_HOSTS nor PUBLIC_URL (any other name is refused: no DNS rebinding).
   */
  mcpAllowIpHosts: boolean;
  /** Origins /mcp accepts besides its own ("*" accepts every origin: a public, open endpoint). */
  mcpAllowedOrigins: string[] | "*";
  /**
   * Host names a Turnstile token must have been solved on (siteverify's `hostname`):
   * TURNSTILE_HOSTNAMES, else PUBLIC_URL's host; [] = not checked.
   */
  turnstileHostnames: string[];
  /** The action the Turnstile widget is rendered with (siteverify's `action`); unset: any. */
  turnstileAction: string | undefined;
  /** The User-Agent of every outbound request of a scan. */
  userAgent: string;
  scanTimeoutMs: number;
  requestTimeoutMs: number;
  offsiteTimeoutMs: number;
  /** Budget of the Common Crawl check (its index is slow under load); default 2x the above. */
  commonCrawlTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  /** Signs ALTCHA challenges; unset, a secret generated once is kept in KV. */
  altchaHmacKey: string | undefined;
  /** Scans the queue worker runs at once in this process (default: the scan workers). */
  workerConcurrency: number;
  /** How the process divides its memory (MEMORY_MB; lib/kit/config_memory.ts). */
  memory: MemoryPlan;
  /** True on Deno Deploy (DENO_DEPLOYMENT_ID is set): KV is the platform's, no file system. */
  onDeploy: boolean;
  /** Where scans run (SCAN_ISOLATION, SCAN_HEAP_MB, SCAN_THREAD_TIMEOUT_MS): lib/kit/isolate/. */
  isolation: IsolationSettings;
  /**
   * The site audit (docs/site-audit.md): pages sampled per scan, home page included (AUDIT_PAGES,
   * 1-50, default 10; 1 reads the home page only), the wall-time budget of the audit's page
   * fetches (AUDIT_BUDGET_MS, default 12 s, never past 80% of the scan's deadline) and the longest
   * robots.txt Crawl-delay waited between pages (AUDIT_MAX_CRAWL_DELAY_S, default 5 s; a longer
   * one means fewer pages, never a faster crawl).
   */
  audit: { pages: number; budgetMs: number; maxCrawlDelayMs: number };
  /** The optional rendering step (lib/engines/render/, docs/rendering.md): RENDER_* settings. */
  render: RenderSettings;
  /**
   * True when DENO_KV_ACCESS_TOKEN is set (Deno itself reads it to authenticate to a KV Connect
   * URL in KV_PATH; the value is never kept here).
   */
  kvAccessTokenSet: boolean;
  /** The Upstash REST endpoint of the shared rate limits; undefined keeps them in Deno KV. */
  upstash: { url: string; token: string } | undefined;
  /** One JSON log line per request (LOG_REQUESTS=0 turns them off). */
  logRequests: boolean;
  /** Stored scan records older than this many days are deleted by the hourly clean-up. */
  recordRetentionDays: number;
  /**
   * Kept scans (lib/kit/storage/history.ts) older than this many days are deleted by the hourly
   * clean-up (HISTORY_RETENTION_DAYS, default 90), except the one a domain's latest record is.
   */
  historyRetentionDays: number;
  /** At most this many kept scans per target (domain, or page for the schema service). */
  historyMaxScans: number;
  /** Watches (docs/watch.md; lib/features/watch/config.ts reads them). */
  watch: WatchSettings;
  /**
   * The instance's secret box (lib/kit/auth/secret_box.ts), which seals webhook URLs and secrets
   * and users' vendor keys: its key (WATCH_SECRET_KEY; unset: a key kept in KV, and users' vendor
   * keys stay off) and the key it replaced (WATCH_SECRET_KEY_PREVIOUS: opens, never seals;
   * docs/security.md, rotation).
   */
  secretBox: SecretBoxKeys;
  /** Answer presence (docs/answer-presence.md; lib/features/answers/config.ts reads it). */
  answers: AnswersSettings;
  /** Server logs (docs/logs.md; lib/features/logs/config.ts reads them). */
  logs: LogsSettings;
  /**
   * How jobs reach the worker (lib/kit/storage/job_queue.ts): "queue" is Deno KV's own queue, "poll" a job
   * table that workers poll. "auto": "poll" for a KV Connect URL (no queues there), else "queue".
   */
  jobQueue: "queue" | "poll";
  /**
   * Connection limits (lib/kit/net/conn_guard.ts), enforced by a guard in front of Deno.serve on a
   * bind other than loopback (CONN_GUARD=auto, the default), always (CONN_GUARD=1) or never
   * (CONN_GUARD=0; and on Deno Deploy, whose edge holds the connections).
   */
  connections: {
    guard: boolean;
    /**
     * Open connections at most in total; 0: derived at start-up from the free file descriptors
     * and the memory plan (lib/kit/net/conn_limits.ts).
     */
    max: number;
    /**
     * Open connections at most per client address (an IPv6 /64 counts as one); 0: none (default
     * with TRUST_PROXY=1); null: derived from the total.
     */
    perIp: number | null;
    headerTimeoutMs: number;
    /**
     * Idle keep-alive connections are closed after this long. Longer than the idle timeout of
     * common clients' pools (90 s: Deno's fetch, Go, hyper), so the client closes first: a server
     * closing a pooled connection as the client reuses it fails that request.
     */
    keepAliveTimeoutMs: number;
  };
}
