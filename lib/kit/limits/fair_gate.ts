/**
 * Expensive work admitted fairly per caller: at most `concurrency` tasks run at once, at most
 * `perCaller` of them for one caller, and a caller may have `maxQueued` more waiting; when a slot
 * frees, the callers waiting take turns (round robin), so one caller's backlog never holds
 * another's request behind all of it. A caller past its queue gets a 429 at once.
 *
 * Used for code validation (each job a worker's time, lib/features/validate/validate_request.ts) and
 * for views of stored records (lib/kit/web/record_views.ts). A caller is a client address as the
 * limits group it (an IPv4 address or an IPv6 /64); an IPv6 caller also counts in its /48,
 * which may have {@link FairGateOptions.perPrefix48} running and queued in all.
 *
 * @example
 * ```ts
 * const gate = new FairGate({ concurrency: 2, perCaller: 1, maxQueued: 4, what: "validations" });
 * const result = await gate.run(clientIp, () => runInThread(job));
 * ```
 */
import { RateLimitedError } from "../errors.ts";
import { ipv6Prefix48 } from "../net/client_ip.ts";

/** Options of a {@link FairGate}. */
export interface FairGateOptions {
  /** Tasks running at once, in all. */
  concurrency: number;
  /** Tasks running at once for one caller. */
  perCaller: number;
  /** Tasks one caller may have waiting; one more is refused (429). */
  maxQueued: number;
  /** Tasks one IPv6 /48 may have running and waiting in all (default 4 callers' worth). */
  perPrefix48?: number;
  /** What a task is, for the 429 message ("code validations"). */
  what: string;
  /** Seconds a refused caller is told to wait (default 5). */
  retryAfterSeconds?: number;
}

interface Waiting {
  start: () => void;
}

interface CallerState {
  running: number;
  queue: Waiting[];
}

/** See the module comment. */
export class FairGate {
  readonly #callers = new Map<string, CallerState>();
  /** Callers with something waiting, in turn order. */
  readonly #turns: string[] = [];
  readonly #prefixes = new Map<string, number>();
  #running = 0;

  constructor(private readonly options: FairGateOptions) {}

  /** Tasks running now (for tests and /healthz). */
  get running(): number {
    return this.#running;
  }

  /**
   * Runs `task` for `caller` when its turn comes.
   * @throws RateLimitedError (429) when the caller (or its /48) already has as much waiting as
   *   it may.
   */
  async run<T>(caller: string, task: () => Promise<T>): Promise<T> {
    const o = this.options;
    const state = this.#callers.get(caller) ?? { running: 0, queue: [] };
    const prefix = ipv6Prefix48(caller);
    const inPrefix = prefix ? this.#prefixes.get(prefix) ?? 0 : 0;
    const perPrefix = o.perPrefix48 ?? 4 * (o.perCaller + o.maxQueued);
    if (state.queue.length >= o.maxQueued || (prefix && inPrefix >= perPrefix)) {
      const seconds = o.retryAfterSeconds ?? 5;
      throw new RateLimitedError(
        `Too many ${o.what} at once from this ${
          prefix && inPrefix >= perPrefix ? "IPv6 network (/48)" : "address"
        }: wait for the ones in progress. Retry in ${seconds} seconds.`,
        seconds,
      );
    }
    this.#callers.set(caller, state);
    if (prefix) this.#prefixes.set(prefix, inPrefix + 1);
    try {
      if (this.#running >= o.concurrency || state.running >= o.perCaller) {
        await new Promise<void>((start) => {
          state.queue.push({ start });
          if (!this.#turns.includes(caller)) this.#turns.push(caller);
        });
      } else {
        this.#running++;
        state.running++;
      }
      try {
        return await task();
      } finally {
        this.#running--;
        state.running--;
        this.#next();
      }
    } finally {
      if (prefix) {
        const left = (this.#prefixes.get(prefix) ?? 1) - 1;
        if (left > 0) this.#prefixes.set(prefix, left);
        else this.#prefixes.delete(prefix);
      }
      if (state.running === 0 && state.queue.length === 0) this.#callers.delete(caller);
    }
  }

  /** Starts waiting tasks while there is room, taking callers in turn. */
  #next(): void {
    let looked = 0;
    while (this.#running < this.options.concurrency && looked < this.#turns.length) {
      const caller = this.#turns.shift()!;
      const state = this.#callers.get(caller);
      if (!state || state.queue.length === 0) continue;
      if (state.running >= this.options.perCaller) {
        this.#turns.push(caller);
        looked++;
        continue;
      }
      looked = 0;
      const waiting = state.queue.shift()!;
      this.#running++;
      state.running++;
      if (state.queue.length) this.#turns.push(caller);
      waiting.start();
    }
  }
}
