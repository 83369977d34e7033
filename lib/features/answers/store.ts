/**
 * Answer presence in Deno KV (lib/features/answers/, docs/answer-presence.md). Every key starts with the
 * service name, like lib/kit/storage/store.ts; `owner` is "account:<id>" or "operator":
 *
 *   [svc, "answer_runs", owner, domain, createdAt, runId] -> AnswerRun   a run and its results
 *   [svc, "answer_run_ids", runId]                   -> RunRef      find a run by id
 *   [svc, "answer_samples", runId, provider, q, i]   -> Sample      one answer, its sources (text
 *                                                                   and sources capped)
 *       the three above expire with the history (HISTORY_RETENTION_DAYS); at most
 *       MAX_RUNS_PER_SITE runs are kept per owner and domain (the oldest go with their answers)
 *   [svc, "answer_questions", owner, domain]         -> QuestionSet the owner's questions
 *   [svc, "answer_keys", accountId, provider]        -> StoredKey   a user's own vendor key, sealed
 *   [svc, "answer_active", owner, domain]            -> runId       a run in progress (one per
 *                                                                   owner and site; expires)
 *   [svc, "answer_calls", "account", accountId, day] -> number      calls reserved that UTC day
 *   [svc, "answer_calls", "global", day]             -> number      calls on the operator's keys
 *                                                                   that UTC day
 *   [svc, "answer_calls", "share", accountId, day]   -> number      the account's calls on the
 *                                                                   operator's keys that day
 *   [svc, "answer_calls", "accounts", day]           -> number      every account's calls on the
 *                                                                   operator's keys that day (the
 *                                                                   counters expire after 2 days)
 *   [svc, "answer_canary", provider, model]          -> CanaryPrint the provider's last canary
 *                                                                   reading (canary.ts)
 *   [svc, "answer_imports", owner, domain, source, table]         -> ImportMeta  a first-party
 *                                                                   export's header and dates
 *   [svc, "answer_import_rows", owner, domain, source, table, n]  -> rows[]      its rows, in
 *                                                                   chunks under KV's value cap
 *       (first_party.ts; a new file of the same source and table replaces the old)
 */

/** Who a run, a question set or a key belongs to: an account, or the operator. */
export type Owner = { kind: "account"; accountId: string } | { kind: "operator" };

/** What the store reads of a run (the run itself is lib/features/answers/run_types.ts's AnswerRun). */
export interface RunKeyed {
  id: string;
  owner: Owner;
  domain: string;
  createdAt: number;
}

/** What the store reads of one answer (lib/features/answers/run_types.ts's Sample). */
export interface SampleKeyed {
  provider: string;
  question: number;
  index: number;
}

/** A user's own key for a vendor, sealed (never shown again). */
export interface StoredKey {
  sealed: string;
  addedAt: number;
}

/** Runs kept per owner and domain. */
export const MAX_RUNS_PER_SITE = 20;
/** How long a counter of calls is kept. */
const COUNTER_TTL_MS = 2 * 24 * 3600_000;

/** Where a run is. */
interface RunRef {
  owner: string;
  domain: string;
  createdAt: number;
}

/**
 * A budget that a reservation would exceed: the account's own calls of the day ("account"), its
 * share of the operator's keys ("share"), every account's part of the operator's keys, which
 * leaves the operator's reserve ("accounts"), or the operator's keys in all ("global").
 */
export interface BudgetRefusal {
  scope: "account" | "share" | "accounts" | "global";
  used: number;
  limit: number;
}

/** The limits a reservation is checked against (calls per UTC day). */
export interface BudgetLimits {
  /** Every call of one account's runs. */
  account: number;
  /** One account's calls on the operator's keys (its share of the global pool). */
  share: number;
  /** All accounts' calls on the operator's keys together (the pool less the operator's reserve). */
  accounts: number;
  /** Every call on the operator's keys, the operator's own runs included. */
  global: number;
}

/** The owner as a key part. */
export function ownerKey(owner: Owner): string {
  return owner.kind === "operator" ? "operator" : `account:${owner.accountId}`;
}

/**
 * Typed access to answer presence of one service: `Run`, `Sample` and `Questions` are the shapes
 * lib/answers keeps (this module imports none of lib/answers: the layers import one way).
 */
export class AnswersStore<Run extends RunKeyed, Sample extends SampleKeyed, Questions> {
  constructor(readonly kv: Deno.Kv, readonly service: string) {}

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  #runKey(r: { owner: string; domain: string; createdAt: number; id: string }): Deno.KvKey {
    return this.#k("answer_runs", r.owner, r.domain, r.createdAt, r.id);
  }

  /** Saves a run (new or updated); a new one beyond the cap removes the oldest with its answers. */
  async saveRun(run: Run, ttlMs: number): Promise<void> {
    const owner = ownerKey(run.owner);
    const ref: RunRef = { owner, domain: run.domain, createdAt: run.createdAt };
    await this.kv.atomic()
      .set(this.#runKey({ ...ref, id: run.id }), run, { expireIn: ttlMs })
      .set(this.#k("answer_run_ids", run.id), ref, { expireIn: ttlMs })
      .commit();
    const older = await this.#runEntries(owner, run.domain, 1000);
    for (const old of older.slice(MAX_RUNS_PER_SITE)) await this.#deleteRun(old.value);
  }

  async #runEntries(owner: string, domain: string, limit: number) {
    const out: Deno.KvEntry<Run>[] = [];
    const iter = this.kv.list<Run>(
      { prefix: this.#k("answer_runs", owner, domain) },
      { reverse: true, limit },
    );
    for await (const e of iter) out.push(e);
    return out;
  }

  async #deleteRun(run: Run): Promise<void> {
    const owner = ownerKey(run.owner);
    for await (const e of this.kv.list({ prefix: this.#k("answer_samples", run.id) })) {
      await this.kv.delete(e.key);
    }
    await this.kv.atomic()
      .delete(this.#runKey({ owner, domain: run.domain, createdAt: run.createdAt, id: run.id }))
      .delete(this.#k("answer_run_ids", run.id))
      .commit();
  }

  /** An owner's runs of a domain, newest first. */
  async listRuns(owner: Owner, domain: string, limit = MAX_RUNS_PER_SITE): Promise<Run[]> {
    return (await this.#runEntries(ownerKey(owner), domain, limit)).map((e) => e.value);
  }

  /** A run by id, or null. */
  async getRun(id: string): Promise<Run | null> {
    const ref = (await this.kv.get<RunRef>(this.#k("answer_run_ids", id))).value;
    if (!ref) return null;
    return (await this.kv.get<Run>(this.#runKey({ ...ref, id }))).value;
  }

  /** Keeps one answer of a run. */
  async putSample(runId: string, sample: Sample, ttlMs: number): Promise<void> {
    await this.kv.set(
      this.#k("answer_samples", runId, sample.provider, sample.question, sample.index),
      sample,
      { expireIn: ttlMs },
    );
  }

  /** Every answer of a run, by provider, question and index. */
  async samples(runId: string): Promise<Sample[]> {
    const out: Sample[] = [];
    for await (const e of this.kv.list<Sample>({ prefix: this.#k("answer_samples", runId) })) {
      out.push(e.value);
    }
    return out;
  }

  /** The owner's questions for a domain, or null. */
  async getQuestions(owner: Owner, domain: string): Promise<Questions | null> {
    return (await this.kv.get<Questions>(this.#k("answer_questions", ownerKey(owner), domain)))
      .value;
  }

  async putQuestions(owner: Owner, domain: string, set: Questions): Promise<void> {
    await this.kv.set(this.#k("answer_questions", ownerKey(owner), domain), set);
  }

  /** A user's own key of a provider (sealed), or null. */
  async getKey(accountId: string, provider: string): Promise<StoredKey | null> {
    return (await this.kv.get<StoredKey>(this.#k("answer_keys", accountId, provider))).value;
  }

  /** Every user's key of this service, with its entry (the start-up sweep seals them again). */
  async *everyKey(): AsyncIterable<Deno.KvEntry<StoredKey>> {
    for await (const e of this.kv.list<StoredKey>({ prefix: this.#k("answer_keys") })) yield e;
  }

  /** Replaces a key only if its entry is unchanged since `entry` was read. */
  async replaceKey(entry: Deno.KvEntry<StoredKey>, key: StoredKey): Promise<boolean> {
    return (await this.kv.atomic().check(entry).set(entry.key, key).commit()).ok;
  }

  async putKey(accountId: string, provider: string, key: StoredKey): Promise<void> {
    await this.kv.set(this.#k("answer_keys", accountId, provider), key);
  }

  /** Removes a user's key; true when there was one. */
  async deleteKey(accountId: string, provider: string): Promise<boolean> {
    const key = this.#k("answer_keys", accountId, provider);
    const had = (await this.kv.get(key)).value !== null;
    await this.kv.delete(key);
    return had;
  }

  /** Marks a run of owner and domain in progress; false when another one is. */
  async lock(owner: Owner, domain: string, runId: string, ttlMs: number): Promise<boolean> {
    const key = this.#k("answer_active", ownerKey(owner), domain);
    const r = await this.kv.atomic().check({ key, versionstamp: null })
      .set(key, runId, { expireIn: ttlMs }).commit();
    return r.ok;
  }

  /** The run in progress of owner and domain, or null. */
  async active(owner: Owner, domain: string): Promise<string | null> {
    return (await this.kv.get<string>(this.#k("answer_active", ownerKey(owner), domain))).value;
  }

  async unlock(owner: Owner, domain: string, runId: string): Promise<void> {
    const key = this.#k("answer_active", ownerKey(owner), domain);
    const e = await this.kv.get<string>(key);
    if (e.value === runId) await this.kv.atomic().check(e).delete(key).commit();
  }

  #accountCounter(accountId: string, day: string): Deno.KvKey {
    return this.#k("answer_calls", "account", accountId, day);
  }

  #globalCounter(day: string): Deno.KvKey {
    return this.#k("answer_calls", "global", day);
  }

  #counters(accountId: string | null, day: string): Deno.KvKey[] {
    return [
      this.#globalCounter(day),
      this.#k("answer_calls", "accounts", day),
      ...(accountId
        ? [
          this.#accountCounter(accountId, day),
          this.#k("answer_calls", "share", accountId, day),
        ]
        : []),
    ];
  }

  /**
   * Calls reserved on `day`: by the account (all of its calls, and those on the operator's keys),
   * by every account on the operator's keys, and on the operator's keys in all.
   */
  async used(
    accountId: string | null,
    day: string,
  ): Promise<{ account: number; share: number; accounts: number; global: number }> {
    const entries = await this.kv.getMany<number[]>(this.#counters(accountId, day));
    const v = (i: number) => (entries[i]?.value as number | null) ?? 0;
    return { global: v(0), accounts: v(1), account: v(2), share: v(3) };
  }

  /**
   * Reserves `calls` calls for the account (null: the operator, whom only the global pool bounds)
   * of which `operatorCalls` use the operator's keys, all counters in one commit; or says which
   * budget it would exceed, changing nothing. A limit of 0 allows no call.
   */
  async reserve(
    o: {
      accountId: string | null;
      calls: number;
      operatorCalls: number;
      day: string;
      limits: BudgetLimits;
    },
  ): Promise<BudgetRefusal | null> {
    const keys = this.#counters(o.accountId, o.day);
    for (let attempt = 0; attempt < 20; attempt++) {
      const entries = await this.kv.getMany<number[]>(keys);
      const v = (i: number) => (entries[i]?.value as number | null) ?? 0;
      const [global, accounts, account, share] = [v(0), v(1), v(2), v(3)];
      const ops = o.operatorCalls;
      if (o.accountId) {
        if (account + o.calls > o.limits.account) {
          return { scope: "account", used: account, limit: o.limits.account };
        }
        if (ops > 0 && share + ops > o.limits.share) {
          return { scope: "share", used: share, limit: o.limits.share };
        }
        if (ops > 0 && accounts + ops > o.limits.accounts) {
          return { scope: "accounts", used: accounts, limit: o.limits.accounts };
        }
      }
      if (ops > 0 && global + ops > o.limits.global) {
        return { scope: "global", used: global, limit: o.limits.global };
      }
      const ttl = { expireIn: COUNTER_TTL_MS };
      const op = this.kv.atomic().check(...entries).set(keys[0], global + ops, ttl);
      if (o.accountId) {
        op.set(keys[1], accounts + ops, ttl).set(keys[2], account + o.calls, ttl)
          .set(keys[3], share + ops, ttl);
      }
      if ((await op.commit()).ok) return null;
    }
    throw new Error("AnswersStore.reserve: too much contention");
  }

  /** Gives back calls reserved but not made. */
  async release(
    o: { accountId: string | null; calls: number; operatorCalls: number; day: string },
  ): Promise<void> {
    if (o.calls <= 0 && o.operatorCalls <= 0) return;
    const keys = this.#counters(o.accountId, o.day);
    for (let attempt = 0; attempt < 20; attempt++) {
      const entries = await this.kv.getMany<number[]>(keys);
      const v = (i: number) => (entries[i]?.value as number | null) ?? 0;
      const less = (i: number, n: number) => Math.max(0, v(i) - n);
      const ttl = { expireIn: COUNTER_TTL_MS };
      const op = this.kv.atomic().check(...entries).set(keys[0], less(0, o.operatorCalls), ttl);
      if (o.accountId) {
        op.set(keys[1], less(1, o.operatorCalls), ttl).set(keys[2], less(2, o.calls), ttl)
          .set(keys[3], less(3, o.operatorCalls), ttl);
      }
      if ((await op.commit()).ok) return;
    }
  }

  /** Keeps a first-party table (replacing the one before): its meta, its rows in chunks. */
  async putImport<Meta, Row>(
    owner: Owner,
    domain: string,
    source: string,
    table: string,
    meta: Meta,
    rows: Row[],
  ): Promise<void> {
    const o = ownerKey(owner);
    for await (
      const e of this.kv.list({ prefix: this.#k("answer_import_rows", o, domain, source, table) })
    ) await this.kv.delete(e.key);
    let chunk: Row[] = [];
    let size = 0;
    let n = 0;
    const flush = async () => {
      if (!chunk.length) return;
      await this.kv.set(this.#k("answer_import_rows", o, domain, source, table, n++), chunk);
      chunk = [];
      size = 0;
    };
    for (const row of rows) {
      const bytes = JSON.stringify(row).length;
      // KV values are at most 64 KiB: a chunk stays well under it.
      if (size + bytes > 40_000) await flush();
      chunk.push(row);
      size += bytes;
    }
    await flush();
    await this.kv.set(this.#k("answer_imports", o, domain, source, table), meta);
  }

  /** The first-party tables of an owner's site, with their rows. */
  async imports<Meta, Row>(
    owner: Owner,
    domain: string,
  ): Promise<{ source: string; table: string; meta: Meta; rows: Row[] }[]> {
    const o = ownerKey(owner);
    const out: { source: string; table: string; meta: Meta; rows: Row[] }[] = [];
    for await (const e of this.kv.list<Meta>({ prefix: this.#k("answer_imports", o, domain) })) {
      const [source, table] = [String(e.key.at(-2)), String(e.key.at(-1))];
      const rows: Row[] = [];
      for await (
        const r of this.kv.list<Row[]>({
          prefix: this.#k("answer_import_rows", o, domain, source, table),
        })
      ) rows.push(...r.value);
      out.push({ source, table, meta: e.value, rows });
    }
    return out;
  }

  /** A provider's last canary reading for a model name, or null. */
  async getCanary<T>(provider: string, model: string): Promise<T | null> {
    return (await this.kv.get<T>(this.#k("answer_canary", provider, model))).value;
  }

  /** Keeps a provider's canary reading (the next run compares with it). */
  async putCanary<T>(provider: string, model: string, print: T): Promise<void> {
    await this.kv.set(this.#k("answer_canary", provider, model), print);
  }
}
