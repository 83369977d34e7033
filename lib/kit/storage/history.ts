/**
 * Every scan kept: the history of each target, each scan's own permanent copy, and the status of
 * scans in progress. Written by lib/kit/storage/store.ts (Store.#writeAdmission and Store.finishScan,
 * in the same atomic commits as the in-flight mark and the record), read here. KV key layout
 * (every key starts with the service name, like the rest of lib/kit/storage/store.ts):
 *
 *   [svc, "history", domain, ms, id]  -> HistoryEntry  one line per kept scan of a domain, in
 *                                                       time order (ms = scannedAt); small, so a
 *                                                       list of 1,000 is one cheap range read
 *   [svc, "history_body", id]         -> HistoryBody   the scan's record: gzip-compressed JSON in
 *                                                       the value, or the id of the record's parts
 *                                                       ([svc, "record_parts", domain, partsId, i],
 *                                                       lib/kit/storage/store.ts), kept while this is
 *   [svc, "scan_status", id]          -> ScanStatus    a queued or running scan (set at admission,
 *                                                       its step updated by the worker, deleted in
 *                                                       the commit that stores its record; expires
 *                                                       after a day)
 *
 * The id of a scan is its job id (crypto.randomUUID(): random, not a sequence). For the schema
 * service the domain is the record key and each entry names its page (`url`): the history of a
 * page is the entries of its domain with that url.
 *
 * Retention (the hourly clean-up, lib/kit/storage/cleanup.ts -> {@link History.purge}): entries older
 * than the retention, and past the newest `maxPerTarget` of a target, are deleted with their body
 * and parts, except the scan the domain's latest record is (its link keeps working as long as the
 * record is served).
 */
import { parseStoredRecord } from "../limits/record_budget.ts";
import { gunzipSync } from "node:zlib";
import type { BaseRecord } from "./store_types.ts";

/** One kept scan of a domain, as listed. */
export interface HistoryEntry {
  /** The scan's id (its job id). */
  id: string;
  scannedAt: string;
  status: "ok" | "failed";
  /** The score out of 100 (null for a failed scan or a service without one). */
  score: number | null;
  grade: string | null;
  /** The page scanned (schema service). */
  url?: string;
  /** Each pillar's score (visibility). */
  pillars?: { id: string; score: number }[];
  /** Open issues: signals that fail or warn (visibility), errors and warnings (schema). */
  issues?: number;
  /** The id of the record's parts, when the record is stored in parts. */
  partsId?: string;
  /** Why a failed scan failed. */
  failure?: string;
}

/** A kept scan's record. */
export interface HistoryBody {
  domain: string;
  scannedAt: string;
  /** The record's JSON, gzip-compressed (records small enough for one value). */
  gz?: Uint8Array;
  /** Where the record's compressed JSON is otherwise. */
  parts?: { id: string; count: number; bytes: number };
}

/** A scan that has not finished. */
export interface ScanStatus {
  id: string;
  domain: string;
  state: "queued" | "running";
  /** What the worker is doing now, in words (null while queued). */
  step: string | null;
  /** The same step's typed id (lib/service.ts ScanStep; absent on statuses written before it). */
  stepId?: string | null;
  queuedAt: number;
  startedAt: number | null;
}

/** How long a scan's status is kept if its record never comes (a lost job). */
export const STATUS_TTL_MS = 24 * 3600_000;

/** The history keys of one service. */
export function historyKeys(service: string) {
  return {
    entry: (domain: string, ms: number, id: string): Deno.KvKey => [
      service,
      "history",
      domain,
      ms,
      id,
    ],
    domain: (domain: string): Deno.KvKey => [service, "history", domain],
    all: (): Deno.KvKey => [service, "history"],
    body: (id: string): Deno.KvKey => [service, "history_body", id],
    status: (id: string): Deno.KvKey => [service, "scan_status", id],
    parts: (domain: string, partsId: string): Deno.KvKey => [
      service,
      "record_parts",
      domain,
      partsId,
    ],
    records: (): Deno.KvKey => [service, "records"],
  };
}

/** The line of the history a record gives. */
export function summarise(
  record: BaseRecord,
  id: string,
  partsId?: string,
  failure?: string | null,
): HistoryEntry {
  const r = record as BaseRecord & { url?: string };
  const result = record.result as
    | {
      score?: number;
      grade?: string;
      pillars?: { id: string; score: number; signals: { status: string }[] }[];
      summary?: { errors: number; warnings: number };
    }
    | null;
  const entry: HistoryEntry = {
    id,
    scannedAt: record.scannedAt,
    status: record.status,
    score: typeof result?.score === "number" ? result.score : null,
    grade: typeof result?.grade === "string" ? result.grade : null,
  };
  if (typeof r.url === "string") entry.url = r.url;
  if (result?.pillars) {
    entry.pillars = result.pillars.map((p) => ({ id: p.id, score: p.score }));
    entry.issues = result.pillars.reduce(
      (n, p) => n + p.signals.filter((s) => s.status === "fail" || s.status === "warn").length,
      0,
    );
  } else if (result?.summary) entry.issues = result.summary.errors + result.summary.warnings;
  if (partsId) entry.partsId = partsId;
  if (failure) entry.failure = failure.slice(0, 500);
  return entry;
}

/** Which target an entry is the scan of: its page for the schema service, else its domain. */
export function targetOf(domain: string, entry: { url?: string }): string {
  return entry.url ?? domain;
}

/** What {@link History.purge} deleted. */
export interface HistoryPurgeReport {
  historyEntries: number;
  historyParts: number;
}

/** Read access to one service's history. */
export class History {
  readonly keys: ReturnType<typeof historyKeys>;
  constructor(readonly kv: Deno.Kv, readonly service: string) {
    this.keys = historyKeys(service);
  }

  /** The kept scans of a domain, newest first (at most `limit`). */
  async list(domain: string, limit = 10_000): Promise<HistoryEntry[]> {
    const out: HistoryEntry[] = [];
    for await (
      const e of this.kv.list<HistoryEntry>({ prefix: this.keys.domain(domain) }, {
        reverse: true,
        limit,
        batchSize: Math.min(limit, 500),
      })
    ) out.push(e.value);
    return out;
  }

  /**
   * The scan before `id` of the same target (the same page for the schema service), or null.
   * Reads back from the scan itself, so it costs as many entries as lie between the two.
   */
  async previous(domain: string, entry: HistoryEntry): Promise<HistoryEntry | null> {
    const target = targetOf(domain, entry);
    for await (
      const e of this.kv.list<HistoryEntry>({
        start: this.keys.domain(domain),
        end: this.keys.entry(domain, Date.parse(entry.scannedAt), entry.id),
      }, { reverse: true, batchSize: 20 })
    ) if (targetOf(domain, e.value) === target) return e.value;
    return null;
  }

  /** One kept scan's line of the history, or null. */
  async entry(domain: string, id: string, scannedAt: string): Promise<HistoryEntry | null> {
    return (await this.kv.get<HistoryEntry>(this.keys.entry(domain, Date.parse(scannedAt), id)))
      .value;
  }

  /** A kept scan's domain and line by id, without reading its record; null when there is none. */
  async lookup(id: string): Promise<{ domain: string; entry: HistoryEntry } | null> {
    const body = (await this.kv.get<HistoryBody>(this.keys.body(id))).value;
    if (!body) return null;
    const entry = await this.entry(body.domain, id, body.scannedAt);
    return entry ? { domain: body.domain, entry } : null;
  }

  /** A kept scan by id: its domain, its line and its record; null when there is none. */
  async get(
    id: string,
  ): Promise<{ domain: string; entry: HistoryEntry; record: BaseRecord; json: Uint8Array } | null> {
    const body = (await this.kv.get<HistoryBody>(this.keys.body(id))).value;
    if (!body) return null;
    const entry = await this.entry(body.domain, id, body.scannedAt);
    if (!entry) return null;
    let zipped: Uint8Array | null = body.gz ?? null;
    if (!zipped && body.parts) {
      const joined = new Uint8Array(body.parts.bytes);
      let offset = 0;
      let count = 0;
      for await (
        const e of this.kv.list<Uint8Array>({ prefix: this.keys.parts(body.domain, body.parts.id) })
      ) {
        joined.set(e.value, offset);
        offset += e.value.byteLength;
        count++;
      }
      if (count !== body.parts.count) return null;
      zipped = joined;
    }
    if (!zipped) return null;
    // A record over the budget (kept before it existed) is read as its summary.
    const parsed = await parseStoredRecord<BaseRecord>(
      new Uint8Array(gunzipSync(zipped)),
      `history/${id}`,
    );
    return { domain: body.domain, entry, record: parsed.record, json: parsed.json };
  }

  /** A scan that is queued or running, or null. */
  async status(id: string): Promise<ScanStatus | null> {
    return (await this.kv.get<ScanStatus>(this.keys.status(id))).value;
  }

  /** True when a kept scan of `domain` made at `scannedAt` refers to the parts `partsId`. */
  async keepsParts(domain: string, scannedAt: string, partsId: string): Promise<boolean> {
    const prefix = [...this.keys.domain(domain), Date.parse(scannedAt)];
    for await (const e of this.kv.list<HistoryEntry>({ prefix })) {
      if (e.value.partsId === partsId) return true;
    }
    return false;
  }

  /** The ids of the parts kept scans refer to (the clean-up keeps those parts). */
  async referencedParts(): Promise<Set<string>> {
    const out = new Set<string>();
    for await (const e of this.kv.list<HistoryEntry>({ prefix: this.keys.all() })) {
      if (e.value.partsId) out.add(`${String(e.key[2])}\n${e.value.partsId}`);
    }
    return out;
  }

  /**
   * Deletes the kept scans scanned before `before`, and those past the newest `maxPerTarget` of
   * their target, with their bodies and parts; never the scan a domain's latest record is.
   */
  async purge(options: { before: number; maxPerTarget: number }): Promise<HistoryPurgeReport> {
    const out: HistoryPurgeReport = { historyEntries: 0, historyParts: 0 };
    const latest = new Map<string, string>();
    for await (
      const e of this.kv.list<{ jobId?: string }>({ prefix: this.keys.records() })
    ) if (e.value?.jobId) latest.set(String(e.key[2]), e.value.jobId);
    let domain: string | null = null;
    let entries: Deno.KvEntry<HistoryEntry>[] = [];
    const flush = async () => {
      if (domain === null) return;
      const kept = new Map<string, number>();
      // Newest first: the first maxPerTarget of each target are within the bound.
      for (const e of entries.reverse()) {
        const target = targetOf(domain, e.value);
        const rank = (kept.get(target) ?? 0) + 1;
        kept.set(target, rank);
        const old = Date.parse(e.value.scannedAt) < options.before || rank > options.maxPerTarget;
        if (!old || latest.get(domain) === e.value.id) continue;
        const ok = await this.kv.atomic().check(e).delete(e.key).delete(this.keys.body(e.value.id))
          .commit();
        if (!ok.ok) continue;
        out.historyEntries++;
        if (e.value.partsId) {
          for await (
            const p of this.kv.list({ prefix: this.keys.parts(domain, e.value.partsId) })
          ) {
            await this.kv.delete(p.key);
            out.historyParts++;
          }
        }
      }
    };
    for await (const e of this.kv.list<HistoryEntry>({ prefix: this.keys.all() })) {
      const d = String(e.key[2]);
      if (d !== domain) {
        await flush();
        domain = d;
        entries = [];
      }
      entries.push(e);
    }
    await flush();
    return out;
  }
}
