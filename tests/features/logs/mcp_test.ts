/**
 * The `analyse_server_log` MCP tool through the SDK's client: anonymous, it reports and stores
 * nothing; with the account's key and a site, the counts are stored for that site; structured
 * content validates against the tool's output schema (the SDK checks it).
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { rangeDir, RENDER, SCENARIO } from "./log_fixtures.ts";

async function connect(env: TestEnv, auth?: string): Promise<Client> {
  const client = new Client({ name: "logs-test", version: "1.0.0" });
  const fetch = (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("x-forwarded-for", "203.0.113.91");
    if (auth) request.headers.set("authorization", auth);
    return Promise.resolve(env.app.request(request));
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch }),
  );
  return client;
}

async function accountKey(env: TestEnv): Promise<string> {
  const client = new WebClient(env, "198.51.100.201");
  await client.signUp(
    `m${crypto.randomUUID().slice(0, 8)}@example.com`,
    "correct horse battery staple",
  );
  const { html } = await client.page("/account");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  const created = await client.request("/account/keys", { form: { csrf, name: "k" }, json: true });
  return (await created.json()).key;
}

Deno.test("[logs/mcp] analyse_server_log: anonymous reports and stores nothing; with a key and a site it stores", async () => {
  const env = await startAppEnv({
    env: {
      LOG_IP_RANGES_DIR: await rangeDir(),
      LOG_REVERSE_DNS: "off",
      LOG_IP_RANGES_FETCH: "off",
    },
  });
  try {
    const anonymous = await connect(env);
    const tools = await anonymous.listTools();
    assert.ok(tools.tools.some((t) => t.name === "analyse_server_log"));
    const r = await anonymous.callTool({
      name: "analyse_server_log",
      arguments: { log: RENDER.cloudflare(SCENARIO) },
    }) as CallToolResult;
    assert.ok(!r.isError, JSON.stringify(r.content));
    const sc = r.structuredContent as {
      read: { format: string };
      report: { totals: Record<string, number> };
      stored: boolean;
    };
    assert.equal(sc.read.format, "cloudflare");
    assert.equal(sc.stored, false);
    // Lists from LOG_IP_RANGES_DIR are the worker's; reverse DNS is off (Googlebot unverifiable).
    assert.deepEqual(sc.report.totals, { verified: 6, spoofed: 3, unverifiable: 3 });
    const text = r.content.map((c) => c.type === "text" ? c.text : "").join("\n");
    assert.match(text, /GPTBot: 4 verified \(2xx 4\), 3 spoofed/);
    let rows = 0;
    for await (const _ of env.kv.list({ prefix: [env.service.name, "log_days"] })) rows++;
    assert.equal(rows, 0);

    const key = await accountKey(env);
    const owner = await connect(env, `Bearer ${key}`);
    const stored = await owner.callTool({
      name: "analyse_server_log",
      arguments: { log: RENDER.combined(SCENARIO), url: "https://shop.test/" },
    }) as CallToolResult;
    assert.ok(!stored.isError, JSON.stringify(stored.content));
    assert.equal((stored.structuredContent as { stored: boolean }).stored, true);
    for await (const _ of env.kv.list({ prefix: [env.service.name, "log_days"] })) rows++;
    assert.ok(rows > 0);

    const big = await anonymous.callTool({
      name: "analyse_server_log",
      arguments: { log: "x".repeat(50 * 1024) },
    }) as CallToolResult;
    assert.equal(big.isError, true);
  } finally {
    await env.close();
  }
});
