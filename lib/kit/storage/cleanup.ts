/**
 * The periodic clean-up (registered with Deno.cron in main.ts, hourly): deletes expired records,
 * sessions and counters from KV for every service sharing the store. A plain function of the KV
 * handle and a clock, so tests run it with an injected `now`.
 *
 * Redis counters (lib/kit/limits/limiter_redis.ts) need nothing: each key expires one window after its
 * newest admission.
 */
import { AUTH_ATTEMPTS, WINDOW_MS } from "../limits/limits.ts";
import type { Store } from "./store.ts";
import type { AccountStore } from "./store_accounts.ts";
import type { HistoryPurgeReport } from "./history.ts";

/** What one run deleted, per service. */
export type CleanUpReport = Record<
  string,
  & Awaited<ReturnType<Store["purgeExpired"]>>
  & HistoryPurgeReport
  & Awaited<
    ReturnType<AccountStore["purgeExpired"]>
  >
>;

/** Options of {@link cleanUp}. */
export interface CleanUpOptions {
  /** Milliseconds since the epoch. */
  now: number;
  /** Records scanned longer ago than this are deleted (RECORD_RETENTION_DAYS). */
  retentionMs: number;
  /** Kept scans older than this are deleted (HISTORY_RETENTION_DAYS; default: 90 days). */
  historyRetentionMs?: number;
  /** At most this many kept scans per target (HISTORY_MAX_SCANS; default 1000). */
  historyMaxScans?: number;
  /** In-flight marks older than this are stale (lib/engines/scan/scan_service.ts inflightTtlMs). */
  inflightTtlMs: number;
  /** Each service's account store (createServer's; lib/app/server.ts accountStoreOf). */
  accounts: Record<string, AccountStore>;
}

/** Deletes what has expired in every store; returns the counts. */
export async function cleanUp(stores: Store[], options: CleanUpOptions): Promise<CleanUpReport> {
  const report: CleanUpReport = {};
  for (const store of stores) {
    const history = await store.history.purge({
      before: options.now - (options.historyRetentionMs ?? 90 * 24 * 3600_000),
      maxPerTarget: options.historyMaxScans ?? 1000,
    });
    const scans = await store.purgeExpired(options.now, {
      recordsBefore: options.now - options.retentionMs,
      inflightTtlMs: options.inflightTtlMs,
      windowMs: WINDOW_MS,
    });
    const accountStore = options.accounts[store.service];
    if (!accountStore) throw new Error(`cleanUp: no account store for ${store.service}`);
    const accounts = await accountStore.purgeExpired(options.now, AUTH_ATTEMPTS.windowMs);
    report[store.service] = { ...scans, ...history, ...accounts };
  }
  return report;
}
