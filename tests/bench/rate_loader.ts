/**
 * An open-loop loader for latency at a fixed rate (Debian's wrk has no rate option): sends GET
 * requests to a URL at `rate` per second for `seconds`, from its own process, over keep-alive
 * connections, and prints {sent, ok, errors, p50, p90, p99, max} in milliseconds as JSON.
 *
 *   deno run -A tests/bench/rate_loader.ts <url> <rate> <seconds>
 */
const [url, rateArg, secondsArg] = Deno.args;
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const latencies: number[] = [];
let errors = 0;
let ok = 0;
const inFlight = new Set<Promise<void>>();
const MAX_IN_FLIGHT = 64;
const start = performance.now();
const total = Math.round(rate * seconds);
for (let i = 0; i < total; i++) {
  const due = start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  // A bounded number of connections: when all are busy the next request waits, and that wait is
  // part of its measured latency.
  while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
  const t0 = performance.now();
  const p: Promise<void> = fetch(url).then(async (res) => {
    await res.arrayBuffer();
    // Latency is measured from when the request was due, so a stall counts (no coordinated omission).
    latencies.push(performance.now() - Math.min(t0, due));
    if (res.status === 200) ok++;
    else errors++;
  }).catch(() => {
    errors++;
  }).finally(() => inFlight.delete(p));
  inFlight.add(p);
}
await Promise.all(inFlight);
latencies.sort((a, b) => a - b);
const q = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
console.log(JSON.stringify({
  sent: total,
  ok,
  errors,
  p50: +q(0.5).toFixed(2),
  p90: +q(0.9).toFixed(2),
  p99: +q(0.99).toFixed(2),
  max: +(latencies.at(-1) ?? 0).toFixed(2),
}));
