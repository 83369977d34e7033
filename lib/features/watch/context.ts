/**
 * What the watch feature needs, built once in the composition root (lib/app/server.ts) and handed to
 * the routes, MCP and the scheduler: the service's scan store (records, history, admission), the
 * watch store, the clock, the webhook fetcher and the key that seals webhook secrets.
 */
import type { Config } from "../../kit/config.ts";
import type { AppDeps } from "../../kit/web/context.ts";
import type { LookupFunction } from "../../kit/net/guarded_fetch.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import type { ServiceDef } from "../../service.ts";
import type { Store } from "../../kit/storage/store.ts";
import type { WatchStore } from "./store.ts";
import type { SecretBox } from "../../kit/auth/secret_box.ts";
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
  /** The key that seals webhook URLs and secrets (from WATCH_SECRET_KEY, else kept in KV). */
  box(): Promise<SecretBox>;
  /** Where this instance is reached, for the links in alerts ("https://checker.example.org"). */
  origin: string;
  log: (entry: Record<string, unknown>) => void;
  /**
   * The daily crawler counts of an account's site from its stored server logs (verified hits and
   * refusals), for the log rules (lib/features/watch/log_alerts.ts); absent where the service reads
   * no logs. Handed in by the composition root (lib/features/logs/ is another feature).
   */
  logSeries?: (accountId: string, domain: string) => Promise<DailyCrawlerCounts>;
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
