/**
 * Connections are bounded (lib/kit/net/conn_guard.ts in front of Deno.serve): caps in total and per
 * client address with a clear refusal, a request-header timeout (408, then closed), idle
 * keep-alive connections closed, a 408 for a slow body closes its connection, and running out of
 * file descriptors (EMFILE) never stops the server. The guard's own tests use an injected clock;
 * the flood tests start the real server as `deno task start` does (its permissions and flags),
 * with the guard in front of its loopback bind (CONN_GUARD=1: what a bind to every interface
 * gets by default).
 */
import assert from "node:assert/strict";
import net from "node:net";
import { errorAnswer } from "../../lib/kit/web/errors.ts";
import { readCappedBody } from "../../lib/kit/web/http_body.ts";
import { startConnGuard } from "../../lib/kit/net/conn_guard.ts";
import { startLikeStartTask, startTaskArgs } from "../helpers/start_task_server.ts";

const FLOOD = new URL("./helpers/conn_flood.ts", import.meta.url).pathname;

/** Polls `check` every 10 ms until it holds (throws after `ms`: generous, never a measurement). */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A raw client connection from a chosen loopback source address. */
function client(port: number, local = "127.0.0.1") {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress: local });
  let data = "";
  let closed = false;
  socket.setEncoding("latin1");
  socket.on("data", (d: string) => (data += d));
  socket.on("error", () => {});
  socket.on("close", () => (closed = true));
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return {
    connected,
    text: () => data,
    isClosed: () => closed,
    send: (text: string) => socket.write(text),
    destroy: () => socket.destroy(),
  };
}

const GET = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";

/** An upstream that answers with the client address the guard maps its connection to. */
function startUpstream(clientOf: (addr: Deno.NetAddr) => Deno.NetAddr | undefined) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (_req, info) => Response.json({ client: clientOf(info.remoteAddr)?.hostname ?? null }),
  );
}

Deno.test("[connections] caps: one address past its share, and everyone past the total, get a JSON 503 and are closed", async () => {
  let clientOf: (addr: Deno.NetAddr) => Deno.NetAddr | undefined = () => undefined;
  const upstream = startUpstream((p) => clientOf(p));
  const guard = startConnGuard({
    hostname: "127.0.0.1",
    port: 0,
    upstream: { hostname: "127.0.0.1", port: upstream.addr.port },
    maxConnections: 4,
    maxPerAddress: 2,
    headerTimeoutMs: 60_000,
    idleTimeoutMs: 60_000,
  });
  clientOf = guard.clientOf;
  const port = guard.addr.port;
  const held: ReturnType<typeof client>[] = [];
  try {
    for (const local of ["127.0.0.1", "127.0.0.1"]) held.push(client(port, local));
    await until(() => guard.stats().open === 2, "two open connections");
    // A third from the same address: refused, clearly, and closed.
    const third = client(port, "127.0.0.1");
    await until(third.isClosed, "the refused connection to close");
    assert.match(third.text(), /^HTTP\/1\.1 503 /);
    assert.match(third.text(), /\r\nretry-after: 5\r\n/i);
    assert.match(third.text(), /\r\ncontent-type: application\/json\r\n/i);
    const body = JSON.parse(third.text().slice(third.text().indexOf("\r\n\r\n") + 4));
    assert.match(body.error, /from your address/);
    // Other addresses fill the total...
    held.push(client(port, "127.0.0.2"), client(port, "127.0.0.3"));
    await until(() => guard.stats().open === 4, "four open connections");
    // ...past which anyone is refused.
    const fifth = client(port, "127.0.0.4");
    await until(fifth.isClosed, "the refused connection to close");
    assert.match(fifth.text(), /^HTTP\/1\.1 503 /);
    assert.match(fifth.text(), /too many open connections/);
    assert.deepEqual(
      { total: guard.stats().refusedTotal, address: guard.stats().refusedPerAddress },
      { total: 1, address: 1 },
    );
    // The held connections are served, and the server sees each client's own address.
    held[0].send(GET);
    held[2].send(GET);
    await until(() => held[0].text().includes("}") && held[2].text().includes("}"), "answers");
    assert.match(held[0].text(), /^HTTP\/1\.1 200 [\s\S]*"client":"127\.0\.0\.1"/);
    assert.match(held[2].text(), /^HTTP\/1\.1 200 [\s\S]*"client":"127\.0\.0\.2"/);
    // A slot given back is a slot to use again.
    held[1].destroy();
    await until(() => guard.stats().open === 3, "the slot to be given back");
    const again = client(port, "127.0.0.1");
    again.send(GET);
    await until(() => again.text().includes("}"), "an answer");
    assert.match(again.text(), /^HTTP\/1\.1 200 /);
    again.destroy();
  } finally {
    for (const c of held) c.destroy();
    await guard.close();
    await upstream.shutdown();
  }
});

Deno.test("[connections] a head that never completes gets 408 and is closed; idle keep-alive is closed; a served connection is not", async () => {
  const clock = { now: 1_000_000 };
  let clientOf: (addr: Deno.NetAddr) => Deno.NetAddr | undefined = () => undefined;
  const upstream = startUpstream((p) => clientOf(p));
  const guard = startConnGuard({
    hostname: "127.0.0.1",
    port: 0,
    upstream: { hostname: "127.0.0.1", port: upstream.addr.port },
    maxConnections: 100,
    maxPerAddress: 100,
    headerTimeoutMs: 10_000,
    idleTimeoutMs: 60_000,
    now: () => clock.now,
    sweepMs: 10,
  });
  clientOf = guard.clientOf;
  const port = guard.addr.port;
  const slow = client(port);
  const silent = client(port);
  const served = client(port);
  try {
    slow.send("GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: a");
    served.send(GET);
    await until(() => served.text().includes("}"), "the served answer");
    await until(() => guard.stats().open === 3, "three connections");
    // Real time passes, the injected clock does not: nothing times out.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(slow.isClosed() || silent.isClosed() || served.isClosed(), false);
    clock.now += 10_001;
    await until(() => slow.isClosed() && silent.isClosed(), "the header timeouts");
    assert.match(slow.text(), /^HTTP\/1\.1 408 /);
    assert.match(slow.text(), /Request headers not received within 10 seconds/);
    assert.equal(silent.text(), "", "a connection that sent nothing is just closed");
    assert.equal(served.isClosed(), false, "a keep-alive connection within its idle time stays");
    assert.equal(guard.stats().headerTimeouts, 2);
    // It serves a second request, then is closed once idle for the keep-alive timeout.
    served.send(GET);
    await until(() => served.text().split("HTTP/1.1 200").length === 3, "the second answer");
    clock.now += 60_001;
    await until(served.isClosed, "the idle close");
    assert.equal(guard.stats().idleClosed, 1);
    assert.equal(guard.stats().open, 0);
  } finally {
    for (const c of [slow, silent, served]) c.destroy();
    await guard.close();
    await upstream.shutdown();
  }
});

Deno.test("[connections] a first request head over 16 KiB gets 431 and never reaches the HTTP server", async () => {
  let served = 0;
  const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    served++;
    return new Response("{}");
  });
  const guard = startConnGuard({
    hostname: "127.0.0.1",
    port: 0,
    upstream: { hostname: "127.0.0.1", port: upstream.addr.port },
    maxConnections: 10,
    maxPerAddress: 10,
    headerTimeoutMs: 60_000,
    idleTimeoutMs: 60_000,
  });
  const big = client(guard.addr.port);
  try {
    big.send(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20 * 1024)}`);
    await until(big.isClosed, "the connection to be closed");
    assert.match(big.text(), /^HTTP\/1\.1 431 /);
    assert.equal(served, 0);
    assert.equal(guard.stats().open, 0);
  } finally {
    big.destroy();
    await guard.close();
    await upstream.shutdown();
  }
});

Deno.test("[connections] a body that does not arrive in time gets 408 and its connection is closed", async () => {
  // The app's body reader and error answer, with a short body deadline.
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      try {
        await readCappedBody(req, 1024, 200);
        return new Response("{}");
      } catch (error) {
        const a = errorAnswer(error, { path: "/", method: "POST" }, { log: () => {} });
        return Response.json(a.body, { status: a.status, headers: a.headers });
      }
    },
  );
  const guard = startConnGuard({
    hostname: "127.0.0.1",
    port: 0,
    upstream: { hostname: "127.0.0.1", port: upstream.addr.port },
    maxConnections: 10,
    maxPerAddress: 10,
    headerTimeoutMs: 60_000,
    idleTimeoutMs: 60_000,
  });
  const slow = client(guard.addr.port);
  try {
    slow.send(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    await until(slow.isClosed, "the connection to be closed after the 408");
    assert.match(slow.text(), /^HTTP\/1\.1 408 /);
    assert.match(slow.text(), /\r\nconnection: close\r\n/i);
    assert.match(slow.text(), /Request body not received within 0\.2 seconds/);
    assert.equal(guard.stats().open, 0);
  } finally {
    slow.destroy();
    await guard.close();
    await upstream.shutdown();
  }
});

/**
 * Starts a flood process (`perAddress` connections from each source address, 127.0.0.<first>
 * upwards); resolves with its first report once every connection is open.
 */
async function startFlood(
  port: number,
  idle: number,
  slow: number,
  first: number,
  perAddress = 250,
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-check",
      FLOOD,
      String(port),
      String(idle),
      String(slow),
      String(perAddress),
      String(first),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const writer = child.stdin.getWriter();
  let buffered = "";
  const nextLine = async () => {
    while (!buffered.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the flood process ended");
      buffered += value;
    }
    const i = buffered.indexOf("\n");
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    return JSON.parse(line);
  };
  const opened = await nextLine();
  return {
    opened,
    async report() {
      await writer.write(new TextEncoder().encode("\n"));
      return await nextLine();
    },
    async stop() {
      await writer.close().catch(() => {});
      await lines.cancel().catch(() => {});
      await child.status;
    },
  };
}

/** GET `path` and the time it took. */
async function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  await res.body?.cancel();
  return { status: res.status, ms: performance.now() - t0 };
}

Deno.test({
  name: "[connections] 20,000 idle and 500 slowloris connections leave the real server serving",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "conn-flood-" });
    const server = await startLikeStartTask({
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_REQUESTS: "0",
      CONN_GUARD: "1",
      // Long enough for most of the flood to be open at once on a busy machine; how many are
      // (and how many the cap refused) depends on how fast this machine opens them, so it is
      // printed, not asserted: the caps are asserted above, with an injected clock.
      HEADER_TIMEOUT_MS: "8000",
    });
    const port = Number(new URL(server.base).port);
    const floods: Awaited<ReturnType<typeof startFlood>>[] = [];
    try {
      assert.equal((await timedGet(`${server.base}/healthz`)).status, 200);
      // The caps come from the descriptors this process really has under the start task's
      // permissions (counted: /proc/self/limits is refused there), not from an assumed 1024.
      const line = server.output().match(/^Connections: .*$/m)?.[0] ?? "";
      console.log(line);
      assert.match(line, /free file descriptors, counted at start-up/);
      const max = Number(line.match(/at most (\d+) open/)?.[1]);
      const perIp = Number(line.match(/, (\d+) per client address/)?.[1]);
      assert.ok(max > 5000, `the cap is ${max} on a machine with 20,000 descriptors`);
      assert.ok(perIp > 0 && perIp <= max / 16, `${perIp} per address of ${max}`);
      // Two processes: each holds 10,250 sockets, within this machine's per-process file limit.
      floods.push(await startFlood(port, 10_000, 250, 2));
      floods.push(await startFlood(port, 10_000, 250, 60));
      console.log(`flood open: ${JSON.stringify(floods.map((f) => f.opened))}`);
      // Held: the server still answers a normal request, promptly.
      const during = await timedGet(`${server.base}/healthz`);
      assert.equal(during.status, 200);
      // Promptly: 9 to 1,400 ms in runs on the shared 2-core machine, while the same thread
      // accepts, refuses and times out thousands of connections; a server that stopped serving
      // never answers.
      assert.ok(during.ms < 3000, `/healthz took ${during.ms.toFixed(0)} ms under the flood`);
      console.log(`/healthz under 20,500 connections: ${during.ms.toFixed(0)} ms`);
      // After the header timeout, no flood connection is left open: the slowloris ones got 408
      // (or the 503 refusal), the idle ones were closed or refused.
      type Counts = Record<"idle" | "slow", Record<string, number>>;
      let reports: Counts[] = [];
      const end = Date.now() + 30_000;
      do {
        await new Promise((r) => setTimeout(r, 500));
        reports = await Promise.all(floods.map((f) => f.report() as Promise<Counts>));
      } while (reports.some((r) => r.idle.open || r.slow.open) && Date.now() < end);
      console.log(`flood connections: ${JSON.stringify(reports)}`);
      for (const r of reports) {
        assert.equal(r.slow.open ?? 0, 0, JSON.stringify(r));
        assert.equal(r.idle.open ?? 0, 0, JSON.stringify(r));
        assert.equal((r.slow.timedOut ?? 0) + (r.slow.refused ?? 0), 250, JSON.stringify(r));
        assert.equal((r.idle.closed ?? 0) + (r.idle.refused ?? 0), 10_000, JSON.stringify(r));
      }
      const after = await timedGet(`${server.base}/healthz`);
      assert.equal(after.status, 200);
      assert.doesNotMatch(server.output(), /uncaught|Too many open files/i);
    } finally {
      for (const f of floods) await f.stop();
      await server.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[connections] one address holding every connection it can does not stop another from being served",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "conn-one-address-" });
    // A per-address setting above the total is lowered to half of it: one address never takes
    // every slot, whatever the operator set.
    const server = await startLikeStartTask({
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_REQUESTS: "0",
      CONN_GUARD: "1",
      MAX_CONNECTIONS: "40",
      MAX_CONNECTIONS_PER_IP: "100",
      HEADER_TIMEOUT_MS: "60000",
    });
    const port = Number(new URL(server.base).port);
    let flood: Awaited<ReturnType<typeof startFlood>> | undefined;
    try {
      assert.match(server.output(), /at most 40 open \(MAX_CONNECTIONS\), 20 per client address/);
      // 60 idle connections, all from 127.0.0.2, held open.
      flood = await startFlood(port, 60, 0, 2, 60);
      let report: Record<"idle", Record<string, number>>;
      const end = Date.now() + 20_000;
      do {
        await new Promise((r) => setTimeout(r, 200));
        report = await flood.report();
      } while ((report.idle.open ?? 0) + (report.idle.refused ?? 0) < 60 && Date.now() < end);
      assert.equal(report.idle.open, 20, JSON.stringify(report));
      assert.equal(report.idle.refused, 40, JSON.stringify(report));
      // Another address (127.0.0.1) is served while they are held.
      for (let i = 0; i < 3; i++) {
        const r = await timedGet(`${server.base}/healthz`);
        assert.equal(r.status, 200);
      }
    } finally {
      await flood?.stop();
      await server.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[connections] out of file descriptors (EMFILE): open connections are served, and new ones once some close",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "conn-emfile-" });
    // A low file limit and a connection cap set far above it: accept() itself runs out.
    const server = await startLikeStartTask({
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_REQUESTS: "0",
      CONN_GUARD: "1",
      HEADER_TIMEOUT_MS: "3000",
      MAX_CONNECTIONS: "5000",
    }, { fileLimit: 400 });
    const port = Number(new URL(server.base).port);
    const kept = client(port);
    let flood: Awaited<ReturnType<typeof startFlood>> | undefined;
    try {
      kept.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
      await until(() => /"ok":true/.test(kept.text()), "the first answer");
      flood = await startFlood(port, 600, 0, 2, 250);
      await until(() => /fdExhausted":true/.test(server.output()), "the server to run out", 20_000);
      // The connection it already holds is served...
      const before = kept.text().length;
      kept.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
      await until(
        () => /"ok":true/.test(kept.text().slice(before)),
        "the kept connection's answer",
      );
      // ...and once the header timeout has closed the flood, new connections are accepted again.
      let report: Record<"idle", Record<string, number>>;
      const end = Date.now() + 30_000;
      do {
        await new Promise((r) => setTimeout(r, 500));
        report = await flood.report();
      } while (report.idle.open && Date.now() < end);
      assert.equal(report.idle.open ?? 0, 0, JSON.stringify(report));
      const after = await timedGet(`${server.base}/healthz`);
      assert.equal(after.status, 200);
      assert.doesNotMatch(server.output(), /uncaught/i);
    } finally {
      kept.destroy();
      await flood?.stop();
      await server.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("[connections] a port already in use: a clear message and exit code 4", async () => {
  const taken = Deno.listen({ hostname: "0.0.0.0", port: 0 });
  const dir = await Deno.makeTempDir({ prefix: "conn-port-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      // As `deno task start` runs it (its permissions, not -A), from the repository's root.
      args: [...(await startTaskArgs())],
      cwd: new URL("../../", import.meta.url).pathname,
      env: { KV_PATH: `${dir}/kv.sqlite3`, PORT: String(taken.addr.port), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 4, stderr);
    assert.match(stderr, new RegExp(`Port ${taken.addr.port} is already in use`));
    assert.doesNotMatch(stderr, /uncaught/i);
  } finally {
    taken.close();
    await Deno.remove(dir, { recursive: true });
  }
});
