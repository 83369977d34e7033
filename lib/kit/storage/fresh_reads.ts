/**
 * Coalesces concurrent reads of the same thing without ever answering from the past: a caller
 * shares a read only if that read started after the caller arrived. So a change committed before
 * a request arrives (a key revoked in any process) is always seen by it, exactly as if every
 * request read on its own, while a burst of requests for one key costs two reads in flight at most
 * instead of one each.
 *
 * Per name there is at most one read running and one queued. A caller that arrives while a read
 * runs joins the queued one, which starts when the running one settles.
 *
 * @example
 * ```ts
 * const reads = new FreshReads<ApiKeyEntry | null>();
 * const entry = await reads.read(hash, () => kvGetStrong(hash));
 * ```
 */
export class FreshReads<T> {
  #running = new Map<string, Promise<T>>();
  #queued = new Map<string, Promise<T>>();

  /** The value of `load()` from a call that started no earlier than this one. */
  read(name: string, load: () => Promise<T>): Promise<T> {
    const running = this.#running.get(name);
    if (!running) return this.#start(name, load);
    const queued = this.#queued.get(name);
    if (queued) return queued;
    const next = running.then(() => {}, () => {}).then(() => {
      this.#queued.delete(name);
      return this.#start(name, load);
    });
    this.#queued.set(name, next);
    return next;
  }

  /** Reads running or queued (for tests). */
  get size(): number {
    return this.#running.size + this.#queued.size;
  }

  #start(name: string, load: () => Promise<T>): Promise<T> {
    let p: Promise<T>;
    try {
      p = load();
    } catch (error) {
      p = Promise.reject(error);
    }
    const settled = p.finally(() => {
      if (this.#running.get(name) === settled) this.#running.delete(name);
    });
    this.#running.set(name, settled);
    return settled;
  }
}
