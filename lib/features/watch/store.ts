/**
 * Watches and webhook deliveries of one service, in Deno KV. Every key starts with the service
 * name, like lib/kit/storage/store.ts:
 *
 *   [svc, "watches", accountId, watchId]            -> Watch     one watch of an account
 *   [svc, "watch_ids", watchId]                     -> accountId find a watch by id
 *   [svc, "watch_targets", accountId, target]       -> watchId   one watch per target per account
 *   [svc, "watch_count", accountId]                 -> number    watches of the account (the cap)
 *   [svc, "watch_due", nextRunAt, watchId]          -> accountId when each watch runs next
 *   [svc, "watch_email_tokens", sha256(token)]      -> EmailTokenRef  a confirmation or
 *                                                   unsubscribe token of a watch's address
 *   [svc, "watch_answers_due", nextAnswersAt, watchId] -> accountId when a watch's scheduled
 *                                                   answer-presence run is due
 *   [svc, "watch_pending", watchId]                 -> accountId watches waiting for their scan
 *   [svc, "watch_deliveries", accountId, createdAt, deliveryId]
 *                                                   -> Delivery  an alert and its attempts
 *                                                                (expires after 30 days)
 *   [svc, "watch_outbox", nextAttemptAt, deliveryId] -> OutboxRef a delivery with an attempt due
 *
 * A watch and its indexes change in one atomic commit that checks the watch's versionstamp, so
 * two processes running the same tick never both run a watch, and a removed watch (its entry and
 * its due entry deleted together) is never run again.
 */
import type { Delivery, Watch } from "./store_types.ts";

/** How long a delivery (and its attempts) stays listed. */
export const DELIVERY_TTL_MS = 30 * 24 * 3600_000;

/** What a confirmation or unsubscribe token of a watch's address points to. */
export interface EmailTokenRef {
  accountId: string;
  watchId: string;
  kind: "confirm" | "unsubscribe";
}

/** Where a delivery with an attempt due is. */
export interface OutboxRef {
  accountId: string;
  createdAt: number;
  deliveryId: string;
}

/** Typed access to the watches of one service. */
export class WatchStore {
  constructor(readonly kv: Deno.Kv, readonly service: string) {}

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  #watchKey(w: Pick<Watch, "accountId" | "id">): Deno.KvKey {
    return this.#k("watches", w.accountId, w.id);
  }

  #deliveryKey(d: Pick<Delivery, "accountId" | "createdAt" | "id">): Deno.KvKey {
    return this.#k("watch_deliveries", d.accountId, d.createdAt, d.id);
  }

  /**
   * Creates a watch if the account has fewer than `max` and none of the same target.
   * Returns "created", "full" or "duplicate".
   */
  async create(watch: Watch, max: number): Promise<"created" | "full" | "duplicate"> {
    const countKey = this.#k("watch_count", watch.accountId);
    const targetKey = this.#k("watch_targets", watch.accountId, watch.target);
    for (let attempt = 0; attempt < 20; attempt++) {
      const [count, existing] = await this.kv.getMany<[number, string]>([countKey, targetKey]);
      if (existing.value) return "duplicate";
      const n = count.value ?? 0;
      if (n >= max) return "full";
      const op = this.kv.atomic()
        .check(count, { key: targetKey, versionstamp: null })
        .check({ key: this.#watchKey(watch), versionstamp: null })
        .set(countKey, n + 1)
        .set(targetKey, watch.id)
        .set(this.#k("watch_ids", watch.id), watch.accountId)
        .set(this.#watchKey(watch), watch)
        .set(this.#k("watch_due", watch.nextRunAt, watch.id), watch.accountId);
      if (watch.pending) op.set(this.#k("watch_pending", watch.id), watch.accountId);
      if (watch.nextAnswersAt) {
        op.set(this.#k("watch_answers_due", watch.nextAnswersAt, watch.id), watch.accountId);
      }
      if (watch.email) {
        const ref = (kind: EmailTokenRef["kind"]): EmailTokenRef => ({
          accountId: watch.accountId,
          watchId: watch.id,
          kind,
        });
        op.set(this.#k("watch_email_tokens", watch.email.confirmHash), ref("confirm"));
        op.set(this.#k("watch_email_tokens", watch.email.unsubscribeHash), ref("unsubscribe"));
      }
      if ((await op.commit()).ok) return "created";
    }
    throw new Error("WatchStore.create: too much contention");
  }

  /** A watch of an account, with its versionstamp; null when there is none. */
  async get(accountId: string, id: string): Promise<Deno.KvEntryMaybe<Watch>> {
    return await this.kv.get<Watch>(this.#k("watches", accountId, id));
  }

  /** A watch by id alone (the scheduler's indexes carry the account). */
  async getById(id: string): Promise<Deno.KvEntryMaybe<Watch> | null> {
    const account = (await this.kv.get<string>(this.#k("watch_ids", id))).value;
    return account ? await this.get(account, id) : null;
  }

  /** The watches of an account, oldest first (at most `limit`). */
  async list(accountId: string, limit = 1000): Promise<Watch[]> {
    const out: Watch[] = [];
    for await (
      const e of this.kv.list<Watch>({ prefix: this.#k("watches", accountId) }, { limit })
    ) out.push(e.value);
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Every watch of the service, with its versionstamp (a sweep: lib/features/watch/sealing.ts). */
  everyWatch(): AsyncIterable<Deno.KvEntry<Watch>> {
    return this.kv.list<Watch>({ prefix: this.#k("watches") });
  }

  /**
   * Replaces a watch read as `current` by `next` (moving its due and pending entries), in one
   * commit with `extra` writes; false when the watch changed or went meanwhile.
   */
  async save(
    current: Deno.KvEntry<Watch>,
    next: Watch,
    extra?: (op: Deno.AtomicOperation) => void,
  ): Promise<boolean> {
    const was = current.value;
    const op = this.kv.atomic().check(current).set(current.key, next);
    if (was.nextRunAt !== next.nextRunAt) {
      op.delete(this.#k("watch_due", was.nextRunAt, was.id));
      op.set(this.#k("watch_due", next.nextRunAt, next.id), next.accountId);
    }
    if ((was.nextAnswersAt ?? null) !== (next.nextAnswersAt ?? null)) {
      if (was.nextAnswersAt) op.delete(this.#k("watch_answers_due", was.nextAnswersAt, was.id));
      if (next.nextAnswersAt) {
        op.set(this.#k("watch_answers_due", next.nextAnswersAt, next.id), next.accountId);
      }
    }
    if (was.pending && !next.pending) op.delete(this.#k("watch_pending", was.id));
    if (!was.pending && next.pending) op.set(this.#k("watch_pending", next.id), next.accountId);
    extra?.(op);
    return (await op.commit()).ok;
  }

  /** Deletes a watch and its indexes at once (it never runs again); false if it was not there. */
  async remove(accountId: string, id: string): Promise<Watch | null> {
    const countKey = this.#k("watch_count", accountId);
    for (let attempt = 0; attempt < 20; attempt++) {
      const [entry, count] = await this.kv.getMany<[Watch, number]>([
        this.#k("watches", accountId, id),
        countKey,
      ]);
      const w = entry.value;
      if (!w) return null;
      const op = this.kv.atomic().check(entry, count)
        .delete(entry.key)
        .delete(this.#k("watch_ids", id))
        .delete(this.#k("watch_targets", accountId, w.target))
        .delete(this.#k("watch_due", w.nextRunAt, id))
        .delete(this.#k("watch_pending", id))
        .set(countKey, Math.max(0, (count.value ?? 1) - 1));
      if (w.nextAnswersAt) op.delete(this.#k("watch_answers_due", w.nextAnswersAt, id));
      if (w.email) {
        op.delete(this.#k("watch_email_tokens", w.email.confirmHash));
        op.delete(this.#k("watch_email_tokens", w.email.unsubscribeHash));
      }
      if ((await op.commit()).ok) return w;
    }
    throw new Error("WatchStore.remove: too much contention");
  }

  /** Watches due at `now`, earliest first (at most `limit`). */
  async due(now: number, limit: number): Promise<{ id: string; accountId: string }[]> {
    const out: { id: string; accountId: string }[] = [];
    for await (
      const e of this.kv.list<string>({
        start: this.#k("watch_due"),
        end: this.#k("watch_due", now + 1),
      }, { limit })
    ) out.push({ id: String(e.key[3]), accountId: e.value });
    return out;
  }

  /** What an e-mail token (by its hash) points to, or null. */
  async emailToken(hash: string): Promise<EmailTokenRef | null> {
    return (await this.kv.get<EmailTokenRef>(this.#k("watch_email_tokens", hash))).value;
  }

  /** Forgets an e-mail token (the address unsubscribed: its tokens go with it). */
  forgetEmailToken(op: Deno.AtomicOperation, hash: string): void {
    op.delete(this.#k("watch_email_tokens", hash));
  }

  /** Watches whose scheduled answer run is due at `now`, earliest first (at most `limit`). */
  async answersDue(now: number, limit: number): Promise<{ id: string; accountId: string }[]> {
    const out: { id: string; accountId: string }[] = [];
    for await (
      const e of this.kv.list<string>({
        start: this.#k("watch_answers_due"),
        end: this.#k("watch_answers_due", now + 1),
      }, { limit })
    ) out.push({ id: String(e.key[3]), accountId: e.value });
    return out;
  }

  /** Watches waiting for a scan (at most `limit`). */
  async pending(limit: number): Promise<{ id: string; accountId: string }[]> {
    const out: { id: string; accountId: string }[] = [];
    for await (
      const e of this.kv.list<string>({ prefix: this.#k("watch_pending") }, { limit })
    ) out.push({ id: String(e.key[2]), accountId: e.value });
    return out;
  }

  /** Adds a new delivery (due at once) to an operation. */
  addDelivery(op: Deno.AtomicOperation, delivery: Delivery): void {
    op.set(this.#deliveryKey(delivery), delivery, { expireIn: DELIVERY_TTL_MS });
    if (delivery.nextAttemptAt !== null) {
      op.set(
        this.#k("watch_outbox", delivery.nextAttemptAt, delivery.id),
        {
          accountId: delivery.accountId,
          createdAt: delivery.createdAt,
          deliveryId: delivery.id,
        } satisfies OutboxRef,
      );
    }
  }

  /** Deliveries with an attempt due at `now`, earliest first. */
  async outbox(now: number, limit: number): Promise<Deno.KvEntry<OutboxRef>[]> {
    const out: Deno.KvEntry<OutboxRef>[] = [];
    for await (
      const e of this.kv.list<OutboxRef>({
        start: this.#k("watch_outbox"),
        end: this.#k("watch_outbox", now + 1),
      }, { limit })
    ) out.push(e);
    return out;
  }

  /** A delivery by its outbox reference. */
  async delivery(ref: OutboxRef): Promise<Deno.KvEntryMaybe<Delivery>> {
    return await this.kv.get<Delivery>(
      this.#deliveryKey({ accountId: ref.accountId, createdAt: ref.createdAt, id: ref.deliveryId }),
    );
  }

  /**
   * Takes a due delivery for `leaseMs` (its outbox entry moves to the lease's end, so a process
   * that dies mid-attempt leaves it to the next tick); false when another process took it.
   */
  async lease(entry: Deno.KvEntry<OutboxRef>, until: number): Promise<boolean> {
    return (await this.kv.atomic().check(entry).delete(entry.key)
      .set(this.#k("watch_outbox", until, entry.value.deliveryId), entry.value).commit()).ok;
  }

  /**
   * Records an attempt's outcome: the delivery as `next`, and its outbox entry (leased until
   * `leasedUntil`) replaced by the next attempt's, or deleted when there is none.
   */
  async settle(next: Delivery, leasedUntil: number): Promise<void> {
    const op = this.kv.atomic()
      .set(this.#deliveryKey(next), next, { expireIn: DELIVERY_TTL_MS })
      .delete(this.#k("watch_outbox", leasedUntil, next.id));
    if (next.nextAttemptAt !== null) {
      op.set(
        this.#k("watch_outbox", next.nextAttemptAt, next.id),
        {
          accountId: next.accountId,
          createdAt: next.createdAt,
          deliveryId: next.id,
        } satisfies OutboxRef,
      );
    }
    await op.commit();
  }

  /** An account's deliveries, newest first (at most `limit`). */
  async deliveries(accountId: string, limit = 20): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for await (
      const e of this.kv.list<Delivery>({ prefix: this.#k("watch_deliveries", accountId) }, {
        reverse: true,
        limit,
      })
    ) out.push(e.value);
    return out;
  }
}
