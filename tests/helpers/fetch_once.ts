/**
 * A child program for tests/fetch_body_test.ts: fetches `http://site.test/` (mapped to
 * 127.0.0.1:<port>) once with the guarded fetcher in this isolate (no scan thread), then prints
 * `{"bytes", "truncated", "heapMb"}` as JSON. Run it with the start task's flags to see what the
 * fetcher costs the server's own heap.
 */
import { createGuardedFetcher } from "../../lib/kit/net/guarded_fetch.ts";

const [port, timeoutMs = "120000"] = Deno.args;
const fetcher = createGuardedFetcher({
  userAgent: "fetch-once/test",
  resolve: new Map([["site.test", { host: "127.0.0.1", port: Number(port) }]]),
  requestTimeoutMs: Number(timeoutMs),
});
try {
  const r = await fetcher.fetch("http://site.test/");
  // What the read keeps, not what it has left for the collector to take: a full collection first
  // (the test passes --expose-gc), so the figure does not depend on when V8 last collected.
  (globalThis as { gc?: () => void }).gc?.();
  console.log(JSON.stringify({
    bytes: r.bytes,
    truncated: r.truncated,
    heapMb: Math.round(Deno.memoryUsage().heapUsed / 1e6),
    collected: typeof (globalThis as { gc?: unknown }).gc === "function",
  }));
} finally {
  await fetcher.close();
}
