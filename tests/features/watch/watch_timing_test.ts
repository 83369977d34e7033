/**
 * Regression alerts of watches never fire from timing alone (issue 40): a score or grade drop that
 * only the time to first byte explains is held until a second scan in a row shows it, unless the
 * slowdown is past the stated margin (TIMING_MARGIN_MS, into the failing band); and a watch on an
 * unchanged fixture site served with a loaded machine's delays sends nothing over several runs.
 */
import assert from "node:assert/strict";
import { findRegressions, TIMING_MARGIN_MS } from "../../../lib/engines/history/regressions.ts";
import type { BaseRecord } from "../../../lib/service.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import { startAccessSites } from "../../fixtures/access_sites.ts";
import { watchOf } from "../../../lib/features/watch/context.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { startReceiver } from "../../helpers/watch_env.ts";

/** A record whose response_time signal says this median and earns these points. */
function record(score: number, grade: string, ms: number, status: string, points: number) {
  return {
    domain: "example.com",
    status: "ok",
    scannedAt: "2026-12-01T10:00:00.000Z",
    result: {
      score,
      grade,
      label: "x",
      pillars: [{
        id: "technical",
        title: "Technical basics",
        score,
        points: score,
        weight: 100,
        signals: [{
          id: "technical.response_time",
          title: "Fast first byte",
          status,
          points,
          maxPoints: 2,
          detail: "",
          evidence: [`median first byte: ${ms} ms (20 samples, from 10 to ${ms} ms)`],
          gate: null,
        }, {
          id: "access.search_crawlers",
          title: "AI search crawlers allowed",
          status: "pass",
          points: 20,
          maxPoints: 20,
          detail: "",
          evidence: [],
          gate: null,
        }],
      }],
      topIssues: [],
    },
    offSite: null,
  } as unknown as BaseRecord;
}

Deno.test("regressions - a drop timing alone explains is held once, a regression when it persists or is past the margin", () => {
  const fast = record(90, "A", 300, "pass", 2);
  const slower = record(89, "B", 1300, "warn", 1);
  const once = findRegressions(fast, slower);
  assert.deepEqual(once.regressions, [], "one slower scan is not an alert");
  assert.deepEqual(once.held.map((r) => r.kind).sort(), ["grade_drop", "score_drop"]);
  const persisted = findRegressions(fast, slower, { timingPersisted: true });
  assert.deepEqual(persisted.regressions.map((r) => r.kind).sort(), ["grade_drop", "score_drop"]);
  // Past the margin into the failing band: at once.
  const failing = record(88, "B", 300 + TIMING_MARGIN_MS + 2300, "fail", 0);
  assert.deepEqual(
    findRegressions(fast, failing).regressions.map((r) => r.kind).sort(),
    ["grade_drop", "score_drop"],
  );
  // A drop another signal explains is a regression at once.
  const blocked = record(85, "B", 300, "pass", 2) as {
    result: { pillars: { signals: { points: number; status: string }[] }[] };
  };
  blocked.result.pillars[0].signals[1].points = 10;
  blocked.result.pillars[0].signals[1].status = "warn";
  assert.ok(
    findRegressions(fast, blocked as unknown as BaseRecord).regressions.some((r) =>
      r.kind === "score_drop"
    ),
  );
});

Deno.test({
  name:
    "watch - an unchanged site served with a loaded machine's delays: several runs, one score, no alert",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const sites = startAccessSites();
    // A third of the answers come 300 ms to 1.4 s late (a busy scanner, a busy site).
    const host = sites.add({
      path: "none",
      refuse: [],
      jitter: { seed: 40, slowShare: 0.35, slowMs: [300, 1400] },
    });
    const receiver = startReceiver();
    const env = await startAppEnv({
      worker: true,
      extraResolve: [`${host}=127.0.0.1:${sites.port}`],
      env: {
        WEBHOOK_RESOLVE: `hooks.test=127.0.0.1:${receiver.port}`,
        // The service's own time budgets (the test helper's are tighter than a slow site needs).
        SCAN_TIMEOUT_MS: "25000",
        REQUEST_TIMEOUT_MS: "10000",
      },
    });
    try {
      const client = new WebClient(env, "198.51.100.77");
      assert.equal(
        (await client.signUp(
          `t${crypto.randomUUID().slice(0, 8)}@example.com`,
          "correct horse battery staple",
        )).status,
        303,
      );
      const { html } = await client.page("/account");
      const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
      const created = await client.request("/account/keys", {
        form: { csrf, name: "ci" },
        json: true,
      });
      const { key } = await created.json();
      const api = (method: string, path: string, body?: unknown) =>
        Promise.resolve(env.handler(
          new Request(`http://localhost${path}`, {
            method,
            headers: {
              authorization: `Bearer ${key}`,
              ...(body ? { "content-type": "application/json" } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
          }),
        ));
      const res = await api("POST", "/api/watches", {
        url: `https://${host}/`,
        schedule: "daily",
        webhookUrl: "https://hooks.test/alerts",
      });
      assert.equal(res.status, 201, await res.clone().text());
      const { watch } = await res.json();
      const w = watchOf(env.deps);
      const stored = async () => {
        for (let i = 0; i < 600; i++) {
          let done = true;
          for (const p of await w.watches.pending(100)) {
            const entry = (await w.watches.get(p.accountId, p.id)).value;
            if (entry?.pending && !(await env.store.history.lookup(entry.pending.scanId))) {
              done = false;
            }
          }
          if (done) return;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error("the watch's scan was not stored in time");
      };
      let alerts = 0;
      for (let run = 0; run < 4; run++) {
        if (run) {
          const got = await (await api("GET", `/api/watches/${watch.id}`)).json();
          env.clock.now = Date.parse(got.watch.nextRunAt);
        }
        await env.server.watchTick();
        await stored();
        alerts += (await env.server.watchTick()).alerts;
      }
      const history = await (await env.app.request(`/api/report/${host}/history.json`)).json();
      const got = await (await api("GET", `/api/watches/${watch.id}`)).json();
      assert.equal(
        alerts,
        0,
        `no alert from timing: ${JSON.stringify(got.watch.lastAlert)} ${
          JSON.stringify(history.scans.map((s: { score: number }) => s.score))
        }`,
      );
      assert.equal(receiver.received.length, 0);
      assert.equal(history.scans.length, 4, JSON.stringify(history).slice(0, 300));
      const scores = new Set(history.scans.map((s: { score: number }) => s.score));
      assert.equal(scores.size, 1, `one score over the runs: ${[...scores]}`);
    } finally {
      await env.close();
      await receiver.close();
      await sites.close();
    }
  },
});
