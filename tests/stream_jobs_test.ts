/**
 * Stream jobs (lib/kit/isolate/protocol.ts StreamJobModule: a server log's upload): the caller's
 * bytes go into the worker a piece at a time, each piece read from the caller only when the worker
 * asks, so neither side holds more than a few pieces of an input however large; the job reports
 * how far it is; at its time limit its worker process is killed like any job's. The same job
 * module runs in worker processes (the default), scan threads (SCAN_ISOLATION=thread) and inline.
 * Stand-in jobs: tests/fixtures/greedy_jobs.ts `runStream`. Nothing here measures time: each
 * assertion waits for an answer or an event.
 */
import assert from "node:assert/strict";
import { startWorkerProcesses } from "../lib/kit/isolate/process_pool.ts";
import { startScanThreads } from "../lib/kit/isolate/scan_threads.ts";
import { denoForWorkers } from "../lib/kit/isolate/worker_command.ts";
import { inlineRunner, ScanIsolationError } from "../lib/kit/isolate/runner.ts";
import { STREAM_PIECE_BYTES, STREAM_PIECES_AHEAD } from "../lib/kit/isolate/protocol.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const JOBS = new URL("greedy_jobs.ts", FIXTURES).href;
const MB = 1024 * 1024;
const KINDS = [
  "stream-all",
  "stream-spin",
  `stream-stop-${MB}`,
  "stream-own",
  "stream-wait-5",
  "pid",
];
const jobs = Object.fromEntries(KINDS.map((k) => [k, JOBS]));

function runner(kind: "process" | "thread" | "inline", ownHeap?: Record<string, number>) {
  if (kind === "process") {
    return startWorkerProcesses({
      deno: denoForWorkers()!,
      heapMb: 96,
      timeoutMs: 60_000,
      maxWorkers: 1,
      warm: 1,
      jobs,
      ownHeap,
      read: [FIXTURES.pathname],
    });
  }
  if (kind === "thread") {
    return startScanThreads({ heapMb: 64, timeoutMs: 60_000, maxThreads: 1, jobs });
  }
  return inlineRunner({}, jobs);
}

/**
 * An input of `chunks` chunks of `size` bytes (byte i of the input is i mod 251), produced only
 * when read: `pulled` counts the chunks its reader took, `cancelled` says it was let go.
 */
function input(chunks: number, size: number, breakAfter = Infinity) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (state.pulled === breakAfter) {
        c.error(new Error("the client went away"));
        return;
      }
      if (state.pulled === chunks) {
        c.close();
        return;
      }
      const chunk = new Uint8Array(size);
      const base = state.pulled * size;
      for (let i = 0; i < size; i++) chunk[i] = (base + i) % 251;
      state.pulled++;
      c.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

interface Read {
  bytes: number;
  sum: number;
  pieces: number;
  largest: number;
  pid: number;
  heapMb: number;
}

for (const kind of ["process", "thread", "inline"] as const) {
  Deno.test(`[stream jobs/${kind}] the caller's stream is read only as far as the job has read, plus the pieces asked ahead; progress comes in order`, async () => {
    const r = runner(kind);
    try {
      const { stream, state } = input(64, MB);
      const seen: number[] = [];
      const read = await r.runStream(
        { kind: `stream-stop-${MB}` },
        stream,
        60_000,
        (p) => seen.push((p as { bytes: number }).bytes),
      ) as Read;
      // The job stopped after 1 MiB: of the 64 MiB offered, what was read is that, the pieces
      // asked ahead (at most 4 of 256 KiB) and the chunk in hand: at most 3 chunks of 1 MiB.
      assert.ok(read.bytes >= MB && read.bytes < 2 * MB, `${read.bytes}`);
      const ahead = Math.ceil((STREAM_PIECES_AHEAD * STREAM_PIECE_BYTES) / MB);
      assert.ok(state.pulled <= 1 + ahead + 1, `${state.pulled} of 64 chunks read`);
      assert.equal(state.cancelled, true, "the rest of the input is let go");
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
      assert.equal(seen.at(-1), read.bytes);
      if (kind === "thread") {
        // Chunks larger than a piece are cut: no message carries more than 256 KiB.
        assert.equal(read.largest, STREAM_PIECE_BYTES);
      } else if (kind === "process") {
        // The same cut; a piece reaches the job as the views of the pipe's reads it spans
        // (lib/kit/isolate/frames.ts bytesFrameHead), none over a piece.
        assert.ok(read.largest > 0 && read.largest <= STREAM_PIECE_BYTES, `${read.largest}`);
      }
    } finally {
      await r.close();
    }
  });

  Deno.test(`[stream jobs/${kind}] a whole input arrives intact, however it is cut; a broken input ends the job's stream with its error`, async () => {
    const r = runner(kind);
    try {
      // 3 MiB and a bit, in chunks that do not divide into pieces evenly.
      const { stream } = input(7, 480_013);
      const read = await r.runStream({ kind: "stream-wait-5" }, stream, 60_000) as Read;
      assert.equal(read.bytes, 7 * 480_013);
      let sum = 0;
      for (let i = 0; i < read.bytes; i++) sum = (Math.imul(sum, 31) + i % 251) >>> 0;
      assert.equal(read.sum, sum, "the bytes arrived in their order, none changed");
      const broken = input(10, 100_000, 3);
      const error = await r.runStream({ kind: "stream-all" }, broken.stream, 60_000)
        .then(() => null, (e) => e);
      assert.ok(error instanceof Error, String(error));
      assert.match(error.message, /the client went away/);
      // The worker is fine: the next job is served.
      const again = await r.runStream({ kind: "stream-all" }, input(2, 1000).stream, 60_000);
      assert.equal((again as Read).bytes, 2000);
    } finally {
      await r.close();
    }
  });
}

Deno.test("[stream jobs/process] a stream job that never returns is killed at its time limit: its process gone, its input let go, the next one served", async () => {
  const r = startWorkerProcesses({
    deno: denoForWorkers()!,
    heapMb: 64,
    timeoutMs: 60_000,
    maxWorkers: 1,
    warm: 1,
    jobs,
    read: [FIXTURES.pathname],
  });
  try {
    const { pid } = await r.runJob({ kind: "pid" }, 30_000) as { pid: number };
    const { stream, state } = input(64, MB);
    const error = await r.runStream({ kind: "stream-spin" }, stream, 1500).then(
      () => null,
      (e) => e,
    );
    assert.ok(error instanceof ScanIsolationError, String(error));
    assert.equal(error.kind, "time");
    assert.equal(state.cancelled, true);
    assert.ok(state.pulled < 64);
    const gone = async () => !(await Deno.stat(`/proc/${pid}`).then(() => true, () => false));
    for (let i = 0; i < 400 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(await gone(), `the spinning worker ${pid} is gone`);
    const next = await r.runStream({ kind: "stream-all" }, input(3, 1000).stream, 30_000) as Read;
    assert.equal(next.bytes, 3000);
    assert.notEqual(next.pid, pid, "a new worker took the killed one's place");
    assert.deepEqual({ killed: r.stats().killed, lost: r.stats().lost }, { killed: 1, lost: 0 });
  } finally {
    await r.close();
  }
});

Deno.test("[stream jobs/process] a kind with workers of its own runs with its own heap and loading its module alone, in one of the pool's slots", async () => {
  const r = runner("process", { "stream-own": 24 });
  try {
    let most = 0;
    const watch = setInterval(() => most = Math.max(most, r.stats!().workers), 5);
    const general = await r.runStream({ kind: "stream-all" }, input(1, 10).stream, 30_000) as Read;
    const own = await r.runStream({ kind: "stream-own" }, input(1, 10).stream, 30_000) as Read;
    const back = await r.runStream({ kind: "stream-all" }, input(1, 10).stream, 30_000) as Read;
    clearInterval(watch);
    // One slot: the general worker gave it up for the kind's own, which gave it back.
    assert.notEqual(own.pid, general.pid);
    assert.notEqual(back.pid, own.pid);
    assert.ok(most <= 1, `${most} workers at once in a pool of one`);
    // V8's limit counts the young generation too: 24 MB of old generation and a few more.
    assert.ok(own.heapMb < 40, `the kind's worker has ${own.heapMb} MB`);
    assert.ok(general.heapMb >= 96, `the general worker has ${general.heapMb} MB`);
    // Its worker loads its module alone: a job of another kind is not there.
    const alone = await r.runJob({ kind: "pid" }, 30_000) as { pid: number };
    assert.notEqual(alone.pid, own.pid);
  } finally {
    await r.close();
  }
});
