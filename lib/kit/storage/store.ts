/**
 * The KV key layout of scans (API keys: key_store.ts; kept scans: history.ts). Every key starts with the service name, so both
 * services can share one store without touching each other's data:
 *
 *   [svc, "records", domain]              -> StoredScan      the latest record of a domain (or
 *                                                            its head, when stored in parts)
 *   [svc, "record_parts", domain, id, i]  -> Uint8Array      part i of a large record (gzip)
 *   [svc, "inflight", domain]             -> InflightMark    a scan is queued or running (expires
 *                                                            unless renewed by its worker)
 *   [svc, "attempts", jobId]              -> number          starts of a job (expire after a day)
 *   [svc, "limits", pool, id]             -> number[]        admission times in the window (log)
 *   [svc, "keys" | "keys_by_id" | "keys_by_account", ...]   client API keys: see
 *                                                            lib/kit/storage/key_store.ts
 *   [svc, "scans_by_time", ms, domain]    -> ScanLogEntry    recent scans (expire after 7 days)
 *   [svc, "history" | "history_body" | "scan_status", ...]  every kept scan and the status of scans
 *                                                            in progress: see lib/kit/storage/history.ts
 *                                                            (written here, in the same commits)
 *
 * Accounts, sessions and sign-in attempt windows have their own layout in lib/kit/storage/store_accounts.ts.
 *
 * The rate-limit windows live here by default; with a shared limiter (Redis, lib/kit/limits/limiter_redis.ts)
 * they live there instead, and KV keeps the in-flight marks and the queue.
 *
 * Unique things are created with `versionstamp: null` checks; updates check the versionstamp they
 * read and retry on conflict. Secrets are stored only as SHA-256 hashes.
 */
import { MAX_RECORD_BYTES, parseStoredRecord, storedSummary } from "../limits/record_budget.ts";
import { backoff, type Limiter, type PoolUsage } from "../limits/limiter.ts";
import { type JobQueue, KvNativeQueue } from "./job_queue.ts";
import type { Admission, AdmissionStore, AdmissionStrategy } from "../limits/admission.ts";
import type { PoolSpec } from "../limits/limiter.ts";
import {
  History,
  type HistoryBody,
  historyKeys,
  type ScanStatus,
  STATUS_TTL_MS,
  summarise,
} from "./history.ts";

export type {
  ApiKeyEntry,
  CredentialKind,
  InflightMark,
  ScanJob,
  ScanLogEntry,
  StoredScan,
} from "./store_types.ts";
import type { InflightMark, ScanJob, ScanLogEntry, StoredScan } from "./store_types.ts";
import { KeyStore } from "./key_store.ts";
import { LOG_TTL_MS, type PurgeOptions, type PurgeReport, purgeScans } from "./scan_purge.ts";
import {
  deleteParts,
  packRecord,
  readParts,
  splitParts,
  writePartsAhead,
} from "./large_records.ts";
export { MAX_RECORD_JSON_BYTES, RECORD_PART_BYTES, RecordTooLargeError } from "./large_records.ts";

/** A limit pool, and the outcome of {@link Store.admitScan} (lib/kit/limits/admission.ts). */
export type { Admission, PoolSpec };

const MAX_ATTEMPTS = 1000;
/** How long a job's start count is kept. */
const ATTEMPTS_TTL_MS = 24 * 3600_000;

/**
 * The KV keys of a service's rate-limit window logs (`[svc, "limits", pool, id]`), for the KV
 * limiter the composition root builds (lib/app/server.ts createStore).
 */
export function limitKeys(service: string): {
  key(pool: string, id: string): Deno.KvKey;
  prefix(pool?: string): Deno.KvKey;
} {
  return {
    key: (pool, id) => [service, "limits", pool, id],
    prefix: (pool) => pool ? [service, "limits", pool] : [service, "limits"],
  };
}

/**
 * Options of a {@link Store}. The store builds no limit itself: the composition root
 * (lib/app/server.ts createStore) builds the limiter and the admission strategy and hands them in.
 * Without them the store still reads and writes records, keys and history; admitting a scan or
 * reading the pools then throws.
 */
export interface StoreOptions {
  /** Where the rate-limit pools live (KV window logs under {@link limitKeys}, or Redis). */
  limiter?: Limiter;
  /**
   * The scan admission strategy (lib/kit/limits/admission.ts admissionFor), built over this store's
   * side of an admission: where its in-flight marks and pools are, and what an admission writes.
   */
  admission?: (store: AdmissionStore<ScanJob>) => AdmissionStrategy<ScanJob>;
  /** How admitted jobs reach the worker; Deno KV's own queue when absent. */
  queue?: JobQueue;
}

/** Typed access to one service's data in a Deno KV store. */
export class Store {
  readonly #limiter: Limiter | undefined;
  /** The job transport (lib/kit/storage/job_queue.ts). */
  readonly queue: JobQueue;
  /** The client API keys (lib/kit/storage/key_store.ts). */
  readonly keys: KeyStore;
  /** How scans are admitted: KV, in memory (this process the only writer) or a shared limiter. */
  readonly #admission: AdmissionStrategy<ScanJob> | undefined;

  constructor(readonly kv: Deno.Kv, readonly service: string, options: StoreOptions = {}) {
    this.queue = options.queue ?? new KvNativeQueue(kv);
    this.keys = new KeyStore(kv, service);
    this.#limiter = options.limiter;
    const keys = limitKeys(service);
    this.#admission = options.admission?.({
      kv,
      inflightKey: (domain) => this.#k("inflight", domain),
      poolKey: (p) => keys.key(p.pool, p.id),
      poolPrefix: keys.prefix(),
      write: (op, job, now, markTtlMs, pools, logs) =>
        this.#writeAdmission(op, job, now, markTtlMs, pools, logs),
    });
  }

  /** The rate-limit engine: KV window logs, or a shared one (Redis). */
  get limiter(): Limiter {
    if (!this.#limiter) throw new Error(`The ${this.service} store was built without a limiter`);
    return this.#limiter;
  }

  get #admitter(): AdmissionStrategy<ScanJob> {
    if (!this.#admission) {
      throw new Error(`The ${this.service} store was built without an admission strategy`);
    }
    return this.#admission;
  }

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  /** Every kept scan of this service (lib/kit/storage/history.ts). */
  get history(): History {
    return this.#history ??= new History(this.kv, this.service);
  }
  #history: History | undefined;

  /**
   * Records what the worker is doing for a scan (its status URL shows it). A scan already stored
   * is left alone: its status was deleted with the record's commit.
   */
  async setScanStep(
    job: ScanJob,
    step: { id: string; text: string },
    now: number,
  ): Promise<void> {
    const key = historyKeys(this.service).status(job.jobId);
    const current = await this.kv.get<ScanStatus>(key);
    if (!current.value) return;
    const next: ScanStatus = {
      ...current.value,
      state: "running",
      step: step.text,
      stepId: step.id,
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
      const { parts, ...rest } = head;
      const read = () => readParts(this.kv, this.#k("record_parts", domain, parts.id), parts);
      // A record over the budget (stored before it existed) is read as its summary, made once.
      const key = `${this.service}/${domain}/${parts.id}`;
      const json = parts.jsonBytes > MAX_RECORD_BYTES ? null : await read();
      const parsed = json
        ? await parseStoredRecord<StoredScan["record"]>(json, key)
        : await storedSummary<StoredScan["record"]>(key, read).catch(() => null);
      if (!parsed) continue;
      return { stored: { ...rest, record: parsed.record }, recordJson: parsed.json };
    }
    throw new Error(`getScan: the record of ${domain} kept changing while it was read`);
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
    const key = this.#k("inflight", job.target.domain);
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
   * another caller is refunded. The strategies are in lib/kit/limits/admission.ts.
   */
  async admitScan(
    job: ScanJob,
    pools: PoolSpec[],
    now: number,
    inflightTtlMs: number,
  ): Promise<Admission> {
    return await this.#admitter.admit(job, pools, now, inflightTtlMs);
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
    const mark: InflightMark = {
      jobId: job.jobId,
      since: now,
      credential: job.credential,
      ...(job.target.render ? { render: true } : {}),
      // The page scanned (the schema service's per-page reports show its progress).
      ...(job.target.pageUrl ? { url: job.target.pageUrl } : {}),
    };
    op.set(this.#k("inflight", job.target.domain), mark, { expireIn: markTtlMs });
    const status: ScanStatus = {
      id: job.jobId,
      domain: job.target.domain,
      state: "queued",
      step: null,
      stepId: null,
      queuedAt: now,
      startedAt: null,
    };
    op.set(historyKeys(this.service).status(job.jobId), status, { expireIn: STATUS_TTL_MS });
    this.queue.add(op, job);
  }

  /** Every rate-limit window (the administrator's view of the limits' pressure). */
  async listLimitWindows(limit = 500): Promise<{ pool: string; id: string; times: number[] }[]> {
    // A shared limiter also holds the sign-in attempt windows (pool "auth", lib/kit/storage/store_accounts.ts).
    return (await this.limiter.windows({ limit })).filter((w) => w.pool !== "auth");
  }

  /** How much of a pool is used at `now`, and when its oldest entry leaves the window. */
  async poolUsage(p: PoolSpec, now: number): Promise<PoolUsage> {
    return await this.#admitter.usage(p, now);
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
   * A record too large for one KV value is stored in parts (lib/kit/storage/large_records.ts): the head's
   * commit is the one atomic switch, and the parts of the record replaced are deleted afterwards.
   */
  async finishScan(job: ScanJob, stored: StoredScan): Promise<"stored" | "superseded"> {
    const recordKey = this.#k("records", job.target.domain);
    const inflightKey = this.#k("inflight", job.target.domain);
    const attemptsKey = this.#k("attempts", job.jobId);
    const finishedAt = Date.parse(stored.record.scannedAt);
    const { value, zipped } = packRecord(stored, finishedAt);
    let parts = value.parts ? splitParts(zipped) : [];
    // Parts beyond one commit's worth are written first, unreferenced until the head's commit.
    const early = value.parts
      ? await writePartsAhead(
        this.kv,
        (i) => this.#k("record_parts", job.target.domain, value.parts!.id, i),
        parts,
      )
      : false;
    const score = (stored.record.result as { score?: number } | null)?.score;
    const hk = historyKeys(this.service);
    const historyEntry = summarise(stored.record, job.jobId, value.parts?.id, stored.failure);
    const historyBody: HistoryBody = {
      domain: job.target.domain,
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
        op.set(hk.entry(job.target.domain, finishedAt, job.jobId), historyEntry);
        op.set(hk.body(job.jobId), historyBody);
      }
      op.delete(hk.status(job.jobId));
      const older = !current.value || Date.parse(current.value.record.scannedAt) <= finishedAt;
      if (older) {
        op.set(recordKey, value);
        if (value.parts && !early && (older || keep)) {
          parts.forEach((p, i) =>
            op.set(this.#k("record_parts", job.target.domain, value.parts!.id, i), p)
          );
        }
        op.set(
          this.#k("scans_by_time", finishedAt, job.target.domain),
          {
            domain: job.target.domain,
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
          !(await this.history.keepsParts(
            job.target.domain,
            current.value!.record.scannedAt,
            replaced.id,
          ))
        ) {
          await deleteParts(this.kv, this.#k("record_parts", job.target.domain, replaced.id)).catch(
            () => {},
          );
        }
        if (!older && !keep && value.parts && early) {
          await deleteParts(this.kv, this.#k("record_parts", job.target.domain, value.parts.id))
            .catch(
              () => {},
            );
        }
        parts = [];
        return older ? "stored" : "superseded";
      }
      await backoff(attempt);
    }
    throw new Error("finishScan: too much contention");
  }

  /** Clears the in-flight mark of a job that will not run (e.g. an unknown service). */
  async releaseInflight(job: ScanJob): Promise<void> {
    const key = this.#k("inflight", job.target.domain);
    const mark = await this.kv.get<InflightMark>(key);
    if (mark.value?.jobId === job.jobId) await this.kv.atomic().check(mark).delete(key).commit();
  }

  /**
   * Deletes what has outlived its use (the periodic clean-up, lib/kit/storage/cleanup.ts): records scanned
   * before `recordsBefore`, recent-scan log lines past their 7 days, in-flight marks older than
   * `inflightTtlMs`, and KV limit windows whose every admission is older than `windowMs`. KV's
   * expireIn removes most of these lazily too; this makes it explicit and bounded. Every delete
   * checks the versionstamp it read, so nothing written meanwhile is lost.
   */
  purgeExpired(
    now: number,
    options: PurgeOptions,
  ): Promise<PurgeReport> {
    return purgeScans(this.kv, (...parts) => this.#k(...parts), this.history, now, options);
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
}
