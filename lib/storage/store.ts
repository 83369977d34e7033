/**
 * The only module that knows the KV key layout. Every key starts with the service name, so both
 * services can share one store without touching each other's data:
 *
 *   [svc, "records", domain]              -> StoredScan      the latest record of a domain (or
 *                                                            its head, when stored in parts)
 *   [svc, "record_parts", domain, id, i]  -> Uint8Array      part i of a large record (gzip)
 *   [svc, "inflight", domain]             -> InflightMark    a scan is queued or running (expires
 *                                                            unless renewed by its worker)
 *   [svc, "attempts", jobId]              -> number          starts of a job (expire after a day)
 *   [svc, "limits", pool, id]             -> number[]        admission times in the window (log)
 *   [svc, "keys", sha256(key)]            -> ApiKeyEntry     a client API key, by its hash
 *   [svc, "keys_by_id", keyId]            -> sha256(key)
 *   [svc, "keys_by_account", acct, keyId] -> sha256(key)
 *   [svc, "scans_by_time", ms, domain]    -> ScanLogEntry    recent scans (expire after 7 days)
 *   [svc, "history" | "history_body" | "scan_status", ...]  every kept scan and the status of scans
 *                                                            in progress: see lib/storage/history.ts
 *                                                            (written here, in the same commits)
 *
 * Accounts, sessions and sign-in attempt windows have their own layout in lib/storage/store_accounts.ts.
 *
 * The rate-limit windows live here by default; with a shared limiter (Redis, lib/limits/limiter_redis.ts)
 * they live there instead, and KV keeps the in-flight marks and the queue.
 *
 * Unique things are created with `versionstamp: null` checks; updates check the versionstamp they
 * read and retry on conflict. Secrets are stored only as SHA-256 hashes.
 */
import type { BaseRecord } from "../service.ts";
import { backoff, KvLimiter, type Limiter, type PoolUsage } from "../limits/limiter.ts";
import { type JobQueue, KvNativeQueue } from "./job_queue.ts";
import { FreshReads } from "./fresh_reads.ts";
import { type Admission, admissionFor, type AdmissionStrategy } from "../limits/admission.ts";
import type { PoolSpec } from "../limits/limiter.ts";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  History,
  type HistoryBody,
  historyKeys,
  type ScanStatus,
  STATUS_TTL_MS,
  summarise,
} from "./history.ts";

/** How the caller that started a scan authenticated. */
export type CredentialKind = "challenge" | "pipeline" | "key" | "mcp";

/** A stored scan: the public record and what only operators see. */
export interface StoredScan {
  record: BaseRecord;
  failure: string | null;
  credential: CredentialKind;
  durationMs: number;
  jobId: string;
  /**
   * Set on the head of a record stored in parts (see {@link Store.finishScan}); getScan returns
   * the whole record, never a head.
   */
  parts?: RecordParts;
}

/** Where a large record's gzip-compressed JSON is: `count` parts under one id. */
export interface RecordParts {
  id: string;
  count: number;
  /** Compressed bytes in all. */
  bytes: number;
  /** The JSON's length in UTF-8 bytes. */
  jsonBytes: number;
}

/** Marks a domain whose scan is queued or running. */
export interface InflightMark {
  jobId: string;
  since: number;
  credential: CredentialKind;
  /** When the worker holding the job last renewed the mark (absent: never). */
  renewedAt?: number;
}

/** A client API key (the key itself is never stored). */
export interface ApiKeyEntry {
  id: string;
  hash: string;
  /** The first characters of the key, to recognise it in a list (e.g. "uvk_3f9a2c"). */
  prefix: string;
  name: string;
  accountId: string | null;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** A queued scan. `service` lets any process of a shared store run it. */
export interface ScanJob {
  kind: "scan";
  service: string;
  jobId: string;
  domain: string;
  /** Where the scan starts (from normaliseTarget). */
  url: string;
  /** The page to scan when the service scans one page (Target.pageUrl); absent in older jobs. */
  pageUrl?: string;
  host: string;
  credential: CredentialKind;
  enqueuedAt: number;
  /**
   * Whom the scan is for, for fair scheduling (lib/scan/worker.ts): "key:<key id>", else the
   * credential kind and the caller's address. Absent in older jobs (the credential kind then).
   */
  caller?: string;
}

export type { PoolSpec };

/** The outcome of {@link Store.admitScan} (lib/limits/admission.ts). */
export type { Admission };

/** A line of the recent-scans log. */
export interface ScanLogEntry {
  domain: string;
  status: "ok" | "failed";
  score: number | null;
  credential: CredentialKind;
  finishedAt: number;
}

const MAX_ATTEMPTS = 1000;
const LOG_TTL_MS = 7 * 24 * 3600_000;
/**
 * A stored scan whose V8 serialisation may exceed this is stored in parts: Deno KV refuses values
 * over 64 KiB. The estimate is the JSON's length x 2 (a string with any character past Latin-1 is
 * serialised two bytes per character), so a record stored whole is always under 64 KiB.
 */
const INLINE_MAX_CHARS = 30 * 1024;
/** Bytes of one part of a record stored in parts. */
export const RECORD_PART_BYTES = 60_000;
/**
 * Parts written in the record's own commit; more are written before it, in commits of this many
 * (Deno KV refuses a commit of more than 800 KiB).
 */
const PARTS_PER_COMMIT = 11;
/** Records whose JSON is larger than this are not stored; a failed record says so instead. */
export const MAX_RECORD_JSON_BYTES = 64 * 1024 * 1024;
/** Parts no head refers to are deleted by the clean-up once this old (a write may be under way). */
const ORPHAN_PARTS_MS = 3600_000;
/** How long a job's start count is kept. */
const ATTEMPTS_TTL_MS = 24 * 3600_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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

/** Options of a {@link Store}. */
export interface StoreOptions {
  /** Where the rate-limit pools live; Deno KV (this store's own) when absent. */
  limiter?: Limiter;
  /** How admitted jobs reach the worker; Deno KV's own queue when absent. */
  queue?: JobQueue;
  /**
   * True when this process is the only writer of this KV (a local file under the one-process
   * lock, or memory) and the pools live in KV: scan admissions are then decided from an in-memory
   * copy of the pools (lib/limits/limiter_local.ts) and written through in one commit, with no read.
   */
  exclusive?: boolean;
}

/** Typed access to one service's data in a Deno KV store. */
export class Store {
  /** The rate-limit engine: KV window logs by default, or a shared one (Redis). */
  readonly limiter: Limiter;
  /** The job transport (lib/storage/job_queue.ts). */
  readonly queue: JobQueue;
  #keyReads = new FreshReads<ApiKeyEntry | null>();
  /** How scans are admitted: KV, in memory (StoreOptions.exclusive) or a shared limiter. */
  readonly #admission: AdmissionStrategy<ScanJob>;

  constructor(readonly kv: Deno.Kv, readonly service: string, options: StoreOptions = {}) {
    this.queue = options.queue ?? new KvNativeQueue(kv);
    this.limiter = options.limiter ?? new KvLimiter(
      kv,
      (pool, id) => [service, "limits", pool, id],
      (pool) => pool ? [service, "limits", pool] : [service, "limits"],
    );
    this.#admission = admissionFor<ScanJob>(
      {
        kv,
        inflightKey: (domain) => this.#k("inflight", domain),
        poolKey: (p) => this.#k("limits", p.pool, p.id),
        poolPrefix: this.#k("limits"),
        write: (op, job, now, markTtlMs, pools, logs) =>
          this.#writeAdmission(op, job, now, markTtlMs, pools, logs),
      },
      this.limiter,
      options.exclusive,
    );
  }

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  /** Every kept scan of this service (lib/storage/history.ts). */
  get history(): History {
    return this.#history ??= new History(this.kv, this.service);
  }
  #history: History | undefined;

  /**
   * Records what the worker is doing for a scan (its status URL shows it). A scan already stored
   * is left alone: its status was deleted with the record's commit.
   */
  async setScanStep(job: ScanJob, step: string, now: number): Promise<void> {
    const key = historyKeys(this.service).status(job.jobId);
    const current = await this.kv.get<ScanStatus>(key);
    if (!current.value) return;
    const next: ScanStatus = {
      ...current.value,
      state: "running",
      step,
      startedAt: current.value.startedAt ?? now,
    };
    await this.kv.atomic().check(current).set(key, next, { expireIn: STATUS_TTL_MS }).commit();
  }

  /**
   * The latest stored scan of a domain, or null. A record stored in parts is read whole: its
   * parts are listed and decompressed (if a newer record replaced it meanwhile, the read starts
   * again with the newer one).
   */
  async getScan(domain: string): Promise<StoredScan | null> {
    return (await this.getScanWithJson(domain))?.stored ?? null;
  }

  /**
   * {@link getScan}, and for a record stored in parts also the record's JSON as stored (UTF-8,
   * exactly `JSON.stringify(stored.record)`), so the report can be served without serialising
   * the record again.
   */
  async getScanWithJson(
    domain: string,
  ): Promise<{ stored: StoredScan; recordJson: Uint8Array | null } | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const head = (await this.kv.get<StoredScan>(this.#k("records", domain))).value;
      if (!head) return null;
      if (!head.parts) return { stored: head, recordJson: null };
      const json = await this.#readParts(domain, head.parts);
      if (!json) continue;
      const { parts: _parts, ...rest } = head;
      return { stored: { ...rest, record: JSON.parse(decoder.decode(json)) }, recordJson: json };
    }
    throw new Error(`getScan: the record of ${domain} kept changing while it was read`);
  }

  /** A record's parts, joined and decompressed; null when some are missing (replaced meanwhile). */
  async #readParts(domain: string, parts: RecordParts): Promise<Uint8Array | null> {
    const chunks: Uint8Array[] = [];
    for await (
      const e of this.kv.list<Uint8Array>({ prefix: this.#k("record_parts", domain, parts.id) })
    ) chunks.push(e.value);
    if (chunks.length !== parts.count) return null;
    const joined = new Uint8Array(parts.bytes);
    let offset = 0;
    for (const c of chunks) {
      joined.set(c, offset);
      offset += c.byteLength;
    }
    return new Uint8Array(gunzipSync(joined));
  }

  /**
   * Counts a start of `job` and returns how many there have been, this one included. Counted
   * before the scan runs, so a start that takes its process down is counted too.
   */
  async countAttempt(job: ScanJob): Promise<number> {
    const key = this.#k("attempts", job.jobId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.kv.get<number>(key);
      const n = (current.value ?? 0) + 1;
      const ok = await this.kv.atomic().check(current).set(key, n, { expireIn: ATTEMPTS_TTL_MS })
        .commit();
      if (ok.ok) return n;
      await backoff(attempt);
    }
    throw new Error("countAttempt: too much contention");
  }

  /**
   * Renews the in-flight mark of a job this process holds (waiting for a slot or running), so the
   * mark lives as long as the job, however long the wait: it expires `ttlMs` after the last
   * renewal. A mark that is not this job's is left alone.
   */
  async renewInflight(job: ScanJob, ttlMs: number, now: number): Promise<boolean> {
    const key = this.#k("inflight", job.domain);
    const mark = await this.kv.get<InflightMark>(key);
    if (mark.value?.jobId !== job.jobId) return false;
    const renewed: InflightMark = { ...mark.value, renewedAt: now };
    return (await this.kv.atomic().check(mark).set(key, renewed, { expireIn: ttlMs }).commit()).ok;
  }

  /** The in-flight mark of a domain, or null. */
  async getInflight(domain: string): Promise<InflightMark | null> {
    return (await this.kv.get<InflightMark>(this.#k("inflight", domain))).value;
  }

  /**
   * Admits a new scan atomically. With the KV limiter (the default), in ONE commit: checks that the
   * domain is not in flight and that every pool has room, appends the admission to each pool's
   * window, marks the domain in flight and enqueues the job. Concurrent callers conflict on the
   * versionstamps and retry, so no pool ever admits one more than its limit.
   *
   * With a shared limiter (Redis): the pools are checked and counted there atomically, then the
   * in-flight mark and the job are committed here, and an admission that loses the domain to
   * another caller is refunded. The strategies are in lib/limits/admission.ts.
   */
  async admitScan(
    job: ScanJob,
    pools: PoolSpec[],
    now: number,
    inflightTtlMs: number,
  ): Promise<Admission> {
    return await this.#admission.admit(job, pools, now, inflightTtlMs);
  }

  /**
   * Adds an admission's writes to `op`: each pool's new log (when the pools live in this KV), the
   * domain's in-flight mark, and the job.
   */
  #writeAdmission(
    op: Deno.AtomicOperation,
    job: ScanJob,
    now: number,
    markTtlMs: number,
    pools: PoolSpec[] = [],
    logs: number[][] = [],
  ): void {
    pools.forEach((p, i) =>
      op.set(this.#k("limits", p.pool, p.id), logs[i], { expireIn: p.windowMs })
    );
    const mark: InflightMark = { jobId: job.jobId, since: now, credential: job.credential };
    op.set(this.#k("inflight", job.domain), mark, { expireIn: markTtlMs });
    const status: ScanStatus = {
      id: job.jobId,
      domain: job.domain,
      state: "queued",
      step: null,
      queuedAt: now,
      startedAt: null,
    };
    op.set(historyKeys(this.service).status(job.jobId), status, { expireIn: STATUS_TTL_MS });
    this.queue.add(op, job);
  }

  /** Every rate-limit window (the administrator's view of the limits' pressure). */
  async listLimitWindows(limit = 500): Promise<{ pool: string; id: string; times: number[] }[]> {
    // A shared limiter also holds the sign-in attempt windows (pool "auth", lib/storage/store_accounts.ts).
    return (await this.limiter.windows({ limit })).filter((w) => w.pool !== "auth");
  }

  /** How much of a pool is used at `now`, and when its oldest entry leaves the window. */
  async poolUsage(p: PoolSpec, now: number): Promise<PoolUsage> {
    return await this.#admission.usage(p, now);
  }

  /** Domains in flight (queued or running), at most `limit`, and when the oldest was admitted. */
  async inflightSummary(limit = 1000): Promise<{ count: number; oldestSince: number | null }> {
    let count = 0;
    let oldestSince: number | null = null;
    for await (const e of this.kv.list<InflightMark>({ prefix: this.#k("inflight") }, { limit })) {
      count++;
      if (oldestSince === null || e.value.since < oldestSince) oldestSince = e.value.since;
    }
    return { count, oldestSince };
  }

  /**
   * Stores a finished scan and clears the domain's in-flight mark if this job still owns it. A
   * record is never replaced by an older one, so redelivered jobs are harmless.
   *
   * A record too large for one KV value (over ~60 KiB) is stored in parts: the record's JSON, gzip-
   * compressed, cut into parts of {@link RECORD_PART_BYTES}, with a small head at the record's
   * key naming them. Up to 11 parts go in the head's own commit; larger records write their parts
   * first (unreferenced until the head's commit, which is the one atomic switch), and the parts of
   * the record replaced are deleted afterwards. Throws {@link RecordTooLargeError} past
   * {@link MAX_RECORD_JSON_BYTES}.
   */
  async finishScan(job: ScanJob, stored: StoredScan): Promise<"stored" | "superseded"> {
    const recordKey = this.#k("records", job.domain);
    const inflightKey = this.#k("inflight", job.domain);
    const attemptsKey = this.#k("attempts", job.jobId);
    const finishedAt = Date.parse(stored.record.scannedAt);
    const { parts: _drop, ...plain } = stored;
    // The record is what grows; the rest of a stored scan is a few short fields.
    const json = JSON.stringify(plain.record);
    let value: StoredScan = plain;
    let parts: Uint8Array[] = [];
    let early = false;
    const bytes = encoder.encode(json);
    if (bytes.byteLength > MAX_RECORD_JSON_BYTES) throw new RecordTooLargeError(bytes.byteLength);
    // The history keeps its own compressed copy of a record stored whole (lib/storage/history.ts),
    // and refers to the parts of one stored in parts; a copy too large for one value means parts.
    const zipped = gzipSync(bytes);
    if (
      json.length + (plain.failure?.length ?? 0) > INLINE_MAX_CHARS ||
      zipped.byteLength > RECORD_PART_BYTES
    ) {
      for (let i = 0; i < zipped.byteLength; i += RECORD_PART_BYTES) {
        parts.push(zipped.subarray(i, i + RECORD_PART_BYTES));
      }
      const id = `${finishedAt.toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
      value = {
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
        parts: { id, count: parts.length, bytes: zipped.byteLength, jsonBytes: bytes.byteLength },
      };
      if (parts.length > PARTS_PER_COMMIT) {
        for (let i = 0; i < parts.length; i += PARTS_PER_COMMIT) {
          const op = this.kv.atomic();
          parts.slice(i, i + PARTS_PER_COMMIT).forEach((p, j) =>
            op.set(this.#k("record_parts", job.domain, id, i + j), p)
          );
          await op.commit();
        }
        early = true;
      }
    }
    const score = (stored.record.result as { score?: number } | null)?.score;
    const hk = historyKeys(this.service);
    const historyEntry = summarise(stored.record, job.jobId, value.parts?.id, stored.failure);
    const historyBody: HistoryBody = {
      domain: job.domain,
      scannedAt: stored.record.scannedAt,
      ...(value.parts
        ? { parts: { id: value.parts.id, count: value.parts.count, bytes: value.parts.bytes } }
        : { gz: zipped }),
    };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const [current, inflight, kept] = await this.kv.getMany<
        [StoredScan, InflightMark, HistoryBody]
      >([recordKey, inflightKey, hk.body(job.jobId)]);
      const op = this.kv.atomic().check(current, inflight, kept);
      // Every scan is kept, the latest and any that finished after a newer one (superseded), in
      // this same commit: a record never exists without its history entry, nor the reverse. A job
      // stored before (redelivered) keeps its first copy.
      const keep = !kept.value;
      if (keep) {
        op.set(hk.entry(job.domain, finishedAt, job.jobId), historyEntry);
        op.set(hk.body(job.jobId), historyBody);
      }
      op.delete(hk.status(job.jobId));
      const older = !current.value || Date.parse(current.value.record.scannedAt) <= finishedAt;
      if (older) {
        op.set(recordKey, value);
        if (value.parts && !early && (older || keep)) {
          parts.forEach((p, i) =>
            op.set(this.#k("record_parts", job.domain, value.parts!.id, i), p)
          );
        }
        op.set(
          this.#k("scans_by_time", finishedAt, job.domain),
          {
            domain: job.domain,
            status: stored.record.status,
            score: typeof score === "number" ? score : null,
            credential: stored.credential,
            finishedAt,
          } satisfies ScanLogEntry,
          { expireIn: LOG_TTL_MS },
        );
      }
      if (inflight.value?.jobId === job.jobId) op.delete(inflightKey);
      op.delete(attemptsKey);
      if ((await op.commit()).ok) {
        const replaced = current.value?.parts;
        // The parts of the record replaced stay while the history keeps that scan.
        if (
          older && replaced && replaced.id !== value.parts?.id &&
          !(await this.history.keepsParts(job.domain, current.value!.record.scannedAt, replaced.id))
        ) {
          await this.#deleteParts(job.domain, replaced.id).catch(() => {});
        }
        if (!older && !keep && value.parts && early) {
          await this.#deleteParts(job.domain, value.parts.id).catch(() => {});
        }
        parts = [];
        return older ? "stored" : "superseded";
      }
      await backoff(attempt);
    }
    throw new Error("finishScan: too much contention");
  }

  /** Deletes every part of one stored-in-parts record. */
  async #deleteParts(domain: string, id: string): Promise<number> {
    let n = 0;
    let op = this.kv.atomic();
    let batch = 0;
    for await (const e of this.kv.list({ prefix: this.#k("record_parts", domain, id) })) {
      op.delete(e.key);
      n++;
      if (++batch === 100) {
        await op.commit();
        op = this.kv.atomic();
        batch = 0;
      }
    }
    if (batch) await op.commit();
    return n;
  }

  /** Clears the in-flight mark of a job that will not run (e.g. an unknown service). */
  async releaseInflight(job: ScanJob): Promise<void> {
    const key = this.#k("inflight", job.domain);
    const mark = await this.kv.get<InflightMark>(key);
    if (mark.value?.jobId === job.jobId) await this.kv.atomic().check(mark).delete(key).commit();
  }

  /**
   * Deletes what has outlived its use (the periodic clean-up, lib/storage/cleanup.ts): records scanned
   * before `recordsBefore`, recent-scan log lines past their 7 days, in-flight marks older than
   * `inflightTtlMs`, and KV limit windows whose every admission is older than `windowMs`. KV's
   * expireIn removes most of these lazily too; this makes it explicit and bounded. Every delete
   * checks the versionstamp it read, so nothing written meanwhile is lost.
   */
  async purgeExpired(
    now: number,
    options: { recordsBefore: number; inflightTtlMs: number; windowMs: number },
  ): Promise<{ records: number; scanLog: number; inflight: number; limitWindows: number }> {
    const out = { records: 0, scanLog: 0, inflight: 0, limitWindows: 0 };
    const drop = async (e: Deno.KvEntry<unknown>) =>
      (await this.kv.atomic().check(e).delete(e.key).commit()).ok;
    const heads = new Map<string, string>();
    // Parts the history keeps (lib/storage/history.ts) stay: they are the kept scans' records.
    const keptParts = await this.history.referencedParts();
    for await (const e of this.kv.list<StoredScan>({ prefix: this.#k("records") })) {
      const at = Date.parse(e.value?.record?.scannedAt ?? "");
      if (Number.isFinite(at) && at < options.recordsBefore && await drop(e)) {
        out.records++;
        const domain = String(e.key[2]);
        if (e.value.parts && !keptParts.has(`${domain}\n${e.value.parts.id}`)) {
          await this.#deleteParts(domain, e.value.parts.id);
        }
      } else if (e.value?.parts) heads.set(String(e.key[2]), e.value.parts.id);
    }
    // Parts no head refers to: left by a write that lost, or by a crash before the head's commit.
    const orphans = new Set<string>();
    for await (const e of this.kv.list({ prefix: this.#k("record_parts") })) {
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
      await this.#deleteParts(domain, id);
    }
    for await (
      const e of this.kv.list({
        start: this.#k("scans_by_time", 0),
        end: this.#k("scans_by_time", now - LOG_TTL_MS),
      })
    ) if (await drop(e)) out.scanLog++;
    for await (const e of this.kv.list<InflightMark>({ prefix: this.#k("inflight") })) {
      const alive = Math.max(e.value.since, e.value.renewedAt ?? 0);
      if (alive <= now - options.inflightTtlMs && await drop(e)) out.inflight++;
    }
    for await (const e of this.kv.list<number[]>({ prefix: this.#k("limits") })) {
      if ((e.value ?? []).every((t) => t <= now - options.windowMs) && await drop(e)) {
        out.limitWindows++;
      }
    }
    return out;
  }

  /** The most recent scans, newest first. */
  async recentScans(limit = 50): Promise<ScanLogEntry[]> {
    const out: ScanLogEntry[] = [];
    for await (
      const e of this.kv.list<ScanLogEntry>({ prefix: this.#k("scans_by_time") }, {
        reverse: true,
        limit,
      })
    ) out.push(e.value);
    return out;
  }

  /** Saves a new API key; fails if its hash or id already exists. */
  async createKey(entry: ApiKeyEntry): Promise<boolean> {
    const byHash = this.#k("keys", entry.hash);
    const byId = this.#k("keys_by_id", entry.id);
    const op = this.kv.atomic()
      .check({ key: byHash, versionstamp: null }, { key: byId, versionstamp: null })
      .set(byHash, entry)
      .set(byId, entry.hash);
    if (entry.accountId) op.set(this.#k("keys_by_account", entry.accountId, entry.id), entry.hash);
    return (await op.commit()).ok;
  }

  /**
   * A key by the SHA-256 of its full text, strongly consistent: a revocation committed before the
   * call is seen. Concurrent lookups of one key share a read that started after they arrived
   * (lib/storage/fresh_reads.ts), so a busy key costs a read per KV round trip, not one per request.
   */
  getKeyByHash(hash: string): Promise<ApiKeyEntry | null> {
    return this.#keyReads.read(
      hash,
      async () =>
        (await this.kv.get<ApiKeyEntry>(this.#k("keys", hash), { consistency: "strong" })).value,
    );
  }

  /** A key by its id. */
  async getKeyById(id: string): Promise<ApiKeyEntry | null> {
    const hash = (await this.kv.get<string>(this.#k("keys_by_id", id))).value;
    return hash ? await this.getKeyByHash(hash) : null;
  }

  /** Applies a change to a key with a versionstamp check, retrying on conflict. */
  async updateKey(
    id: string,
    change: (entry: ApiKeyEntry) => ApiKeyEntry | null,
  ): Promise<ApiKeyEntry | null> {
    const hash = (await this.kv.get<string>(this.#k("keys_by_id", id))).value;
    return hash ? await this.updateKeyByHash(hash, change) : null;
  }

  /** {@link updateKey} for a key whose hash is in hand (no lookup of its id). */
  async updateKeyByHash(
    hash: string,
    change: (entry: ApiKeyEntry) => ApiKeyEntry | null,
  ): Promise<ApiKeyEntry | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.kv.get<ApiKeyEntry>(this.#k("keys", hash));
      if (!current.value) return null;
      const updated = change(current.value);
      if (!updated) return current.value;
      if ((await this.kv.atomic().check(current).set(current.key, updated).commit()).ok) {
        return updated;
      }
      await backoff(attempt);
    }
    throw new Error("updateKey: too much contention");
  }

  /** Every key of an account (or, with no account, every key), oldest first. */
  async listKeys(accountId?: string): Promise<ApiKeyEntry[]> {
    const hashes: string[] = [];
    const prefix = accountId ? this.#k("keys_by_account", accountId) : this.#k("keys_by_id");
    for await (const e of this.kv.list<string>({ prefix })) hashes.push(e.value);
    const out: ApiKeyEntry[] = [];
    for (let i = 0; i < hashes.length; i += 10) {
      const batch = await this.kv.getMany<ApiKeyEntry[]>(
        hashes.slice(i, i + 10).map((h) => this.#k("keys", h)),
      );
      for (const e of batch) if (e.value) out.push(e.value);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }
}
