/**
 * The watch list's edges (docs/watch.md): who may hold watches (an account's key: 401/403 else),
 * what a watch may name (a public target, an https webhook on a public host), the operator's
 * bounds (schedules, the per-account cap), a JSON-only API (415), a removed watch that stops at
 * once (no scan, its pending delivery cancelled), and the MCP tools under the request's key.
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PIPELINE, startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { storeRecord, visibilityRecord } from "../../helpers/records.ts";
import { deliverDue } from "../../../lib/features/watch/delivery.ts";
import { watchOf } from "../../../lib/features/watch/context.ts";
import { startReceiver } from "../../helpers/watch_env.ts";

let ipCounter = 60;

async function accountKey(env: TestEnv): Promise<{ client: WebClient; key: string }> {
  const client = new WebClient(env, `198.51.100.${ipCounter++}`);
  const res = await client.signUp(
    `a${crypto.randomUUID().slice(0, 8)}@example.com`,
    "correct horse battery staple",
  );
  assert.equal(res.status, 303);
  const { html } = await client.page("/account");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  const created = await client.request("/account/keys", { form: { csrf, name: "k" }, json: true });
  return { client, key: (await created.json()).key };
}

function api(
  env: TestEnv,
  auth: string | null,
  method: string,
  path: string,
  body?: unknown,
  type = "application/json",
) {
  return Promise.resolve(env.handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        ...(auth ? { authorization: auth } : {}),
        ...(body !== undefined ? { "content-type": type } : {}),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    }),
  ));
}

async function status(res: Response): Promise<[number, string]> {
  const body = await res.json();
  return [res.status, body.error ?? ""];
}

Deno.test("watch API - only an account's key holds watches: 401 without one, 403 for a key of no account", async () => {
  const env = await startAppEnv();
  try {
    assert.deepEqual(await status(await api(env, null, "GET", "/api/watches")), [
      401,
      "Unauthorized",
    ]);
    assert.equal(
      (await api(env, null, "GET", "/api/watches")).headers.get("www-authenticate"),
      'Bearer realm="api"',
    );
    assert.equal((await api(env, "Bearer uvk_nope", "GET", "/api/watches")).status, 401);
    assert.equal((await api(env, `Bearer ${PIPELINE}`, "GET", "/api/watches")).status, 401);
    const loose = await env.newKey();
    const [code, message] = await status(
      await api(env, `Bearer ${loose.key}`, "GET", "/api/watches"),
    );
    assert.equal(code, 403);
    assert.match(message, /belong to an account/);
    const { key } = await accountKey(env);
    const list = await api(env, `Bearer ${key}`, "GET", "/api/watches");
    assert.equal(list.status, 200);
    assert.deepEqual(await list.json(), {
      watches: [],
      deliveries: [],
      limits: { maxWatches: 10, schedules: ["daily", "weekly"] },
    });
  } finally {
    await env.close();
  }
});

Deno.test("watch API - targets and webhooks must be public, webhooks https; bounds and duplicates are 4xx", async () => {
  const env = await startAppEnv({ env: { WATCH_MAX_PER_ACCOUNT: "2", WATCH_SCHEDULES: "weekly" } });
  try {
    const { key } = await accountKey(env);
    const auth = `Bearer ${key}`;
    const post = (body: unknown) => api(env, auth, "POST", "/api/watches", body);
    const refused: [unknown, number, RegExp][] = [
      [{ url: "a.private.example" }, 400, /private or reserved/],
      [{ url: "nothing.nx.example" }, 400, /does not resolve/],
      [{ url: "localhost" }, 400, /no dot|not a public/],
      [{ url: "example.com", schedule: "daily" }, 400, /schedule must be one of weekly/],
      [{ url: "example.com", schedule: "hourly" }, 400, /schedule/],
      [{ url: "example.com", webhookUrl: "http://hooks.example.com/x" }, 400, /https/],
      [
        { url: "example.com", webhookUrl: "https://hooks.private.example/x" },
        400,
        /private or reserved/,
      ],
      [
        { url: "example.com", webhookUrl: "https://hooks.metadata.example/x" },
        400,
        /private or reserved/,
      ],
      [
        { url: "example.com", webhookUrl: "https://169.254.169.254/latest" },
        400,
        /private or reserved/,
      ],
      [{ url: "example.com", webhookUrl: "https://[::1]/" }, 400, /private or reserved/],
      [{ url: "example.com", webhookUrl: "https://localhost/" }, 400, /private or reserved/],
      [
        { url: "example.com", webhookUrl: "https://u:p@hooks.example.com/" },
        400,
        /user name or password/,
      ],
      [{ url: "example.com", webhookUrl: "https://hook.nx.example/" }, 400, /does not resolve/],
      [{ url: "example.com", webhookFormat: "teams" }, 400, /webhookFormat/],
      [{ url: "example.com", extra: 1 }, 400, /extra|Unrecognized/i],
    ];
    for (const [body, code, message] of refused) {
      const [c, m] = await status(await post(body));
      assert.equal(c, code, JSON.stringify(body));
      assert.match(m, message, JSON.stringify(body));
    }
    assert.deepEqual(
      await status(await api(env, auth, "POST", "/api/watches", "url=example.com", "text/plain")),
      [415, "Content-Type must be application/json"],
    );
    assert.equal((await post({ url: "example.com" })).status, 201);
    assert.equal(
      (await post({ url: "https://www.example.com/any/page" })).status,
      409,
      "same site",
    );
    const second = await post({ url: "example.org", webhookUrl: "https://hooks.example.net/x" });
    assert.equal(second.status, 201);
    const { watch } = await second.json();
    assert.equal(watch.schedule, "weekly");
    assert.deepEqual(watch.webhook, { format: "json", display: "https://hooks.example.net/…" });
    const [full, why] = await status(await post({ url: "example.net" }));
    assert.equal(full, 409);
    assert.match(why, /already has 2 watches/);
  } finally {
    await env.close();
  }
});

Deno.test("watch API - a removed watch stops at once: it never runs again and its pending delivery is cancelled", async () => {
  const receiver = startReceiver();
  const env = await startAppEnv({
    env: { WEBHOOK_RESOLVE: `hooks.test=127.0.0.1:${receiver.port}` },
  });
  try {
    const { key } = await accountKey(env);
    const auth = `Bearer ${key}`;
    // A kept scan exists, so the watch starts from it and runs at its own slot.
    await storeRecord(
      env,
      visibilityRecord("example.com", {
        score: 80,
        grade: "B",
        pillarScores: [80, 80, 80],
        issues: [],
        scannedAt: new Date(env.clock.now - 60_000).toISOString(),
      }),
    );
    const res = await api(env, auth, "POST", "/api/watches", {
      url: "example.com",
      webhookUrl: "https://hooks.test/x",
    });
    const { watch } = await res.json();
    assert.equal(watch.baseline.scannedAt, new Date(env.clock.now - 60_000).toISOString());
    assert.ok(Date.parse(watch.nextRunAt) > env.clock.now);
    assert.equal((await api(env, auth, "POST", `/api/watches/${watch.id}/test`)).status, 202);
    const again = await api(env, auth, "POST", `/api/watches/${watch.id}/test`);
    assert.equal(again.status, 429, "one test per watch per 5 minutes: tests do not pile up");
    assert.equal(again.headers.get("retry-after"), "300");
    const del = await api(env, auth, "DELETE", `/api/watches/${watch.id}`);
    assert.equal(del.status, 200);
    assert.equal((await api(env, auth, "DELETE", `/api/watches/${watch.id}`)).status, 404);
    env.clock.now = Date.parse(watch.nextRunAt) + 60_000;
    const report = await env.server.watchTick();
    assert.deepEqual([report.ran, report.fresh, report.delivered], [0, 0, 0]);
    assert.equal(await env.store.getInflight("example.com"), null, "no scan was queued");
    assert.equal(receiver.received.length, 0);
    const r = { delivered: 0, failed: 0, retried: 0 };
    await deliverDue(watchOf(env.deps), env.clock.now + 86_400_000, 50, r);
    assert.equal(receiver.received.length, 0);
    const [d] = await watchOf(env.deps).watches.deliveries(
      (await env.store.keys.listKeys()).find((k) => k.accountId)!.accountId!,
    );
    assert.equal(d.state, "cancelled");
  } finally {
    await env.close();
    await receiver.close();
  }
});

function mcpClient(env: TestEnv, auth?: string) {
  const client = new Client({ name: "watch-test", version: "1.0.0" });
  const fetch = (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("x-forwarded-for", "203.0.113.90");
    if (auth) request.headers.set("authorization", auth);
    return Promise.resolve(env.app.request(request));
  };
  return {
    client,
    connect: () =>
      client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch })),
  };
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

Deno.test("watch MCP - watch_site, list_watches and unwatch_site act for the key in the request's header", async () => {
  const env = await startAppEnv();
  try {
    const anonymous = mcpClient(env);
    await anonymous.connect();
    const refused = await anonymous.client.callTool({
      name: "list_watches",
      arguments: {},
    }) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match(text(refused), /Authorization header/);
    await anonymous.client.close();

    const { key } = await accountKey(env);
    const agent = mcpClient(env, `Bearer ${key}`);
    await agent.connect();
    const added = await agent.client.callTool({
      name: "watch_site",
      arguments: { url: "https://example.com/pricing", schedule: "weekly" },
    }) as CallToolResult;
    assert.notEqual(added.isError, true, text(added));
    const watch =
      (added.structuredContent as { watch: { id: string; target: string; feed: string } }).watch;
    assert.equal(watch.target, "example.com");
    assert.equal(watch.feed, "http://localhost:8000/api/report/example.com/changes.atom");
    const bad = await agent.client.callTool({
      name: "watch_site",
      arguments: { url: "x.private.example" },
    }) as CallToolResult;
    assert.equal(bad.isError, true);
    assert.match(text(bad), /private or reserved/);
    const listed = await agent.client.callTool({
      name: "list_watches",
      arguments: {},
    }) as CallToolResult;
    assert.equal((listed.structuredContent as { watches: unknown[] }).watches.length, 1);
    // The same list as the API's.
    const viaApi = await (await api(env, `Bearer ${key}`, "GET", "/api/watches")).json();
    assert.equal(viaApi.watches[0].id, watch.id);
    const removed = await agent.client.callTool({
      name: "unwatch_site",
      arguments: { url: "example.com" },
    }) as CallToolResult;
    assert.notEqual(removed.isError, true, text(removed));
    const after = await (await api(env, `Bearer ${key}`, "GET", "/api/watches")).json();
    assert.deepEqual(after.watches, []);
    await agent.client.close();
  } finally {
    await env.close();
  }
});

Deno.test("watch scheduler - a fresh record someone else made is compared, not rescanned; scans count in the account's pool", async () => {
  const env = await startAppEnv();
  try {
    const { key } = await accountKey(env);
    const auth = `Bearer ${key}`;
    const at = (ms: number) => new Date(ms).toISOString();
    await storeRecord(
      env,
      visibilityRecord("example.com", {
        score: 90,
        grade: "A",
        pillarScores: [90, 90, 90],
        issues: [],
        scannedAt: at(env.clock.now - 60_000),
      }),
    );
    const { watch } = await (await api(env, auth, "POST", "/api/watches", { url: "example.com" }))
      .json();
    const slot = Date.parse(watch.nextRunAt);
    // Before the watch's slot (its time of day is its own: maybe within the hour) someone scans
    // it, and the score fell.
    await storeRecord(
      env,
      visibilityRecord("example.com", {
        score: 70,
        grade: "C",
        pillarScores: [70, 70, 70],
        issues: [],
        scannedAt: at(Math.max(slot - 3600_000, env.clock.now)),
      }),
    );
    env.clock.now = slot;
    const report = await env.server.watchTick();
    assert.deepEqual([report.ran, report.fresh, report.evaluated, report.alerts], [0, 1, 1, 1]);
    assert.equal(await env.store.getInflight("example.com"), null, "nothing was scanned");
    const after = (await (await api(env, auth, "GET", `/api/watches/${watch.id}`)).json()).watch;
    assert.equal(after.lastRun.outcome, "fresh");
    assert.deepEqual(after.lastAlert.texts, [
      "The grade went from A to C.",
      "The score dropped from 90 to 70 (-20).",
    ]);

    // At the next slot that record is past the cache age: a scan, counted in the account's pool.
    env.clock.now = Date.parse(after.nextRunAt);
    const next = await env.server.watchTick();
    assert.equal(next.ran, 1);
    const mark = await env.store.getInflight("example.com");
    assert.equal(mark?.credential, "watch");
    const accountId = (await watchOf(env.deps).watches.getById(watch.id))!.value!.accountId;
    const pool = (p: string, id: string, limit: number) =>
      env.store.poolUsage({ pool: p, id, limit, windowMs: 3600_000 }, env.clock.now);
    assert.equal((await pool("account", accountId, 120)).used, 1);
    assert.equal((await pool("domain", "example.com", 3)).used, 1);
    assert.equal((await pool("ip", "203.0.113.10", 8)).used, 0, "no address pool");
  } finally {
    await env.close();
  }
});
