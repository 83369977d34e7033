/**
 * A child program for tests/scan_threads_test.ts: a pool of two stand-in scan threads
 * (tests/fixtures/greedy_thread.ts) given work that never returns to its event loop. Deno 2.9.6
 * cannot stop such a thread (lib/kit/isolate/scan_threads.ts), so this runs in a process of its own
 * that exits when done: in the test runner's process the threads would spin on for the rest of
 * the suite. Prints one JSON line of what happened.
 */
import { startScanThreads } from "../../lib/kit/isolate/scan_threads.ts";
import { ScanIsolationError } from "../../lib/kit/isolate/runner.ts";
import type { LostThread } from "../../lib/kit/isolate/scan_threads.ts";
import { loadConfig } from "../../lib/kit/config.ts";
import { normaliseTarget } from "../../lib/kit/net/target.ts";

const config = loadConfig({});
const threadUrl = new URL("../fixtures/greedy_thread.ts", import.meta.url);
const at = new Date("2030-01-02T03:04:05Z");
const lost: LostThread[] = [];
const runner = startScanThreads({
  heapMb: 32,
  timeoutMs: 7000,
  threadUrl,
  maxThreads: 2,
  onLost: (l) => lost.push(l),
});
const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ ok: true, value: v as unknown }),
    (e) => ({
      ok: false,
      kind: e instanceof ScanIsolationError ? e.kind : "other",
      message: String(e?.message ?? e),
    }),
  );
const scan = (host: string) =>
  outcome(
    runner.run("visibility", normaliseTarget(`http://${host}/`), config, () => at).then((o) =>
      o.record.domain
    ),
  );

// A job that waits (a timer; the network in real scans) past its time: ended, not lost.
const waited = await outcome(runner.runJob({ kind: "wait-60000" } as never, 2000));
const afterWait = runner.stats().lost;
// A job that computes for 9 s without returning, past a 6 s limit: lost, then its code returns,
// the thread ends for real and its slot comes back.
const busy = await outcome(runner.runJob({ kind: "busy-9000" } as never, 6000));
const afterBusy = runner.stats().lost;
const backBy = performance.now() + 30_000;
while (runner.stats().lost > 0 && performance.now() < backBy) {
  await new Promise((r) => setTimeout(r, 100));
}
const afterBusyReturned = runner.stats().lost;
// A scan that never returns to its event loop, while this thread's timers keep firing.
let ticks = 0;
const ticker = setInterval(() => ticks++, 20);
const spun = await scan("spin.test");
clearInterval(ticker);
const afterSpin = runner.stats().lost;
// One slot is left: a scan still runs.
const fine = await scan("fine.test");
// A job that never returns: the second slot is lost.
const spunJob = await outcome(runner.runJob({ kind: "spin" } as never, 7000));
// No slot is left: work is refused at once, saying why.
const refused = await scan("after.test");
console.log(JSON.stringify({
  waited,
  afterWait,
  busy,
  afterBusy,
  afterBusyReturned,
  spun,
  ticks,
  afterSpin,
  fine,
  spunJob,
  refused,
  lost,
  stats: runner.stats(),
}));
// The lost threads would keep this process alive.
Deno.exit(0);
