/**
 * The largest record a scan may produce: {@link MAX_RECORD_BYTES} of JSON. Enforced where a
 * record is built (each service's run, lib/service.ts, so inside the scan's thread): a larger
 * one is summarised, and says so in an additive `budget` field. Every view of a record (report
 * page, kept scan, export, comparison, MCP) then works on a bounded input; a page of 0.3 MB once
 * gave a 28 MB record that took the server down when viewed (issue 26).
 *
 * Summarising is generic and linear: the `result` is copied with long texts cut and long lists
 * shortened, a little more each pass, until it fits; if nothing fits, the result is dropped and
 * the record is a failed one that says why. Records stored before the budget existed are
 * summarised the same way when they are read (lib/kit/storage/store.ts), one at a time.
 *
 * @example
 * ```ts
 * const { record } = boundOutcome(await scanPage(url, deps));
 * record.budget?.note; // set only when the record had to be summarised
 * ```
 */
import { z } from "zod";

/** The largest record's JSON, in UTF-8 bytes (docs/security.md states it). */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** What a summarised record says about it (absent on a record that fit). */
export const RecordBudgetSchema = z.object({
  /** The record's budget, in bytes of JSON. */
  limitBytes: z.number().int().positive(),
  /** The size of the record before it was summarised. */
  bytes: z.number().int().positive(),
  /** What was cut, in words. */
  note: z.string(),
});
export type RecordBudget = z.infer<typeof RecordBudgetSchema>;

/** Passes of summarising: texts cut to `text` characters, lists to their first `list` items. */
const PASSES = [
  { text: 20_000, list: 1000 },
  { text: 5_000, list: 200 },
  { text: 1_000, list: 50 },
  { text: 200, list: 20 },
] as const;

/** Nesting kept when a record is summarised (deeper values become null). */
const MAX_DEPTH = 64;

const encoder = new TextEncoder();

/** The UTF-8 size of a value's JSON. */
export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).byteLength;
}

/** A record shaped like every service's: the fields this module reads and keeps. */
interface AnyRecord {
  status: string;
  result: unknown;
  budget?: RecordBudget;
}

/**
 * The record itself when its JSON fits in `maxBytes`, else a summary of it (see the module
 * comment). `bytes` is the record's size when the caller already knows it.
 */
export function withinBudget<R extends AnyRecord>(
  record: R,
  maxBytes = MAX_RECORD_BYTES,
  bytes = jsonBytes(record),
): R & { budget?: RecordBudget } {
  if (bytes <= maxBytes) return record;
  const mb = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
  for (const pass of PASSES) {
    const budget: RecordBudget = {
      limitBytes: maxBytes,
      bytes,
      note: `This report was ${mb(bytes)}, over the ${mb(maxBytes)} a report may be, so it is ` +
        `summarised: texts longer than ${pass.text} characters are cut and lists longer than ` +
        `${pass.list} items keep their first ${pass.list}. Counts in its summary are the page's.`,
    };
    const summary = { ...record, result: shrink(record.result, pass, 0), budget };
    if (jsonBytes(summary) <= maxBytes) return summary;
  }
  // Nothing fits: a failed record that says why, with only the record's short fields.
  const short: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    short[k] = v === null || typeof v !== "object" ? cut(v, 1000) : null;
  }
  return {
    ...short,
    status: "failed",
    result: null,
    budget: {
      limitBytes: maxBytes,
      bytes,
      note: `This report was ${mb(bytes)}, over the ${mb(maxBytes)} a report may be, and no ` +
        "summary of it fits: only that it was too large is kept.",
    },
  } as unknown as R;
}

/**
 * A stored record's JSON over the budget, summarised: parsed, cut down by {@link withinBudget}
 * and written out again. Synchronous and as large as the record: run it in a worker
 * (its job, {@link runJob}) where there is one.
 */
export function boundStoredJson(json: string): string {
  const record = JSON.parse(json) as AnyRecord;
  return JSON.stringify(withinBudget(record, MAX_RECORD_BYTES, encoder.encode(json).byteLength));
}

/**
 * A stored record over its budget, to summarise in a worker (lib/kit/isolate/protocol.ts
 * ThreadJob). The record's JSON is text: Deno 2.9.6's worker_threads take about a second to pass
 * 1 MB as a Uint8Array, and 40 ms as a string.
 */
export interface BoundRecordJob {
  kind: "bound-record";
  json: string;
}

/** The summary's JSON. */
export interface BoundRecordAnswer {
  json: string;
}

/** The thread's entry point for "bound-record" jobs (lib/kit/isolate/protocol.ts ThreadJobModule). */
export function runJob(job: BoundRecordJob): BoundRecordAnswer {
  return { json: boundStoredJson(job.json) };
}

/** Where summaries of oversized stored records are made (a worker), or null: here. */
let summariser: ((json: string) => Promise<string>) | null = null;
/** Summaries made here are made one at a time (each holds a large parse). */
let summarising: Promise<unknown> = Promise.resolve();
/** The last few summaries, by the stored record they summarise (a record is read again and again). */
const summaries = new Map<string, string>();
const SUMMARIES_KEPT = 8;
const decoder = new TextDecoder();

/**
 * Sets where oversized stored records are summarised (createServer: the workers), or null
 * for this isolate.
 */
export function setStoredRecordSummariser(
  run: ((json: string) => Promise<string>) | null,
): void {
  summariser = run;
}

/**
 * A stored record's JSON parsed for a view. One over the budget (stored before the budget
 * existed, or planted) is read as its summary (see {@link storedSummary}): no view, export or
 * comparison ever works on more than {@link MAX_RECORD_BYTES}.
 */
export async function parseStoredRecord<R extends AnyRecord>(
  json: Uint8Array,
  key: string,
): Promise<{ record: R; json: Uint8Array }> {
  if (json.byteLength > MAX_RECORD_BYTES) return await storedSummary<R>(key, () => json);
  return { record: JSON.parse(decoder.decode(json)) as R, json };
}

/** Summaries being made, by key: concurrent reads of one record share one. */
const making = new Map<string, Promise<string>>();

/**
 * The summary of a stored record over the budget, by `key` (the record's parts): kept once made
 * (the last {@link SUMMARIES_KEPT}), made once for concurrent readers, one record at a time, in a
 * worker when there is one. `read` gives the record's JSON (the caller reads and
 * decompresses it only when no summary is kept); null when it is gone.
 */
export async function storedSummary<R extends AnyRecord>(
  key: string,
  read: () => Uint8Array | null | Promise<Uint8Array | null>,
): Promise<{ record: R; json: Uint8Array }> {
  let summary = summaries.get(key);
  if (!summary) {
    let pending = making.get(key);
    if (!pending) {
      pending = summarising.then(async () => {
        const json = await read();
        if (!json) throw new Error("the record changed while it was read");
        // Sent as a string: Deno's worker_threads take about a second to pass 1 MB as bytes.
        const text = decoder.decode(json);
        return summariser ? await summariser(text) : boundStoredJson(text);
      });
      summarising = pending.catch(() => {});
      making.set(key, pending);
      pending.then((made) => {
        if (summaries.size >= SUMMARIES_KEPT) summaries.delete(summaries.keys().next().value!);
        summaries.set(key, made);
      }, () => {}).finally(() => making.delete(key));
    }
    summary = await pending;
  }
  return { record: JSON.parse(summary) as R, json: encoder.encode(summary) };
}

/** {@link withinBudget} for a scan's outcome (its record bounded, its failure kept). */
export function boundOutcome<O extends { record: AnyRecord }>(outcome: O): O {
  const record = withinBudget(outcome.record);
  return record === outcome.record ? outcome : { ...outcome, record };
}

function cut(v: unknown, max: number): unknown {
  return typeof v === "string" && v.length > max ? `${v.slice(0, max)}… [cut]` : v;
}

/** A copy of `v` with texts and lists cut as `pass` says (linear in `v`). */
function shrink(v: unknown, pass: { text: number; list: number }, depth: number): unknown {
  if (typeof v === "string") return cut(v, pass.text);
  if (v === null || typeof v !== "object") return v;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(v)) return v.slice(0, pass.list).map((x) => shrink(x, pass, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = shrink(x, pass, depth + 1);
  return out;
}
