/**
 * An open-loop loader for latency at a fixed rate (Debian's wrk has no rate option): sends GET
 * requests to a URL at `rate` per second for `seconds`, from its own process, over a pool of
 * keep-alive HTTP/1.1 connections written and read directly (a `fetch` loader saturates near
 * 6,000 req/s here and would measure itself). Latency is counted from when a request was due, so a
 * stall counts (no coordinated omission). Prints {sent, ok, errors, p50, p90, p99, max} in ms.
 *
 *   deno run -A tests/bench/rate_loader.ts <url> <rate> <seconds> [connections]
 */
const [urlArg, rateArg, secondsArg, connArg] = Deno.args;
const url = new URL(urlArg);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const CONNECTIONS = Number(connArg ?? 32);
const request = new TextEncoder().encode(
  `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: */*\r\n\r\n`,
);
const total = Math.round(rate * seconds);
const latencies: number[] = [];
let ok = 0;
let errors = 0;
let next = 0;
const start = performance.now();
const due = (i: number) => start + (i * 1000) / rate;

const decoder = new TextDecoder();

/** Where the blank line ending the head starts in data[from..len), or -1. */
function headEnd(data: Uint8Array, len: number, from: number): number {
  for (let i = Math.max(0, from); i + 3 < len; i++) {
    if (data[i] === 13 && data[i + 1] === 10 && data[i + 2] === 13 && data[i + 3] === 10) {
      return i;
    }
  }
  return -1;
}

/**
 * Reads one response from the connection; returns its status. Only the head is decoded, once:
 * the loader must cost as little as it can, or it measures itself.
 */
async function readResponse(
  conn: Deno.Conn,
  buf: { data: Uint8Array; len: number },
): Promise<number> {
  let scanned = 0;
  let need = -1;
  let status = 0;
  for (;;) {
    if (need < 0) {
      const end = headEnd(buf.data, buf.len, scanned - 3);
      scanned = buf.len;
      if (end >= 0) {
        const head = decoder.decode(buf.data.subarray(0, end));
        status = Number(head.slice(9, 12));
        need = end + 4 + Number(head.match(/\r\ncontent-length:\s*(\d+)/i)?.[1] ?? 0);
      }
    }
    if (need >= 0 && buf.len >= need) {
      buf.data.copyWithin(0, need, buf.len);
      buf.len -= need;
      return status;
    }
    if (buf.len === buf.data.length) {
      const bigger = new Uint8Array(buf.data.length * 2);
      bigger.set(buf.data);
      buf.data = bigger;
    }
    const n = await conn.read(buf.data.subarray(buf.len));
    if (n === null) throw new Error("connection closed");
    buf.len += n;
  }
}

async function lane(): Promise<void> {
  let conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
  const buf = { data: new Uint8Array(64 * 1024), len: 0 };
  for (;;) {
    const i = next++;
    if (i >= total) break;
    const wait = due(i) - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    try {
      await conn.write(request);
      const status = await readResponse(conn, buf);
      latencies.push(performance.now() - due(i));
      if (status === 200) ok++;
      else errors++;
    } catch {
      errors++;
      conn.close();
      conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
      buf.len = 0;
    }
  }
  conn.close();
}

await Promise.all(Array.from({ length: CONNECTIONS }, lane));
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
