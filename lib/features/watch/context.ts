/**
 * What the watch feature needs, built once in the composition root (lib/app/server.ts) and handed to
 * the routes, MCP and the scheduler: the service's scan store (records, history, admission), the
 * watch store, the clock, the webhook fetcher and the key that seals webhook secrets.
 */
import type { Config } from "../../kit/config.ts";
import type { AppDeps } from "../../kit/web/context.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";
import type { LookupFunction } from "../../kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import type { ServiceDef } from "../../service.ts";
import type { Store } from "../../kit/storage/store.ts";
import type { WatchStore } from "./store.ts";
import type { SecretBox } from "../../kit/auth/secret_box.ts";
import type { Mailer } from "./mailer.ts";
import type { DailyCrawlerCounts } from "./log_alerts.ts";

/** The watch feature's dependencies. */
export interface WatchDeps {
  config: Config;
  service: ServiceDef;
  /** The scan store of the service (records, history, pools, queue). */
  store: Store;
  watches: WatchStore;
  /** Milliseconds since the epoch (tests drive it). */
  now: () => number;
  /** DNS of the webhook URL check (tests inject one). */
  lookup?: LookupFunction;
  /** The guarded fetcher of webhook deliveries (its own: WEBHOOK_RESOLVE, small bodies). */
  fetcher: GuardedFetcher;
  /** Seals webhook URLs and secrets (./sealing.ts: WATCH_SECRET_KEY, else a key kept in KV). */
  box(): Promise<SecretBox>;
  /**
   * Where this instance is reached, for the links in alerts ("https://checker.example.org"):
   * PUBLIC_URL, else the address the server listens on once it does (main.ts sets it with
   * {@link setListeningOrigin}, so PORT=0 never gives `localhost:0`).
   */
  origin: string;
  log: (entry: Record<string, unknown>) => void;
  /**
   * The daily crawler counts of an account's site from its stored server logs (verified hits and
   * refusals), for the log rules (lib/features/watch/log_alerts.ts); absent where the service reads
   * no logs. Handed in by the composition root (lib/features/logs/ is another feature).
   */
  logSeries?: (accountId: string, domain: string) => Promise<DailyCrawlerCounts>;
  /**
   * Starts an answer-presence run of a watched site for its account (the answers feature's, within
   * the account's budget and its fair share of the operator's pool), handed in by the app; absent
   * where that feature is not built. Resolves to what happened, in words; rejects when refused.
   */
  startAnswers?: (accountId: string, domain: string) => Promise<string>;
  /** Sends e-mail alerts through the operator's SMTP server (SMTP_URL); null without one. */
  mailer: Mailer | null;
}

/**
 * The origin the server really listens on (PORT=0 picks one), for the links of alerts and feeds,
 * unless PUBLIC_URL names it: a wildcard address reads as localhost.
 */
export function setListeningOrigin(deps: WatchDeps, hostname: string, port: number): void {
  if (deps.config.publicUrl) return;
  const host = ["0.0.0.0", "::", ""].includes(hostname)
    ? "localhost"
    : hostname.includes(":")
    ? `[${hostname}]`
    : hostname;
  deps.origin = `http://${host}:${port}`;
}

/**
 * The origin of the links in an answer to a request: PUBLIC_URL, else the request's own origin
 * (what the client reached), never the configured port alone.
 */
export function linkOrigin(
  deps: Pick<WatchDeps, "config">,
  c: { req: { url: string; header(name: string): string | undefined } },
): string {
  if (deps.config.publicUrl) return trimEnd(deps.config.publicUrl, charsOf("/"));
  const url = new URL(c.req.url);
  if (deps.config.trustProxy) {
    const proto = c.req.header("x-forwarded-proto")?.split(",")[0].trim();
    if (proto === "https" || proto === "http") url.protocol = `${proto}:`;
  }
  return url.origin;
}

/**
 * The part of the app's dependencies the watch feature's routes and tools read (lib/app/deps.ts
 * puts it in the app's; createServer always builds it).
 */
export interface WithWatch {
  watch?: WatchDeps;
}

/** The app's dependencies as the feature's routes read them: the kit's, and the feature's part. */
export type WatchAppDeps = AppDeps & WithWatch;

/** The watch feature of an app's dependencies (createServer always builds it). */
export function watchOf(deps: WithWatch): WatchDeps {
  if (!deps.watch) throw new Error("the watch feature was not built (lib/app/server.ts)");
  return deps.watch;
}
