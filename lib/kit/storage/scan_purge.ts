/**
 * The scans store's part of the periodic clean-up (lib/kit/storage/cleanup.ts): records scanned before
 * the retention, their parts (unless the history keeps that scan), parts no head refers to, old
 * lines of the recent-scans log, stale in-flight marks and empty rate-limit windows. The key
 * layout is at the top of lib/kit/storage/store.ts.
 */
import type { History } from "./history.ts";
import { deleteParts, ORPHAN_PARTS_MS } from "./large_records.ts";
import type { InflightMark, StoredScan } from "./store_types.ts";

/** How long a line of the recent-scans log is kept. */
export const LOG_TTL_MS = 7 * 24 * 3600_000;

/** What {@link purgeScans} deletes: records before, marks older than, windows of. */
export interface PurgeOptions {
  recordsBefore: number;
  inflightTtlMs: number;
  windowMs: number;
}

/** How many of each were deleted. */
export interface PurgeReport {
  records: number;
  scanLog: number;
  inflight: number;
  limitWindows: number;
}

/** Deletes what has outlived its use in one service's scans store; returns the counts. */
export async function purgeScans(
  kv: Deno.Kv,
  k: (...parts: Deno.KvKeyPart[]) => Deno.KvKey,
  history: History,
  now: number,
  options: PurgeOptions,
): Promise<PurgeReport> {
  const out = { records: 0, scanLog: 0, inflight: 0, limitWindows: 0 };
  const drop = async (e: Deno.KvEntry<unknown>) =>
    (await kv.atomic().check(e).delete(e.key).commit()).ok;
  const heads = new Map<string, string>();
  // Parts the history keeps (lib/kit/storage/history.ts) stay: they are the kept scans' records.
  const keptParts = await history.referencedParts();
  for await (const e of kv.list<StoredScan>({ prefix: k("records") })) {
    const at = Date.parse(e.value?.record?.scannedAt ?? "");
    if (Number.isFinite(at) && at < options.recordsBefore && await drop(e)) {
      out.records++;
      const domain = String(e.key[2]);
      if (e.value.parts && !keptParts.has(`${domain}\n${e.value.parts.id}`)) {
        await deleteParts(kv, k("record_parts", domain, e.value.parts.id));
      }
    } else if (e.value?.parts) heads.set(String(e.key[2]), e.value.parts.id);
  }
  // Parts no head refers to: left by a write that lost, or by a crash before the head's commit.
  const orphans = new Set<string>();
  for await (const e of kv.list({ prefix: k("record_parts") })) {
    const [domain, id] = [String(e.key[2]), String(e.key[3])];
    const written = parseInt(id.split("-")[0], 36);
    if (
      heads.get(domain) !== id && !keptParts.has(`${domain}\n${id}`) &&
      written < now - ORPHAN_PARTS_MS
    ) {
      orphans.add(`${domain}\n${id}`);
    }
  }
  for (const o of orphans) {
    const [domain, id] = o.split("\n");
    await deleteParts(kv, k("record_parts", domain, id));
  }
  for await (
    const e of kv.list({
      start: k("scans_by_time", 0),
      end: k("scans_by_time", now - LOG_TTL_MS),
    })
  ) if (await drop(e)) out.scanLog++;
  for await (const e of kv.list<InflightMark>({ prefix: k("inflight") })) {
    const alive = Math.max(e.value.since, e.value.renewedAt ?? 0);
    if (alive <= now - options.inflightTtlMs && await drop(e)) out.inflight++;
  }
  for await (const e of kv.list<number[]>({ prefix: k("limits") })) {
    if ((e.value ?? []).every((t) => t <= now - options.windowMs) && await drop(e)) {
      out.limitWindows++;
    }
  }
  return out;
}
