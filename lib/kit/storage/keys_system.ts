/**
 * The KV keys of the store's own bookkeeping, outside every service's prefix (the services' data
 * is laid out in store.ts and store_accounts.ts, shared secrets in store_secrets.ts, the polled
 * job queue in job_queue.ts):
 *
 *   ["health"]                     -> (never written)  read to check that KV answers (/healthz,
 *                                                      the KV limiter's health)
 *   ["health", "write_probe"]      -> { at, pad }      the write probe, as large as a record
 *                                                      (lib/kit/health.ts)
 *   ["kv_opened_by"]               -> { pid, at }      the last process that opened a local KV file
 *                                                      (lib/kit/storage/kv_open.ts)
 */

/** Read (never written) to check that KV answers. */
export const HEALTH_READ_KEY: Deno.KvKey = ["health"];

/** The write probe's key. */
export const WRITE_PROBE_KEY: Deno.KvKey = ["health", "write_probe"];

/** Written when a local KV file is opened: which process opened it, and when. */
export const KV_OPENED_BY_KEY: Deno.KvKey = ["kv_opened_by"];
