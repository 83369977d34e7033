/**
 * Group commit: atomic KV writes that arrive while one is being committed are combined into the
 * next commit, so a burst costs a few commits instead of one each (a commit to a local KV file
 * waits for the disk). A lone write is committed at once: nothing waits for company.
 *
 * Each item is written with its own checks. If a combined commit fails a check, or throws, every
 * item of it is committed again on its own, so each gets exactly the answer it would have had
 * alone. Items that share a `conflictKey` (e.g. the same domain's in-flight mark) are never in one
 * commit: after the first one commits, the others are answered `false` (its check would fail).
 */
interface Waiter<T> {
  item: T;
  resolve: (ok: boolean) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  #waiting: Waiter<T>[] = [];
  #running = false;

  constructor(
    private readonly kv: Deno.Kv,
    /** Adds one item's checks and mutations to an atomic operation. */
    private readonly add: (op: Deno.AtomicOperation, item: T) => void,
    /** Items with the same key conflict: at most one of them can commit. */
    private readonly conflictKey: (item: T) => string,
    /** Items per commit (Deno KV allows 100 checks and 1,000 mutations in one). */
    private readonly maxItems = 20,
  ) {}

  /** Commits the item; true when its checks held and it was written. */
  commit(item: T): Promise<boolean> {
    const done = new Promise<boolean>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
    });
    if (!this.#running) this.#run();
    return done;
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length) {
        await this.#flush(this.#waiting.splice(0, this.maxItems));
      }
    } finally {
      this.#running = false;
    }
  }

  async #flush(batch: Waiter<T>[]): Promise<void> {
    if (batch.length === 1) return await this.#alone(batch[0]);
    const seen = new Set<string>();
    const first: Waiter<T>[] = [];
    const repeats: Waiter<T>[] = [];
    for (const w of batch) {
      const key = this.conflictKey(w.item);
      (seen.has(key) ? repeats : first).push(w);
      seen.add(key);
    }
    let ok = false;
    try {
      const op = this.kv.atomic();
      for (const w of first) this.add(op, w.item);
      ok = (await op.commit()).ok;
    } catch {
      ok = false;
    }
    if (ok) {
      for (const w of first) w.resolve(true);
      for (const w of repeats) w.resolve(false);
      return;
    }
    for (const w of [...first, ...repeats]) await this.#alone(w);
  }

  async #alone(w: Waiter<T>): Promise<void> {
    try {
      const op = this.kv.atomic();
      this.add(op, w.item);
      w.resolve((await op.commit()).ok);
    } catch (error) {
      w.reject(error);
    }
  }
}
