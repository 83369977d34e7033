/**
 * GET /healthz: is this process able to serve? Checks, each time-boxed: KV (a strong read), the
 * job backlog (domains in flight, and queued jobs on the polled queue), and the rate limiter
 * (Deno KV, or Redis through Upstash: a PING). 200 when every check passes, 503 otherwise.
 * Never a secret: no URL, token or error text from a dependency, only kinds, timings and counts.
 */
import { PRODUCT } from "./config.ts";
import type { Store } from "./store.ts";

/** The JSON body of /healthz. */
export interface Health {
  ok: boolean;
  service: string;
  version: string;
  kv: { ok: boolean; ms: number };
  queue: {
    ok: boolean;
    kind: "queue" | "poll";
    /** Domains queued or running (in-flight marks), counted up to 1000. */
    inflight: number | null;
    /** Jobs waiting in the polled queue (absent for Deno KV's own queue, which cannot tell). */
    backlog?: number | null;
    /** Age of the oldest in-flight mark. */
    oldestMs: number | null;
  };
  limiter: { kind: "kv" | "redis"; ok: boolean; ms: number };
}

const TIMEOUT_MS = 2000;

/** Runs the checks. */
export async function checkHealth(store: Store, now: () => number = Date.now): Promise<Health> {
  const [kv, queue, limiter] = await Promise.all([
    timed(() => store.kv.get(["health"], { consistency: "strong" })),
    timed(async () => {
      const [inflight, backlog] = await Promise.all([
        store.inflightSummary(1000),
        store.queue.backlog(1000),
      ]);
      return { inflight, backlog };
    }),
    timed(() => store.limiter.ping()),
  ]);
  const inflight = queue.value?.inflight;
  const health: Health = {
    ok: kv.ok && queue.ok && limiter.ok,
    service: store.service,
    version: PRODUCT.version,
    kv: { ok: kv.ok, ms: kv.ms },
    queue: {
      ok: queue.ok,
      kind: store.queue.kind,
      inflight: inflight?.count ?? null,
      ...(store.queue.kind === "poll" ? { backlog: queue.value?.backlog ?? null } : {}),
      oldestMs: inflight?.oldestSince != null ? Math.max(0, now() - inflight.oldestSince) : null,
    },
    limiter: { kind: store.limiter.kind, ok: limiter.ok, ms: limiter.ms },
  };
  return health;
}

async function timed<T>(check: () => Promise<T>): Promise<{ ok: boolean; ms: number; value?: T }> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const value = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: elapsed(started), value };
  } catch {
    return { ok: false, ms: elapsed(started) };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
