/**
 * Answer presence over MCP, under the API's rules: anonymous calls are refused, an account runs it
 * for the sites it watches with its key in the request's header, a run's results read the same as
 * over the API, and a run over budget is refused with nothing sent to a vendor.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TestEnv } from "../../helpers/app_env.ts";
import { answersOf, idle } from "../../../lib/features/answers/context.ts";
import { call, DOMAIN, world } from "../../helpers/answers_env.ts";

function mcp(env: TestEnv, auth?: string) {
  const client = new Client({ name: "answers-test", version: "1.0.0" });
  const fetch = (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("x-forwarded-for", "203.0.113.91");
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
  return result.content.map((c: { type: string; text?: string }) => c.type === "text" ? c.text : "")
    .join("\n");
}

Deno.test("answers MCP - the same rules as the API: the key in the header, watched sites, the budget", async () => {
  const w = await world({ ANSWERS_ACCOUNT_CALLS_PER_DAY: "18" });
  try {
    const anonymous = mcp(w.env);
    await anonymous.connect();
    const refused = await anonymous.client.callTool({
      name: "run_answer_presence",
      arguments: { url: DOMAIN },
    }) as CallToolResult;
    assertEquals(refused.isError, true);
    assert(/Unauthorized/.test(text(refused)));
    await anonymous.client.close();

    const agent = mcp(w.env, `Bearer ${w.key}`);
    await agent.connect();
    const tools = (await agent.client.listTools()).tools.map((t: { name: string }) => t.name);
    for (const name of ["answer_presence", "run_answer_presence", "answer_presence_run"]) {
      assert(tools.includes(name), name);
    }
    const plan = await agent.client.callTool({
      name: "answer_presence",
      arguments: { url: DOMAIN },
    }) as CallToolResult;
    assert(!plan.isError, text(plan));
    assert(/Estimated cost of a run: 18 calls/.test(text(plan)));
    assert(/Gemini \(Google\): not configured/.test(text(plan)));
    const notMine = await agent.client.callTool({
      name: "run_answer_presence",
      arguments: { url: "other.test" },
    }) as CallToolResult;
    assert(notMine.isError && /watch list/.test(text(notMine)));

    w.replay.script("openai", ["answer"]);
    const started = await agent.client.callTool({
      name: "run_answer_presence",
      arguments: { url: DOMAIN },
    }) as CallToolResult;
    assert(!started.isError, text(started));
    const runId = (started.structuredContent as { run: { id: string } }).run.id;
    await idle(answersOf(w.env.deps));
    const result = await agent.client.callTool({
      name: "answer_presence_run",
      arguments: { url: DOMAIN, runId },
    }) as CallToolResult;
    assert(!result.isError, text(result));
    assert(/ChatGPT search \(OpenAI\): cited 6 of 6 \(61-100%\)/.test(text(result)));
    // No scan of the site is stored in this test: the result says so instead of guessing.
    assert(/No stored scan of the site says whether/.test(text(result)));
    const viaApi =
      await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}/runs/${runId}?answers=0`))
        .json();
    assertEquals(
      (result.structuredContent as { run: unknown }).run,
      viaApi.run,
    );

    const before = w.replay.requests.length;
    const over = await agent.client.callTool({
      name: "run_answer_presence",
      arguments: { url: DOMAIN },
    }) as CallToolResult;
    assert(over.isError && /Nothing was spent/.test(text(over)));
    assertEquals(w.replay.requests.length, before);
    await agent.client.close();
  } finally {
    await w.close();
  }
});
