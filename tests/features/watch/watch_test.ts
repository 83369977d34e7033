/**
 * Watches, driven by the test's clock (docs/watch.md): a watched fixture site regresses (its
 * robots.txt starts blocking OAI-SearchBot) and exactly one signed delivery reaches the receiver,
 * which verifies the signature itself; an unchanged rescan sends nothing; the public Atom feed
 * shows the change; a removed watch stops at once; a failing receiver is retried on back-off and
 * then shown as failing on the dashboard. The scans are real (the worker scans the loopback site).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import {
  type MutableSite,
  type Receiver,
  startMutableSite,
  startReceiver,
} from "../../helpers/watch_env.ts";
import { deliverDue, RETRY_DELAYS_MS } from "../../../lib/features/watch/delivery.ts";
import { verify } from "../../../lib/features/watch/signature.ts";
import { watchOf } from "../../../lib/features/watch/context.ts";

const PASSWORD = "correct horse battery staple";
let ipCounter = 20;

interface World {
  env: TestEnv;
  site: MutableSite;
  receiver: Receiver;
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const site = await startMutableSite();
  const receiver = startReceiver();
  const env = await startAppEnv({
    worker: true,
    extraResolve: [`watched.test=127.0.0.1:${site.port}`],
    env: { WEBHOOK_RESOLVE: `hooks.test=127.0.0.1:${receiver.port}` },
  });
  return {
    env,
    site,
    receiver,
    close: async () => {
      await env.close();
      await site.close();
      await receiver.close();
    },
  };
}

/** A signed-up account's browser and one of its API keys. */
async function account(env: TestEnv): Promise<{ client: WebClient; key: string }> {
  const client = new WebClient(env, `198.51.100.${ipCounter++}`);
  const res = await client.signUp(`w${crypto.randomUUID().slice(0, 8)}@example.com`, PASSWORD);
  assert.equal(res.status, 303);
  const { html } = await client.page("/account");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  const created = await client.request("/account/keys", { form: { csrf, name: "ci" }, json: true });
  assert.equal(created.status, 201);
  return { client, key: (await created.json()).key };
}

function api(env: TestEnv, key: string | null, method: string, path: string, body?: unknown) {
  return Promise.resolve(env.handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    }),
  ));
}

/** Waits until every scan a watch waits for is stored (the worker runs them for real). */
async function scansStored(env: TestEnv, timeoutMs = 30_000): Promise<void> {
  const w = watchOf(env.deps);
  const started = Date.now();
  for (;;) {
    const pending = await w.watches.pending(100);
    let done = true;
    for (const p of pending) {
      const entry = (await w.watches.get(p.accountId, p.id)).value;
      if (entry?.pending && !(await env.store.history.lookup(entry.pending.scanId))) done = false;
    }
    if (done) return;
    if (Date.now() - started > timeoutMs) {
      throw new Error("the watch's scan was not stored in time");
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The watch's next run (from the API), as a clock value. */
async function nextRun(env: TestEnv, key: string, id: string): Promise<number> {
  const res = await api(env, key, "GET", `/api/watches/${id}`);
  return Date.parse((await res.json()).watch.nextRunAt);
}

/** Every KV entry, as text (to prove a secret is not stored in clear). */
async function dumpKv(env: TestEnv): Promise<string> {
  const parts: string[] = [];
  for await (const e of env.kv.list({ prefix: [] })) parts.push(JSON.stringify([e.key, e.value]));
  return parts.join("\n");
}

/** The receiver's own check, written from the documented algorithm (not our code). */
function signatureOk(secret: string, d: { headers: Headers; body: string }): boolean {
  const id = d.headers.get("webhook-id")!;
  const ts = d.headers.get("webhook-timestamp")!;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = `v1,${
    createHmac("sha256", key).update(`${id}.${ts}.${d.body}`).digest("base64")
  }`;
  return (d.headers.get("webhook-signature") ?? "").split(" ").includes(expected);
}

Deno.test({
  name:
    "watch - a robots.txt regression sends exactly one signed delivery; an unchanged rescan sends nothing; the feed shows it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const w = await world();
    const { env, site, receiver } = w;
    try {
      const { key } = await account(env);
      const created = await api(env, key, "POST", "/api/watches", {
        url: "https://watched.test/",
        schedule: "daily",
        webhookUrl: "https://hooks.test/alerts",
      });
      assert.equal(created.status, 201, await created.clone().text());
      const { watch, webhookSecret } = await created.json();
      assert.equal(watch.target, "watched.test");
      assert.match(webhookSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      // The secret and the URL are sealed at rest.
      const kv = await dumpKv(env);
      assert.ok(!kv.includes(webhookSecret) && !kv.includes(webhookSecret.slice(6)));
      assert.ok(!kv.includes("hooks.test/alerts"));

      // First run (no scan yet: due at once): scans, and the scan becomes the baseline.
      let report = await env.server.watchTick();
      assert.equal(report.ran, 1);
      await scansStored(env);
      report = await env.server.watchTick();
      assert.equal(report.evaluated, 1);
      assert.equal(report.alerts, 0);

      // The next slot: an unchanged site is rescanned and sends nothing.
      env.clock.now = await nextRun(env, key, watch.id);
      report = await env.server.watchTick();
      assert.equal(report.ran, 1, "its own scan of the day before is scanned again");
      await scansStored(env);
      report = await env.server.watchTick();
      assert.deepEqual([report.evaluated, report.alerts, receiver.received.length], [1, 0, 0]);

      // robots.txt now blocks OAI-SearchBot: the next run alerts, once.
      site.setRobots(site.blockingRobots);
      env.clock.now = await nextRun(env, key, watch.id);
      await env.server.watchTick();
      await scansStored(env);
      report = await env.server.watchTick();
      assert.deepEqual([report.alerts, report.delivered], [1, 1]);
      await env.server.watchTick();
      env.clock.now += 3600_000;
      await env.server.watchTick();
      assert.equal(receiver.received.length, 1, "exactly one delivery");

      const d = receiver.received[0];
      assert.equal(d.path, "/alerts");
      assert.equal(d.headers.get("content-type"), "application/json");
      assert.ok(signatureOk(webhookSecret, d), "the receiver's own check accepts the signature");
      const ts = Number(d.headers.get("webhook-timestamp"));
      const sent = Math.floor((env.clock.now - 3600_000) / 1000);
      assert.equal(ts, sent);
      const h = {
        id: d.headers.get("webhook-id"),
        timestamp: d.headers.get("webhook-timestamp"),
        signature: d.headers.get("webhook-signature"),
      };
      assert.ok(verify(webhookSecret, h, d.body, sent));
      assert.ok(!verify(webhookSecret, h, d.body.replace("OAI", "0AI"), sent), "tampered body");
      assert.ok(!verify(webhookSecret, h, d.body, sent + 3600), "an hour-old delivery is stale");
      const event = JSON.parse(d.body);
      assert.equal(event.type, "watch.regression");
      assert.equal(event.id, h.id);
      assert.equal(event.domain, "watched.test");
      const blocked = event.regressions.find((r: { kind: string }) => r.kind === "crawler_blocked");
      assert.ok(blocked, JSON.stringify(event.regressions));
      assert.deepEqual(blocked.subjects, ["OAI-SearchBot"]);
      assert.match(blocked.text, /robots\.txt now blocks OAI-SearchBot/);
      assert.ok(!d.body.includes(webhookSecret.slice(6)) && !d.body.includes("hooks.test"));

      // The delivery and its answer are listed.
      const listed = await (await api(env, key, "GET", "/api/watches")).json();
      assert.equal(listed.deliveries.length, 1);
      assert.equal(listed.deliveries[0].state, "delivered");
      assert.equal(listed.deliveries[0].attempts[0].status, 200);
      assert.match(listed.watches[0].lastAlert.texts.join(" "), /OAI-SearchBot/);

      // The public feed shows the change, as well-formed Atom.
      const feedUrl = "/api/report/watched.test/changes.atom";
      const res = await env.app.request(feedUrl);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/atom+xml; charset=utf-8");
      const xml = await res.text();
      assertAtom(xml);
      const feed = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === "entry" })
        .parse(xml).feed;
      assert.equal(feed.entry.length, 1, "the unchanged rescan is no entry");
      assert.match(feed.entry[0].title, /^Regression: robots\.txt now blocks OAI-SearchBot/);
      assert.equal(feed.entry[0].category["@_term"], "regression");
      assert.ok(!xml.includes("hooks.test") && !xml.includes("@example.com"), "public data only");
      const again = await env.app.request(feedUrl, {
        headers: { "if-none-match": res.headers.get("etag")! },
      });
      assert.equal(again.status, 304);
    } finally {
      await w.close();
    }
  },
});

/** The RFC 4287 shape: well-formed XML, the required elements of the feed and of each entry. */
function assertAtom(xml: string): void {
  assert.equal(XMLValidator.validate(xml), true);
  const doc = new XMLParser({
    ignoreAttributes: false,
    isArray: (n) => n === "entry" || n === "link",
  })
    .parse(xml);
  const feed = doc.feed;
  assert.equal(feed["@_xmlns"], "http://www.w3.org/2005/Atom");
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
  for (const field of ["id", "title", "updated"]) assert.ok(feed[field], `feed/${field}`);
  assert.match(feed.updated, rfc3339);
  assert.ok(feed.author?.name, "feed/author (no entry has one)");
  assert.ok(new URL(feed.id), "feed/id is an IRI");
  assert.ok(feed.link.some((l: Record<string, string>) => l["@_rel"] === "self"));
  for (const e of feed.entry ?? []) {
    assert.match(e.id, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.ok(e.title);
    assert.match(e.updated, rfc3339);
    assert.ok(e.link.some((l: Record<string, string>) => l["@_rel"] === "alternate"));
  }
}

Deno.test({
  name: "watch - a failing receiver is retried on back-off, then shown as failing on the dashboard",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const w = await world();
    const { env, receiver } = w;
    try {
      receiver.status = 500;
      const { client, key } = await account(env);
      const created = await api(env, key, "POST", "/api/watches", {
        url: "watched.test",
        webhookUrl: "https://hooks.test/down",
      });
      const { watch, webhookSecret } = await created.json();
      // A test delivery ("watch.ping"); the deliveries are sent by the tick's last step alone.
      assert.equal((await api(env, key, "POST", `/api/watches/${watch.id}/test`)).status, 202);
      const send = async (at: number) => {
        const r = { delivered: 0, failed: 0, retried: 0 };
        await deliverDue(watchOf(env.deps), at, 50, r);
        return r;
      };
      const times: number[] = [];
      for (let i = 0; i <= RETRY_DELAYS_MS.length; i++) {
        const before = receiver.received.length;
        const report = await send(env.clock.now);
        assert.equal(receiver.received.length, before + 1, `attempt ${i + 1}`);
        times.push(env.clock.now);
        assert.deepEqual(
          report,
          i < RETRY_DELAYS_MS.length
            ? { delivered: 0, failed: 0, retried: 1 }
            : { delivered: 0, failed: 1, retried: 0 },
        );
        const wait = RETRY_DELAYS_MS[i] ?? 24 * 3600_000;
        // Nothing is sent before the back-off is over (nor ever again once it failed).
        await send(env.clock.now + wait - 1000);
        assert.equal(receiver.received.length, before + 1);
        env.clock.now += wait;
      }
      await send(env.clock.now);
      assert.equal(receiver.received.length, RETRY_DELAYS_MS.length + 1);
      assert.deepEqual(times.slice(1).map((t, i) => t - times[i]), [...RETRY_DELAYS_MS]);
      const ids = new Set(receiver.received.map((r) => r.headers.get("webhook-id")));
      assert.equal(ids.size, 1, "every retry carries the same webhook-id");
      assert.ok(receiver.received.every((r) => signatureOk(webhookSecret, r)));
      assert.equal(JSON.parse(receiver.received[0].body).type, "watch.ping");

      const { html } = await client.page("/account");
      assert.match(html, /failing: gave up/);
      assert.match(html, /HTTP 500/);
      assert.match(html, /receiver is down &lt;b(>|&gt;)500&lt;\/b(>|&gt;)/, "the answer, escaped");
      assert.ok(!html.includes(webhookSecret), "the secret is not shown again");
    } finally {
      await w.close();
    }
  },
});
