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
 *                                                                   that UTC day (both expire
 *                                                                   after 2 days)
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

/** A budget that a reservation would exceed. */
export interface BudgetRefusal {
  scope: "account" | "global";
  used: number;
  limit: number;
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

  /** Calls reserved on `day` by an account, and on the operator's keys. */
  async used(accountId: string | null, day: string): Promise<{ account: number; global: number }> {
    const [a, g] = await this.kv.getMany<[number, number]>([
      accountId ? this.#accountCounter(accountId, day) : this.#globalCounter(day),
      this.#globalCounter(day),
    ]);
    return { account: accountId ? a.value ?? 0 : 0, global: g.value ?? 0 };
  }

  /**
   * Reserves `calls` calls for the account (null: the operator, no account budget) of which
   * `operatorCalls` use the operator's keys, both in one commit; or says which budget it would
   * exceed, changing nothing. A limit of 0 allows no call.
   */
  async reserve(
    o: {
      accountId: string | null;
      calls: number;
      operatorCalls: number;
      day: string;
      accountLimit: number;
      globalLimit: number;
    },
  ): Promise<BudgetRefusal | null> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const g = await this.kv.get<number>(this.#globalCounter(o.day));
      const a = o.accountId
        ? await this.kv.get<number>(this.#accountCounter(o.accountId, o.day))
        : null;
      const usedAccount = a?.value ?? 0;
      const usedGlobal = g.value ?? 0;
      if (a && usedAccount + o.calls > o.accountLimit) {
        return { scope: "account", used: usedAccount, limit: o.accountLimit };
      }
      if (o.operatorCalls > 0 && usedGlobal + o.operatorCalls > o.globalLimit) {
        return { scope: "global", used: usedGlobal, limit: o.globalLimit };
      }
      const op = this.kv.atomic().check(g)
        .set(this.#globalCounter(o.day), usedGlobal + o.operatorCalls, {
          expireIn: COUNTER_TTL_MS,
        });
      if (a && o.accountId) {
        op.check(a).set(this.#accountCounter(o.accountId, o.day), usedAccount + o.calls, {
          expireIn: COUNTER_TTL_MS,
        });
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
    for (let attempt = 0; attempt < 20; attempt++) {
      const g = await this.kv.get<number>(this.#globalCounter(o.day));
      const a = o.accountId
        ? await this.kv.get<number>(this.#accountCounter(o.accountId, o.day))
        : null;
      const op = this.kv.atomic().check(g).set(
        this.#globalCounter(o.day),
        Math.max(0, (g.value ?? 0) - o.operatorCalls),
        { expireIn: COUNTER_TTL_MS },
      );
      if (a && o.accountId) {
        op.check(a).set(
          this.#accountCounter(o.accountId, o.day),
          Math.max(0, (a.value ?? 0) - o.calls),
          { expireIn: COUNTER_TTL_MS },
        );
      }
      if ((await op.commit()).ok) return;
    }
  }
}
