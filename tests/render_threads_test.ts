/**
 * The scan-thread pool's two seams for rendering (lib/kit/isolate/scan_threads.ts): a scan that renders
 * has RENDER_BUDGET_MS on top of its thread's time limit, and the thread that ran it is not kept
 * for reuse (it has loaded playwright-core); the next scan gets a fresh thread. The stand-in
 * thread (tests/fixtures/greedy_thread.ts) answers "wait-N.test" after N ms.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { ScanIsolationError, startScanThreads } from "../lib/kit/isolate/scan_threads.ts";

const threadUrl = new URL("./fixtures/greedy_thread.ts", import.meta.url);
const config = loadConfig({ RENDER_BUDGET_MS: "2000" });
const at = () => new Date("2030-01-02T03:04:05Z");
const target = (host: string, render = false) => ({
  ...normaliseTarget(`http://${host}/`),
  ...(render ? { render: true } : {}),
});

Deno.test("[scan threads] a rendering scan has the render budget on top of its thread's time", async () => {
  const runner = startScanThreads({ heapMb: 32, timeoutMs: 400, threadUrl, maxThreads: 2 });
  try {
    const plain = await runner.run("visibility", target("wait-1200.test"), config, at)
      .then(() => null, (e) => e);
    assert.ok(plain instanceof ScanIsolationError && plain.kind === "time", String(plain));
    const rendered = await runner.run("visibility", target("wait-1200.test", true), config, at);
    assert.equal(rendered.record.domain, "wait-1200.test");
  } finally {
    await runner.close();
  }
});

Deno.test("[scan threads] the thread that ran a rendering scan is retired; others are kept", async () => {
  const runner = startScanThreads({
    heapMb: 32,
    timeoutMs: 5000,
    threadUrl,
    maxThreads: 1,
    warm: 0,
    idleMs: 60_000,
  });
  try {
    await runner.run("visibility", target("plain.test"), config, at);
    assert.equal(runner.stats().workers, 1, "a thread that did not render stays for the next scan");
    await runner.run("visibility", target("rendered.test", true), config, at);
    assert.equal(runner.stats().workers, 0, "the thread that rendered is gone");
    // The pool serves on, on a new thread.
    const next = await runner.run("visibility", target("after.test"), config, at);
    assert.equal(next.record.domain, "after.test");
  } finally {
    await runner.close();
  }
});
