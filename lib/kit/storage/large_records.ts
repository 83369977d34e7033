/**
 * A record too large for one KV value, stored in parts: the record's JSON, gzip-compressed, cut
 * into parts of {@link RECORD_PART_BYTES} under `[svc, "record_parts", domain, id, i]` (the layout
 * is listed at the top of lib/kit/storage/store.ts, whose commits reference them). This module packs a
 * stored scan into its head and parts, writes parts ahead of the head's commit, and reads and
 * deletes a record's parts.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import type { RecordParts, StoredScan } from "./store_types.ts";

/**
 * A stored scan whose V8 serialisation may exceed this is stored in parts: Deno KV refuses values
 * over 64 KiB. The estimate is the JSON's length x 2 (a string with any character past Latin-1 is
 * serialised two bytes per character), so a record stored whole is always under 64 KiB.
 */
export const INLINE_MAX_CHARS = 30 * 1024;
/** Bytes of one part of a record stored in parts. */
export const RECORD_PART_BYTES = 60_000;
/**
 * Parts written in the record's own commit; more are written before it, in commits of this many
 * (Deno KV refuses a commit of more than 800 KiB).
 */
export const PARTS_PER_COMMIT = 11;
/** Records whose JSON is larger than this are not stored; a failed record says so instead. */
export const MAX_RECORD_JSON_BYTES = 64 * 1024 * 1024;
/** Parts no head refers to are deleted by the clean-up once this old (a write may be under way). */
export const ORPHAN_PARTS_MS = 3600_000;
const encoder = new TextEncoder();

/** Thrown when a record is too large to be stored at all ({@link MAX_RECORD_JSON_BYTES}). */
export class RecordTooLargeError extends Error {
  constructor(bytes: number) {
    super(
      `the report is too large to store (${Math.round(bytes / 1048576)} MiB of JSON, at most ${
        MAX_RECORD_JSON_BYTES / 1048576
      } MiB)`,
    );
    this.name = "RecordTooLargeError";
  }
}

/** A stored scan as it will be written: the head (the scan itself when small) and the gzip. */
export interface PackedRecord {
  /** What goes at the record's key: the scan, or a head naming its parts. */
  value: StoredScan;
  /** The record's JSON, gzip-compressed (the history keeps it for a record stored whole). */
  zipped: Uint8Array;
}

/**
 * Packs a stored scan: a record whose JSON (with the failure) exceeds {@link INLINE_MAX_CHARS}, or
 * whose gzip exceeds one part, gets a head naming its parts. Throws {@link RecordTooLargeError}
 * past {@link MAX_RECORD_JSON_BYTES}.
 */
export function packRecord(stored: StoredScan, finishedAt: number): PackedRecord {
  const { parts: _drop, ...plain } = stored;
  // The record is what grows; the rest of a stored scan is a few short fields.
  const json = JSON.stringify(plain.record);
  const bytes = encoder.encode(json);
  if (bytes.byteLength > MAX_RECORD_JSON_BYTES) throw new RecordTooLargeError(bytes.byteLength);
  // The history keeps its own compressed copy of a record stored whole (lib/kit/storage/history.ts),
  // and refers to the parts of one stored in parts; a copy too large for one value means parts.
  const zipped = gzipSync(bytes);
  if (
    json.length + (plain.failure?.length ?? 0) <= INLINE_MAX_CHARS &&
    zipped.byteLength <= RECORD_PART_BYTES
  ) {
    return { value: plain, zipped };
  }
  const id = `${finishedAt.toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  const count = Math.ceil(zipped.byteLength / RECORD_PART_BYTES);
  return {
    zipped,
    value: {
      record: {
        domain: stored.record.domain,
        status: stored.record.status,
        scannedAt: stored.record.scannedAt,
        result: null,
        // The schema service's servesCached reads the page's URL from a stored record.
        ...("url" in stored.record ? { url: (stored.record as { url?: unknown }).url } : {}),
      },
      failure: stored.failure,
      credential: stored.credential,
      durationMs: stored.durationMs,
      jobId: stored.jobId,
      parts: { id, count, bytes: zipped.byteLength, jsonBytes: bytes.byteLength },
    },
  };
}

/** The parts of a packed record's gzip, {@link RECORD_PART_BYTES} each. */
export function splitParts(zipped: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < zipped.byteLength; i += RECORD_PART_BYTES) {
    parts.push(zipped.subarray(i, i + RECORD_PART_BYTES));
  }
  return parts;
}

/**
 * Writes the parts of a record with more than {@link PARTS_PER_COMMIT} of them ahead of the head's
 * commit, in commits of that many (unreferenced until the head is written); returns whether it
 * did. Fewer parts go in the head's own commit.
 */
export async function writePartsAhead(
  kv: Deno.Kv,
  keyOf: (i: number) => Deno.KvKey,
  parts: Uint8Array[],
): Promise<boolean> {
  if (parts.length <= PARTS_PER_COMMIT) return false;
  for (let i = 0; i < parts.length; i += PARTS_PER_COMMIT) {
    const op = kv.atomic();
    parts.slice(i, i + PARTS_PER_COMMIT).forEach((p, j) => op.set(keyOf(i + j), p));
    await op.commit();
  }
  return true;
}

/** A record's parts (under `prefix`), joined and decompressed; null when some are missing. */
export async function readParts(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  parts: RecordParts,
): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  for await (const e of kv.list<Uint8Array>({ prefix })) chunks.push(e.value);
  if (chunks.length !== parts.count) return null;
  const joined = new Uint8Array(parts.bytes);
  let offset = 0;
  for (const c of chunks) {
    joined.set(c, offset);
    offset += c.byteLength;
  }
  return new Uint8Array(gunzipSync(joined));
}

/** Deletes every part under `prefix` (one stored-in-parts record); returns how many. */
export async function deleteParts(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  let n = 0;
  let op = kv.atomic();
  let batch = 0;
  for await (const e of kv.list({ prefix })) {
    op.delete(e.key);
    n++;
    if (++batch === 100) {
      await op.commit();
      op = kv.atomic();
      batch = 0;
    }
  }
  if (batch) await op.commit();
  return n;
}
