/**
 * Whether this server renders locally is the memory plan's decision (lib/kit/config_memory.ts): a
 * local Chromium holds about CHROMIUM_MB while it renders, so it is on only where that, the server
 * and one scan worker that can render fit the budget (1015 MB for one Chromium beside a worker
 * process, 1000 MB beside a thread), unless the operator forces it (RENDER_LOCAL=on) or turns it
 * off; where on, the scan workers are sized in what is left. A remote browser is unaffected. The start-up line says which and why, and a scan
 * that asks to render where it cannot answers "not rendered" with that reason (never a guess).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import {
  BUDGET_SHARE,
  CHROMIUM_MB,
  describeRendering,
  localRenderMinMb,
  memoryPlan,
  RENDER_THREAD_HEAP_MB,
  SERVER_MB,
} from "../lib/kit/config_memory.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { startRenderScanEnv } from "./helpers/render_env.ts";

const local = (mode: "auto" | "on" | "off" = "auto", concurrency = 1) => ({
  localRender: { mode, concurrency },
});
/** What a plan holds at most: server, connections, threads and the Chromiums kept for. */
const planned = (p: ReturnType<typeof memoryPlan>) =>
  SERVER_MB + p.connectionMb + p.localRender.reservedMb +
  p.threads * (p.heapMb + p.youngMb + p.overheadMb);

Deno.test("[render plan] under 1015 MB a local Chromium does not fit: off, and the reason names the need", () => {
  assert.equal(localRenderMinMb(1), 1015);
  assert.equal(localRenderMinMb(1, 26), 1000, "beside a thread (SCAN_ISOLATION=thread)");
  for (const memoryMb of [512, 768, 1014]) {
    const p = memoryPlan({ memoryMb, ...local() }, null);
    assert.equal(p.localRender.on, false, `${memoryMb} MB`);
    assert.equal(p.localRender.reservedMb, 0);
    assert.match(
      p.localRender.why,
      new RegExp(`^${memoryMb} MB planned, under the 1015 MB a local Chromium .*RENDER_LOCAL=on`),
    );
  }
  // Off, the workers are what they are without rendering (512 MB: one worker process).
  assert.equal(memoryPlan({ memoryMb: 512, ...local() }, null).threads, 1);
});

Deno.test("[render plan] from 1015 MB it is on: CHROMIUM_MB kept, workers that can render, inside the budget", () => {
  for (const memoryMb of [1015, 1024, 2048, 8192]) {
    const p = memoryPlan({ memoryMb, ...local() }, null);
    assert.equal(p.localRender.on, true, `${memoryMb} MB`);
    assert.equal(p.localRender.reservedMb, CHROMIUM_MB);
    assert.ok(p.heapMb >= RENDER_THREAD_HEAP_MB, `${memoryMb} MB: heap ${p.heapMb}`);
    assert.ok(planned(p) <= p.budgetMb, `${memoryMb} MB: ${planned(p)} of ${p.budgetMb}`);
  }
  // The Chromium's share is taken from the threads': 1 GB keeps one thread instead of four.
  assert.equal(memoryPlan({ memoryMb: 1024 }, null).threads, 4);
  assert.equal(memoryPlan({ memoryMb: 1024, ...local() }, null).threads, 1);
  // Two Chromiums at once need more.
  const two = memoryPlan({ memoryMb: 1024, ...local("auto", 2) }, null);
  assert.equal(two.localRender.on, false);
  assert.ok(localRenderMinMb(2) > 1015 + CHROMIUM_MB / BUDGET_SHARE - 1);
  const twoFit = memoryPlan({ memoryMb: localRenderMinMb(2), ...local("auto", 2) }, null);
  assert.equal(twoFit.localRender.reservedMb, 2 * CHROMIUM_MB);
  assert.ok(planned(twoFit) <= twoFit.budgetMb);
});

Deno.test("[render plan] the operator decides: RENDER_LOCAL=on forces it (and says the cost), off turns it off", () => {
  const forced = memoryPlan({ memoryMb: 512, ...local("on") }, null);
  assert.equal(forced.localRender.on, true);
  assert.match(
    forced.localRender.why,
    /^forced by RENDER_LOCAL=on under the 1015 MB .* may run out of memory/,
  );
  const off = memoryPlan({ memoryMb: 4096, ...local("off") }, null);
  assert.deepEqual([off.localRender.on, off.localRender.why], [false, "RENDER_LOCAL=off"]);
  assert.equal(off.threads, 4);
});

Deno.test("[render plan] the configuration: a local browser off where it does not fit, a remote one unaffected; the start-up line", () => {
  const small = loadConfig({ MEMORY_MB: "512" });
  assert.equal(small.render.browser.kind, "off");
  const line = describeRendering(small.render.browser, small.memory);
  assert.match(line, /^Rendering: off \(local rendering is off: 512 MB planned, under the 1015 MB/);
  assert.match(line, /answers "not rendered"/);
  assert.throws(() => loadConfig({ RENDER_LOCAL: "maybe" }), /RENDER_LOCAL/);
  // A browser elsewhere: nothing kept here, on at any size; its URL's token is never printed.
  const remote = loadConfig({
    MEMORY_MB: "512",
    RENDER_BROWSER_URL: "wss://browserless.example/?token=s3cret",
  });
  assert.equal(remote.render.browser.kind, "remote");
  assert.equal(remote.memory.localRender.reservedMb, 0);
  assert.equal(remote.memory.threads, 1);
  const remoteLine = describeRendering(remote.render.browser, remote.memory);
  assert.match(remoteLine, /^Rendering: on, remote browser \(CDP\) at browserless\.example/);
  assert.ok(!remoteLine.includes("s3cret"));
  // A local browser that is not installed is off whatever the memory, and says so.
  const missing = loadConfig({ MEMORY_MB: "4096", RENDER_CHROMIUM: "/nonexistent/chromium" });
  assert.equal(missing.render.browser.kind, "off");
  assert.equal(missing.memory.localRender.reservedMb, 0);
  assert.match(describeRendering(missing.render.browser, missing.memory), /not installed/);
});

Deno.test("[render plan] a scan that asks to render where local rendering does not fit answers not rendered, with the reason", async () => {
  const env = await startRenderScanEnv();
  try {
    const config = loadConfig({ ...env.env, MEMORY_MB: "512" });
    const target = { ...normaliseTarget("http://spa.test/"), render: true };
    const { record } = await scanSite(target, {
      config,
      now: () => new Date("2026-11-26T12:00:00Z"),
    });
    assert.equal(record.render?.status, "unavailable");
    assert.match(
      record.render!.reason!,
      /^local rendering is off: 512 MB planned, under the 1015 MB/,
    );
    assert.deepEqual(record.render!.pages, []);
    // Nothing is concluded from the absence: the verdict rests on the server HTML, and says so.
    const signal = record.result!.pillars.flatMap((p) => p.signals)
      .find((s) => s.id === "content.server_text")!;
    assert.ok(signal.evidence.includes("not rendered: judged from the server HTML alone"));
    assert.ok(!env.sites.requests.some((r) => r.path.endsWith(".js")), "no script was fetched");
  } finally {
    await env.close();
  }
});
