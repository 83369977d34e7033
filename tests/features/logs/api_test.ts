/**
 * POST /api/logs/:domain, end to end in process: an account's key uploads a fixture log (gzip,
 * as a stream read in a worker); the answer's figures equal the scenario's, the stored KV holds
 * no person's address, and the edges are clear 4xx answers (no key, no stated size, too large,
 * unknown format, not a domain).
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { HUMAN_IPS, rangeDir, RENDER, SCENARIO } from "./log_fixtures.ts";

async function accountKey(env: TestEnv): Promise<string> {
  const client = new WebClient(env, "198.51.100.200");
  const res = await client.signUp(
    `l${crypto.randomUUID().slice(0, 8)}@example.com`,
    "correct horse battery staple",
  );
  assert.equal(res.status, 303);
  const { html } = await client.page("/account");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  const created = await client.request("/account/keys", { form: { csrf, name: "k" }, json: true });
  return (await created.json()).key;
}

const post = (env: TestEnv, path: string, body: BodyInit | null, headers: Record<string, string>) =>
  env.app.request(new Request(`http://localhost${path}`, { method: "POST", body, headers }));

Deno.test("[logs/api] an upload is read in a worker; the answer's figures equal the scenario's; KV keeps no person's address", async () => {
  const env = await startAppEnv({
    env: {
      LOG_IP_RANGES_DIR: await rangeDir(),
      LOG_REVERSE_DNS: "off",
      LOG_IP_RANGES_FETCH: "off",
    },
  });
  try {
    const key = await accountKey(env);
    const gz = new Uint8Array(gzipSync(RENDER.combined(SCENARIO)));
    const res = await post(env, "/api/logs/shop.test", gz, {
      authorization: `Bearer ${key}`,
      "content-type": "application/gzip",
      "content-length": String(gz.length),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.match(res.headers.get("content-type") ?? "", /json/);
    const body = await res.json();
    assert.equal(body.domain, "shop.test");
    assert.equal(body.read.format, "combined");
    assert.equal(body.read.gzip, true);
    assert.equal(body.read.crawlerLines, 12);
    assert.equal(body.read.otherLines, 4);
    const gpt = body.report.crawlers.find((c: { token: string }) => c.token === "GPTBot");
    assert.deepEqual(gpt.hits, { verified: 4, spoofed: 3, unverifiable: 0 });
    assert.equal(gpt.status["2xx"], 4);
    // Reverse DNS is off here: Googlebot's hits cannot be decided, and say why.
    const google = body.report.crawlers.find((c: { token: string }) => c.token === "Googlebot");
    assert.deepEqual(google.hits, { verified: 0, spoofed: 0, unverifiable: 2 });

    // A second upload (a shard) adds to the same days.
    const again = await post(env, "/api/logs/shop.test", RENDER.combined(SCENARIO), {
      authorization: `Bearer ${key}`,
      "content-length": String(new TextEncoder().encode(RENDER.combined(SCENARIO)).length),
    });
    assert.equal(again.status, 200);
    const report = await (await env.app.request("/api/logs/shop.test", {
      headers: { authorization: `Bearer ${key}` },
    })).json();
    assert.deepEqual(
      report.report.crawlers.find((c: { token: string }) => c.token === "GPTBot").hits,
      { verified: 8, spoofed: 6, unverifiable: 0 },
    );
    assert.equal(report.reads.length, 2);

    const stored: string[] = [];
    for await (const e of env.kv.list({ prefix: [] })) {
      stored.push(JSON.stringify([e.key, e.value]));
    }
    const all = stored.join("\n");
    assert.ok(all.includes("log_days"));
    for (const ip of [...HUMAN_IPS, "192.0.2.10", "203.0.113.7"]) {
      assert.ok(!all.includes(ip), `${ip} stored`);
    }
    assert.ok(!all.includes("Firefox"));
  } finally {
    await env.close();
  }
});

Deno.test("[logs/api] refusals: no key 401, no stated size 411, too large 413, unknown format and not a domain 400", async () => {
  const env = await startAppEnv({
    env: { LOG_UPLOAD_MAX_MB: "1", LOG_IP_RANGES_FETCH: "off", LOG_REVERSE_DNS: "off" },
  });
  try {
    const key = await accountKey(env);
    const auth = { authorization: `Bearer ${key}` };
    const text = RENDER.combined(SCENARIO);
    const len = { "content-length": String(text.length) };
    assert.equal((await post(env, "/api/logs/shop.test", text, len)).status, 401);
    assert.equal(
      (await post(env, "/api/logs/shop.test", text, { authorization: "Bearer uvk_nope", ...len }))
        .status,
      401,
    );
    const streamed = await post(env, "/api/logs/shop.test", new Blob([text]).stream(), auth);
    assert.equal(streamed.status, 411);
    assert.match((await streamed.json()).error, /Content-Length is required/);
    const big = await post(env, "/api/logs/shop.test", text, {
      ...auth,
      "content-length": String(2 * 1024 * 1024),
    });
    assert.equal(big.status, 413);
    const fmt = await post(env, "/api/logs/shop.test?format=apache", text, { ...auth, ...len });
    assert.equal(fmt.status, 400);
    assert.match((await fmt.json()).error, /Unknown format "apache"/);
    assert.equal((await post(env, "/api/logs/localhost", text, { ...auth, ...len })).status, 400);
    const empty = await post(env, "/api/logs/shop.test", "", { ...auth, "content-length": "0" });
    assert.equal(empty.status, 400);
  } finally {
    await env.close();
  }
});

Deno.test("[logs/api] server logs are the visibility service's: the schema service serves no /api/logs", async () => {
  const env = await startAppEnv({ env: { SERVICE: "schema" } });
  try {
    const res = await post(env, "/api/logs/shop.test", "x", {
      authorization: "Bearer usk_nothing",
      "content-length": "1",
    });
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /json/);
    const spec = await (await env.app.request("http://localhost/openapi.json")).json();
    assert.equal(spec.paths["/api/logs/{domain}"], undefined);
  } finally {
    await env.close();
  }
});
