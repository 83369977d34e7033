/**
 * Watch alerts from server-log aggregates (lib/features/watch/log_alerts.ts): the two rules at their
 * stated thresholds (refusals jump on 2 of the last 3 days; a verified crawler regular on 7 of 14
 * days absent on all 3 covered days), never from one noisy day or a day the logs do not cover; an
 * alert goes out once when its rule starts to hold; and end to end, a watch of a site whose
 * uploaded logs show the jump sends one signed "watch.logs" delivery to its webhook.
 */
import assert from "node:assert/strict";
import { startAppEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { startMutableSite, startReceiver } from "../../helpers/watch_env.ts";
import {
  checkLogDay,
  type DailyCrawlerCounts,
  logAlerts,
} from "../../../lib/features/watch/log_alerts.ts";
import { rangeDir } from "../logs/log_fixtures.ts";

const DAY = 86_400_000;
const day = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * DAY).toISOString().slice(0, 10);

/** 17 days of counts: days 0-13 the baseline, 14-16 the last three. */
function series(
  f: (i: number) => Record<string, { verified: number; refused: number }>,
): DailyCrawlerCounts {
  const out: DailyCrawlerCounts = {};
  for (let i = 0; i < 17; i++) out[day(i)] = f(i);
  return out;
}
const steady = { verified: 10, refused: 0 };
const other = { Bingbot: { verified: 5, refused: 0 } };

Deno.test("[watch/logs] refusals jump: 2 of the last 3 days at least 25 points above the 14 days before", () => {
  const refused = (r: number) => ({ verified: 20, refused: r });
  const jump = series((i) => ({ GPTBot: i < 14 ? steady : i === 16 ? refused(0) : refused(10) }));
  assert.deepEqual(logAlerts(jump).map((a) => a.key), ["refusals:GPTBot"]);
  assert.match(logAlerts(jump)[0].text, /on 2 of the last 3 days .* 50% of its verified hits/);
  // One noisy day is not enough.
  const once = series((i) => ({ GPTBot: i < 14 ? steady : i === 15 ? refused(20) : steady }));
  assert.deepEqual(logAlerts(once), []);
  // 20 points above the baseline's share is not a jump.
  const mild = series((i) => ({
    GPTBot: i < 14 ? { verified: 10, refused: 3 } : { verified: 20, refused: 10 },
  }));
  assert.deepEqual(logAlerts(mild), []);
  // Days with fewer than 10 verified hits do not count; nor does a baseline under 20 hits.
  const thin = series((i) => ({ GPTBot: i < 14 ? steady : { verified: 9, refused: 9 } }));
  assert.deepEqual(logAlerts(thin), []);
  const newcomer = series((i) => ({
    GPTBot: i < 12
      ? { verified: 0, refused: 0 }
      : i < 14
      ? { verified: 9, refused: 0 }
      : refused(20),
  }));
  assert.deepEqual(logAlerts(newcomer), []);
});

Deno.test("[watch/logs] a verified crawler stops coming: regular on 7 of 14 days, absent on 3 covered days", () => {
  const gone = series((i) => ({
    ...other,
    ...(i < 14 && i % 2 === 0 ? { ClaudeBot: steady } : {}),
  }));
  assert.deepEqual(logAlerts(gone).map((a) => a.key), ["stopped:ClaudeBot"]);
  assert.match(logAlerts(gone)[0].text, /on 7 of the 14 days before/);
  // Came on 6 of the 14 days: not a regular.
  const rare = series((i) => ({
    ...other,
    ...(i < 12 && i % 2 === 0 ? { ClaudeBot: steady } : {}),
  }));
  assert.deepEqual(logAlerts(rare), []);
  // A last-three day with no crawler line at all is not covered: absence is not shown.
  const gap = series((i) => ({
    ...(i === 15 ? {} : other),
    ...(i < 14 ? { ClaudeBot: steady } : {}),
  }));
  assert.deepEqual(logAlerts(gap).filter((a) => a.crawler === "ClaudeBot"), []);
});

Deno.test("[watch/logs] an alert goes out when its rule starts to hold, once a day, not again while it holds", () => {
  const gone = series((i) => ({ ...other, ...(i < 14 ? { ClaudeBot: steady } : {}) }));
  const first = checkLogDay(undefined, gone, "2026-11-18")!;
  assert.deepEqual(first.send.map((a) => a.key), ["stopped:ClaudeBot"]);
  assert.equal(checkLogDay(first.state, gone, "2026-11-18"), null, "checked once a day");
  const second = checkLogDay(first.state, gone, "2026-11-19")!;
  assert.deepEqual(second.send, [], "still holding: nothing sent again");
  const back = checkLogDay(
    second.state,
    series(() => ({ ...other, ClaudeBot: steady })),
    "2026-11-20",
  )!;
  assert.deepEqual(back.state.holding, []);
  const again = checkLogDay(back.state, gone, "2026-11-21")!;
  assert.deepEqual(again.send.map((a) => a.key), ["stopped:ClaudeBot"], "held again: sent again");
});

/** A Combined log of GPTBot (from its listed address) over 17 days; refused on days 14 and 15. */
function gptbotLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 17; i++) {
    const d = new Date(Date.UTC(2026, 10, 1) + i * DAY);
    const date = `${String(d.getUTCDate()).padStart(2, "0")}/Nov/2026`;
    for (let k = 0; k < 20; k++) {
      const status = (i === 14 || i === 15) && k < 10 ? 403 : 200;
      lines.push(
        `192.0.2.10 - - [${date}:10:${
          String(k).padStart(2, "0")
        }:00 +0000] "GET /p${k} HTTP/1.1" ${status} 100 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

Deno.test({
  name:
    "[watch/logs] a watch of a site whose logs show refusals jumping sends one watch.logs delivery",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const site = await startMutableSite();
    const receiver = startReceiver();
    const env = await startAppEnv({
      extraResolve: [`watched.test=127.0.0.1:${site.port}`],
      env: {
        WEBHOOK_RESOLVE: `hooks.test=127.0.0.1:${receiver.port}`,
        LOG_IP_RANGES_DIR: await rangeDir(),
        LOG_REVERSE_DNS: "off",
        LOG_IP_RANGES_FETCH: "off",
      },
    });
    try {
      env.clock.now = Date.UTC(2026, 10, 18, 12);
      const client = new WebClient(env, "198.51.100.231");
      assert.equal(
        (await client.signUp("logwatch@example.com", "correct horse battery staple")).status,
        303,
      );
      const { html } = await client.page("/account");
      const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
      const key =
        (await (await client.request("/account/keys", { form: { csrf, name: "k" }, json: true }))
          .json()).key;
      const call = (
        method: string,
        path: string,
        body: BodyInit,
        headers: Record<string, string>,
      ) =>
        Promise.resolve(env.handler(
          new Request(`http://localhost${path}`, {
            method,
            body,
            headers: { authorization: `Bearer ${key}`, ...headers },
          }),
        ));
      const log = gptbotLog();
      const up = await call("POST", "/api/logs/watched.test", log, {
        "content-length": String(new TextEncoder().encode(log).length),
      });
      assert.equal(up.status, 200, await up.clone().text());
      const created = await call(
        "POST",
        "/api/watches",
        JSON.stringify({
          url: "https://watched.test/",
          schedule: "daily",
          webhookUrl: "https://hooks.test/alerts",
          webhookFormat: "json",
        }),
        { "content-type": "application/json" },
      );
      assert.equal(created.status, 201, await created.clone().text());

      const report = await env.server.watchTick();
      assert.equal(report.alerts, 1);
      await env.server.watchTick();
      const logs = receiver.received.filter((r) => JSON.parse(r.body).type === "watch.logs");
      assert.equal(logs.length, 1);
      const event = JSON.parse(logs[0].body);
      assert.deepEqual(
        event.logs.map((l: { kind: string; crawler: string }) => [l.kind, l.crawler]),
        [
          ["refusals_jump", "GPTBot"],
        ],
      );
      assert.match(event.links.report, /\/account\/logs\/watched\.test$/);
      assert.ok(!logs[0].body.includes("192.0.2.10"), "no address in an alert");
      // The same day again, and the next day while it still holds: nothing more.
      await env.server.watchTick();
      env.clock.now += DAY;
      await env.server.watchTick();
      assert.equal(
        receiver.received.filter((r) => JSON.parse(r.body).type === "watch.logs").length,
        1,
      );
    } finally {
      await env.close();
      await site.close();
      await receiver.close();
    }
  },
});
