/**
 * POST /mcp as an agent uses it: the official SDK `Client` with `StreamableHTTPClientTransport`,
 * in-process (a custom fetch into `app.request`, no socket) and once against a real listening
 * server. Initialize, tools and their schemas, every tool on fixture sites, bad arguments, the
 * limits shared with the public form, the resource and prompt, and the HTTP edge.
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Handler, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv as HonoEnv } from "../lib/kit/web/context.ts";
import { HttpError } from "../lib/kit/errors.ts";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { PRODUCT } from "../lib/kit/config.ts";
import { mcpHandlers, mcpRoute } from "../routes/mcp.ts";
import { RateLimitedError } from "../lib/kit/errors.ts";
import type { RecordViewGate } from "../lib/kit/web/record_views.ts";
import { fakeLookup, PIPELINE, startAppEnv, type TestEnv } from "./helpers/app_env.ts";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch into an app with no socket, from the given client IP (TRUST_PROXY=1 in tests). */
function inProcess(app: { request: (r: Request) => Response | Promise<Response> }, ip: string) {
  const f: Fetch = (url, init) => {
    const request = new Request(url, init);
    request.headers.set("x-forwarded-for", ip);
    return Promise.resolve(app.request(request));
  };
  return f;
}

/** Connects the SDK's own client, as an agent would. */
async function connect(fetch: Fetch, url = "http://localhost/mcp"): Promise<Client> {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch }));
  return client;
}

/**
 * The /mcp routes alone, mounted like lib/app/app.ts does but with a short scan wait, on the env's
 * store and clock: for tests where no worker runs, so scan_site answers "running" at once.
 */
function shortWaitApp(env: TestEnv, scanWaitMs = 0, viewGate?: RecordViewGate) {
  const app = new Hono<HonoEnv>();
  app.use("*", async (c, next) => {
    c.set("clientIp", c.req.header("x-forwarded-for") ?? "unknown");
    await next();
  });
  const deps = {
    config: env.config,
    store: env.store,
    service: env.service,
    now: () => env.clock.now,
    lookup: fakeLookup,
    log: () => {},
  };
  // With a view gate, mounted the way lib/app/app.ts mounts the route (its handlers get the app's gate).
  const handlers = viewGate
    ? mcpRoute.handlers({ ...env.deps, ...deps }, { routes: [], viewGate })
    : mcpHandlers(deps, { scanWaitMs });
  const [guard, post] = handlers.POST as [MiddlewareHandler<HonoEnv>, Handler<HonoEnv>];
  const [guardAll, other] = handlers.ALL as [MiddlewareHandler<HonoEnv>, Handler<HonoEnv>];
  app.post("/mcp", guard, post);
  app.all("/mcp", guardAll, other);
  app.onError((e, c) =>
    e instanceof HttpError
      ? c.json(e.body(), e.status as 400, e.headers())
      : c.json({ error: String(e) }, 500)
  );
  return app;
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return await client.callTool({ name, arguments: args }) as CallToolResult;
}

function storeRecord(env: TestEnv, domain: string) {
  const record = {
    domain,
    status: "ok" as const,
    scannedAt: new Date(env.clock.now - 3600_000).toISOString(),
    result: { score: 50, grade: "D" as const, label: "Poor", pillars: [], topIssues: [] },
    offSite: null,
  };
  return env.store.finishScan({
    kind: "scan",
    service: "visibility",
    jobId: crypto.randomUUID(),
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "pipeline",
    enqueuedAt: env.clock.now,
  }, { record, failure: null, credential: "pipeline", durationMs: 1, jobId: "x" });
}

async function releaseInflight(env: TestEnv, domain: string) {
  const mark = (await env.store.getInflight(domain))!;
  await env.store.releaseInflight({
    kind: "scan",
    service: "visibility",
    jobId: mark.jobId,
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: mark.credential,
    enqueuedAt: mark.since,
  });
}

Deno.test("POST /mcp - initialize and list: name, version, instructions, tools, resources, prompts", async () => {
  const env = await startAppEnv();
  const client = await connect(inProcess(env.app, "203.0.113.1"));
  try {
    assert.deepEqual(client.getServerVersion(), {
      name: "ai-visibility-checker",
      title: "AI Visibility Checker",
      version: PRODUCT.version,
    });
    const instructions = client.getInstructions() ?? "";
    for (const word of ["scan_site", "get_report", "explain_issue", "8 per hour", "3 per hour"]) {
      assert.ok(instructions.includes(word), `instructions mention ${word}`);
    }
    assert.match(instructions, /Cached reports are free/);

    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), [
      "analyse_server_log",
      "answer_presence",
      "answer_presence_run",
      "compare_scans",
      "explain_issue",
      "get_report",
      "list_scans",
      "list_watches",
      "run_answer_presence",
      "scan_site",
      "unwatch_site",
      "watch_site",
    ]);
    // The watch tools change an account's watch list (tests/features/watch/watch_api_test.ts); a run of answer
    // presence spends calls (tests/features/answers/answers_mcp_test.ts).
    const changing = new Set([
      "watch_site",
      "unwatch_site",
      "run_answer_presence",
      "analyse_server_log",
    ]);
    for (const tool of tools) {
      assert.ok(tool.title && tool.description && tool.description.length > 80, tool.name);
      assert.equal(tool.inputSchema.type, "object");
      assert.equal(tool.outputSchema?.type, "object", `${tool.name} has an output schema`);
      assert.equal(tool.annotations?.readOnlyHint, !changing.has(tool.name), tool.name);
      assert.equal(tool.annotations?.destructiveHint, tool.name === "unwatch_site", tool.name);
    }
    assert.deepEqual(byName.scan_site.inputSchema.required, ["url"]);
    assert.deepEqual(Object.keys(byName.scan_site.inputSchema.properties!).sort(), [
      "forceRescan",
      "render",
      "url",
    ]);
    assert.equal(byName.scan_site.annotations?.openWorldHint, true);
    assert.equal(byName.get_report.annotations?.openWorldHint, false);
    assert.deepEqual(byName.get_report.inputSchema.required, ["domain"]);
    assert.deepEqual(byName.explain_issue.inputSchema.required, ["domain", "issueId"]);
    const scanOut = byName.scan_site.outputSchema!.properties as Record<string, unknown>;
    assert.ok(scanOut.record && scanOut.state && scanOut.fromCache && scanOut.reportPath);

    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((r) => [r.uriTemplate, r.mimeType]), [
      ["report://{domain}", "application/json"],
    ]);
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ["improve_ai_visibility"]);
    const prompt = await client.getPrompt({
      name: "improve_ai_visibility",
      arguments: { domain: "shop.example" },
    });
    const message = prompt.messages[0].content;
    assert.ok(
      message.type === "text" && message.text.includes('scan_site tool with url "shop.example"'),
    );
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("[worker] POST /mcp - an agent scans fixture sites and reads their reports through /mcp alone", async (t) => {
  const env = await startAppEnv({ worker: true });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => env.app.fetch(req, info),
  );
  const url = `http://127.0.0.1:${server.addr.port}/mcp`;
  const overSocket = await connect((u, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-for", "198.51.100.20");
    return fetch(u, { ...init, headers });
  }, url);
  const inProc = await connect(inProcess(env.app, "198.51.100.21"));
  try {
    await t.step(
      "over a real socket: scan_site waits for the scan and returns the record",
      async () => {
        const result = await call(overSocket, "scan_site", { url: "HTTPS://Good.Test/about?x=1" });
        assert.equal(result.isError, undefined, text(result));
        const out = result.structuredContent as Record<string, unknown>;
        assert.equal(out.state, "complete");
        assert.equal(out.fromCache, false);
        assert.equal(out.domain, "good.test");
        assert.equal(out.reportPath, "/api/report/good.test.json");
        const record = ScanRecordSchema.parse(out.record);
        assert.equal(record.status, "ok");
        assert.ok(record.result!.score >= 90);
        assert.match(text(result), /Score \d+\/100, grade A/);
        assert.equal((await env.store.getScan("good.test"))?.credential, "mcp");
      },
    );
    await t.step("get_report and the resource return the stored record", async () => {
      const result = await call(overSocket, "get_report", { domain: "good.test" });
      const out = result.structuredContent as Record<string, unknown>;
      assert.equal(out.found, true);
      assert.equal(out.fresh, true);
      assert.equal(out.scanRunning, false);
      assert.equal(ScanRecordSchema.parse(out.record).domain, "good.test");
      const read = await overSocket.readResource({ uri: "report://good.test" });
      const content = read.contents[0];
      assert.equal(content.mimeType, "application/json");
      assert.ok("text" in content);
      assert.deepEqual(JSON.parse(content.text), out.record);
    });
    await t.step("a second scan_site is a cache hit and uses no limit", async () => {
      const used = await env.store.poolUsage(
        { pool: "ip", id: "198.51.100.20", limit: 8, windowMs: 3600_000 },
        env.clock.now,
      );
      const result = await call(overSocket, "scan_site", { url: "good.test" });
      assert.equal((result.structuredContent as { fromCache: boolean }).fromCache, true);
      assert.match(text(result), /Cached report/);
      const after = await env.store.poolUsage(
        { pool: "ip", id: "198.51.100.20", limit: 8, windowMs: 3600_000 },
        env.clock.now,
      );
      assert.equal(after.used, used.used);
      assert.equal(used.used, 1);
    });
    await t.step("explain_issue on blocks-search.test: its first issue in depth", async () => {
      const scanned = await call(inProc, "scan_site", { url: "blocks-search.test" });
      assert.equal((scanned.structuredContent as { state: string }).state, "complete");
      const result = await call(inProc, "explain_issue", {
        domain: "blocks-search.test",
        issueId: "access.search_crawlers",
      });
      assert.equal(result.isError, undefined, text(result));
      const out = result.structuredContent as {
        rank: number;
        issueCount: number;
        issue: { id: string; impact: string; fix: { how: string; effort: string } };
        signal: { id: string; evidence: string[]; gate: { cap: number } | null };
        pillar: { id: string; weight: number };
      };
      assert.equal(out.rank, 1);
      assert.ok(out.issueCount >= 1);
      assert.equal(out.issue.id, "access.search_crawlers");
      assert.equal(out.issue.impact, "critical");
      assert.equal(out.signal.id, "access.search_crawlers");
      assert.ok(out.signal.evidence.length > 0);
      assert.equal(out.pillar.id, "access");
      assert.match(text(result), /Issue 1 of \d+/);
      assert.match(text(result), /What to do: /);
      assert.match(text(result), /capped at 35/);
      // The fix's steps and code blocks reach the agent intact, fences included.
      assert.match(out.issue.fix.how, /\n```\nUser-agent: OAI-SearchBot\n/);
      assert.ok(text(result).includes(out.issue.fix.how), "the how text is passed on verbatim");
      // What the check means: the same texts as the report page's /learn/<id>.
      const learn = (result.structuredContent as {
        learn: { what: string; path: string; sources: { url: string }[] };
      }).learn;
      assert.equal(learn.path, "/learn/access.search_crawlers");
      assert.ok(learn.sources.some((s) => s.url === "https://developers.openai.com/api/docs/bots"));
      assert.ok(text(result).includes(`About this check: ${learn.what}`));
    });
    await t.step("explain_issue with an unknown id lists the valid ids", async () => {
      const result = await call(inProc, "explain_issue", {
        domain: "blocks-search.test",
        issueId: "nope.nothing",
      });
      assert.equal(result.isError, true);
      assert.match(text(result), /not an issue of blocks-search\.test's report/);
      assert.match(text(result), /Valid ids: access\.search_crawlers/);
    });
    await t.step("a site that is down gives a complete, failed record", async () => {
      const result = await call(inProc, "scan_site", { url: "down.test" });
      const out = result.structuredContent as { state: string; record: unknown };
      assert.equal(out.state, "complete");
      assert.equal(ScanRecordSchema.parse(out.record).status, "failed");
      assert.match(text(result), /The scan failed/);
      const explained = await call(inProc, "explain_issue", { domain: "down.test", issueId: "x" });
      assert.equal(explained.isError, true);
      assert.match(text(explained), /failed/);
    });
  } finally {
    await overSocket.close();
    await inProc.close();
    await server.shutdown();
    await env.close();
  }
});

Deno.test("POST /mcp - get_report, explain_issue and the resource of a domain never scanned", async () => {
  const env = await startAppEnv();
  const client = await connect(inProcess(env.app, "203.0.113.2"));
  try {
    const report = await call(client, "get_report", { domain: "https://WWW.Never.Example/x" });
    assert.equal(report.isError, undefined);
    assert.deepEqual(report.structuredContent, {
      domain: "never.example",
      found: false,
      scanRunning: false,
      fresh: false,
      record: null,
      reportPath: "/api/report/never.example.json",
      resourceUri: "report://never.example",
    });
    assert.match(text(report), /never\.example has never been scanned/);
    const explain = await call(client, "explain_issue", {
      domain: "never.example",
      issueId: "access.search_crawlers",
    });
    assert.equal(explain.isError, true);
    assert.match(text(explain), /never been scanned/);
    await assert.rejects(
      client.readResource({ uri: "report://never.example" }),
      (e: Error & { code?: number }) => e.code === -32002 && /never been scanned/.test(e.message),
    );
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("POST /mcp - bad arguments and targets are tool errors that say why", async () => {
  const env = await startAppEnv();
  const client = await connect(inProcess(env.app, "203.0.113.3"));
  try {
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      ["missing url", "scan_site", {}, /Input validation error.*url/s],
      ["url of the wrong type", "scan_site", { url: 42 }, /Input validation error.*url/s],
      [
        "forceRescan of the wrong type",
        "scan_site",
        { url: "a.example", forceRescan: "yes" },
        /Input validation error.*forceRescan/s,
      ],
      ["missing issueId", "explain_issue", { domain: "a.example" }, /Input validation error/],
      ["ftp URL", "scan_site", { url: "ftp://x" }, /only http and https/],
      ["IPv4 literal", "scan_site", { url: "http://127.0.0.1/" }, /IP addresses cannot be scanned/],
      ["IPv6 literal", "scan_site", { url: "http://[::1]/" }, /IP addresses cannot be scanned/],
      ["single label", "get_report", { domain: "localhost" }, /no dot/],
      ["a name that does not resolve", "scan_site", { url: "shop.nx.example" }, /does not resolve/],
      ["a private address", "scan_site", { url: "shop.private.example" }, /private/],
    ];
    for (const [name, tool, args, reason] of cases) {
      const result = await call(client, tool, args);
      assert.equal(result.isError, true, name);
      assert.match(text(result), reason, name);
    }
    const unknown = await call(client, "no_such_tool", {});
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /no_such_tool not found/);
    assert.equal(await env.store.getInflight("a.example"), null, "nothing was scanned");
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("[limits] POST /mcp - 8 new scans an hour per IP, shared with the form; cache hits are free", async () => {
  const env = await startAppEnv();
  const app = shortWaitApp(env);
  const ip = "192.0.2.40";
  const client = await connect(inProcess(app, ip));
  try {
    await storeRecord(env, "cached.example");
    for (let i = 0; i < 8; i++) {
      const result = await call(client, "scan_site", { url: `m${i}.example` });
      assert.equal(result.isError, undefined, text(result));
      assert.deepEqual(result.structuredContent, {
        domain: `m${i}.example`,
        state: "running",
        fromCache: false,
        record: null,
        reportPath: `/api/report/m${i}.example.json`,
        resourceUri: `report://m${i}.example`,
      });
      assert.match(text(result), /still running.*get_report/s);
      const job = await env.store.getInflight(`m${i}.example`);
      assert.equal(job?.credential, "mcp");
    }
    const ninth = await call(client, "scan_site", { url: "m8.example" });
    assert.equal(ninth.isError, true);
    assert.match(text(ninth), /at most 8 new scans per hour from this IP address/);
    const retry = text(ninth).match(/Retry after (\d+) seconds \(at ([^)]+)\)/);
    assert.ok(retry, text(ninth));
    assert.equal(Number(retry[1]), 3600);
    assert.equal(retry[2], new Date(env.clock.now + 3600_000).toISOString());
    assert.equal(await env.store.getInflight("m8.example"), null, "the 9th was not queued");

    const cached = await call(client, "scan_site", { url: "cached.example" });
    assert.equal(cached.isError, undefined, "a cached report is served even with the pool full");
    assert.equal((cached.structuredContent as { fromCache: boolean }).fromCache, true);

    const form = await env.scan({ url: "f1.example", turnstileToken: "good-token" }, { ip });
    assert.equal(form.status, 429, "the public form shares the pool with MCP");
    await form.body?.cancel();

    env.clock.now += 3600_000;
    const later = await call(client, "scan_site", { url: "m8.example" });
    assert.equal(later.isError, undefined, "an hour later the window has room again");

    const other = await connect(inProcess(app, "192.0.2.41"));
    const fromOther = await call(other, "scan_site", { url: "m9.example" });
    assert.equal(fromOther.isError, undefined, "another IP has its own pool");
    await other.close();
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("[limits] POST /mcp - through the mounted app, the IP of X-Forwarded-For is the pool", async () => {
  const env = await startAppEnv();
  const ip = "192.0.2.50";
  const client = await connect(inProcess(env.app, ip));
  try {
    for (let i = 0; i < 8; i++) {
      const res = await env.scan({ url: `p${i}.example` }, { ip, auth: `Bearer ${PIPELINE}` });
      assert.equal(res.status, 202);
      await res.body?.cancel();
    }
    const ninth = await call(client, "scan_site", { url: "p8.example" });
    assert.equal(ninth.isError, true);
    assert.match(text(ninth), /at most 8 new scans per hour from this IP address/);
    assert.equal(await env.store.getInflight("p8.example"), null);
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("[limits] POST /mcp - a 4th new scan of one domain in an hour is refused, whoever asks", async () => {
  const env = await startAppEnv();
  const app = shortWaitApp(env);
  try {
    const t0 = env.clock.now;
    for (let i = 0; i < 3; i++) {
      env.clock.now = t0 + i * 1000;
      const client = await connect(inProcess(app, `198.51.100.${60 + i}`));
      const result = await call(client, "scan_site", { url: "busy.example", forceRescan: true });
      assert.equal((result.structuredContent as { state: string }).state, "running");
      await client.close();
      await releaseInflight(env, "busy.example");
    }
    const client = await connect(inProcess(app, "198.51.100.99"));
    const fourth = await call(client, "scan_site", { url: "busy.example", forceRescan: true });
    assert.equal(fourth.isError, true);
    assert.match(text(fourth), /at most 3 new scans per hour of this domain/);
    assert.match(text(fourth), /Retry after 3598 seconds/);
    await client.close();
  } finally {
    await env.close();
  }
});

Deno.test("POST /mcp - scan_site waits for a scan finished by another process", async () => {
  const env = await startAppEnv();
  const client = await connect(inProcess(shortWaitApp(env, 5000), "203.0.113.4"));
  try {
    const pending = call(client, "scan_site", { url: "slow.example" });
    // Stand in for the worker: finish the job once it is queued.
    let mark = null;
    while (!(mark = await env.store.getInflight("slow.example"))) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    const record = {
      domain: "slow.example",
      status: "ok" as const,
      scannedAt: new Date(env.clock.now).toISOString(),
      result: { score: 61, grade: "C" as const, label: "Fair", pillars: [], topIssues: [] },
      offSite: null,
    };
    await env.store.finishScan({
      kind: "scan",
      service: "visibility",
      jobId: mark.jobId,
      target: { domain: "slow.example", url: "https://slow.example/", host: "slow.example" },
      credential: "mcp",
      enqueuedAt: mark.since,
    }, { record, failure: null, credential: "mcp", durationMs: 300, jobId: mark.jobId });
    const result = await pending;
    assert.equal(result.isError, undefined, text(result));
    assert.equal((result.structuredContent as { state: string }).state, "complete");
    assert.deepEqual((result.structuredContent as { record: unknown }).record, record);
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("POST /mcp - the HTTP edge: 405 for GET/DELETE, JSON-RPC errors with a 4xx for bad bodies", async (t) => {
  const env = await startAppEnv();
  const post = (body: string, headers: Record<string, string> = {}) =>
    Promise.resolve(env.app.request("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body,
    }));
  async function expectRpcError(res: Response, status: number, code: number, message?: RegExp) {
    const body = await res.json();
    assert.equal(res.status, status, JSON.stringify(body));
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(body.jsonrpc, "2.0");
    assert.equal(body.id, null);
    assert.equal(body.error.code, code);
    if (message) assert.match(body.error.message, message);
    return body;
  }
  try {
    for (const method of ["GET", "DELETE", "PUT"]) {
      await t.step(`${method} /mcp is 405 with a JSON-RPC error and Allow: POST`, async () => {
        const res = await env.app.request("/mcp", { method });
        const body = await expectRpcError(res, 405, -32000);
        assert.deepEqual(body, {
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed." },
          id: null,
        });
        assert.equal(res.headers.get("allow"), "POST");
      });
    }
    await t.step("malformed JSON is a parse error (-32700), 400", async () => {
      await expectRpcError(await post('{"jsonrpc": "2.0", '), 400, -32700, /Parse error/);
      await expectRpcError(await post(""), 400, -32700);
    });
    await t.step("JSON that is not JSON-RPC is an invalid request (-32600), 400", async () => {
      for (const body of ['{"hello": "world"}', "42", "null", '{"jsonrpc":"1.0","method":"x"}']) {
        await expectRpcError(await post(body), 400, -32600, /Invalid Request/);
      }
    });
    await t.step(
      "batches: answered for 2025-03-26 clients, refused from 2025-06-18 on",
      async () => {
        const batch = JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
          { jsonrpc: "2.0", id: 2, method: "ping" },
        ]);
        for (const version of ["2025-06-18", "2025-11-25"]) {
          await expectRpcError(
            await post(batch, { "mcp-protocol-version": version }),
            400,
            -32600,
            /batches were removed/,
          );
        }
        const batchHeaders: Record<string, string>[] = [
          { "mcp-protocol-version": "2025-03-26" },
          {},
        ];
        for (const headers of batchHeaders) {
          const res = await post(batch, headers);
          const body = await res.json();
          assert.equal(res.status, 200, JSON.stringify(body));
          assert.ok(Array.isArray(body));
          assert.deepEqual(body.map((m: { id: number }) => m.id).sort(), [1, 2]);
        }
        const old = { "mcp-protocol-version": "2025-03-26" };
        await expectRpcError(await post("[]", old), 400, -32600);
        const eleven = JSON.stringify(
          Array.from({ length: 11 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })),
        );
        await expectRpcError(await post(eleven, old), 400, -32600, /1 to 10 messages/);
      },
    );
    await t.step("a body over 64 KiB is 413", async () => {
      const big = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "scan_site", arguments: { url: "x".repeat(70_000) } },
      });
      await expectRpcError(await post(big), 413, -32000, /too large/);
    });
    await t.step("the transport's own checks still apply: Accept and Content-Type", async () => {
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      await expectRpcError(await post(ping, { accept: "text/html" }), 406, -32000);
      await expectRpcError(await post(ping, { "content-type": "text/plain" }), 415, -32000);
    });
    await t.step("an unknown method is the protocol's method-not-found, not a 5xx", async () => {
      const res = await post(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "no/such" }));
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.id, 7);
      assert.equal(body.error.code, -32601);
    });
    await t.step("huge tool arguments are refused before the tool runs", async () => {
      const res = await post(JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/call",
        params: {
          name: "get_report",
          arguments: { domain: "a.example", junk: Array(500).fill(1) },
        },
      }));
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.result.isError, true);
      assert.match(body.result.content[0].text, /maximum of 64 elements/);
    });
  } finally {
    await env.close();
  }
});

Deno.test("[mcp] schema service: generate_schema returns the markup to paste and the findings", async (t) => {
  const env = await startAppEnv({ worker: true, env: { SERVICE: "schema" } });
  const client = await connect(inProcess(env.app, "203.0.113.60"), "http://127.0.0.1/mcp");
  try {
    await t.step("the schema server lists generate_schema, scan_site and get_report", async () => {
      assert.equal(client.getServerVersion()?.name, "schema-markup-generator");
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      // Server logs are the visibility service's (lib/service.ts readsServerLogs).
      assert.deepEqual(names, [
        "answer_presence",
        "answer_presence_run",
        "compare_scans",
        "generate_schema",
        "get_report",
        "list_scans",
        "list_watches",
        "run_answer_presence",
        "scan_site",
        "unwatch_site",
        "validate_code",
        "watch_site",
      ]);
    });
    await t.step("a page without JSON-LD gets a graph generated from its content", async () => {
      const result = await call(client, "generate_schema", { url: "https://no-llms.test/" });
      assert.notEqual(result.isError, true, text(result));
      const out = result.structuredContent as {
        state: string;
        script: string;
        graph: { "@graph": { "@id"?: string }[] };
        fillIn: unknown[];
        url: string;
      };
      assert.equal(out.state, "complete");
      assert.equal(out.url, "https://no-llms.test/");
      assert.match(out.script, /^<script type="application\/ld\+json">/);
      assert.ok(out.graph["@graph"].some((n) => n["@id"] === "https://no-llms.test/#webpage"));
      // The page states no site name, so no WebSite node is invented: it is left to fill in.
      assert.ok(!out.graph["@graph"].some((n) => n["@id"] === "https://no-llms.test/#website"));
      assert.match(JSON.stringify(out.fillIn), /WebSite\.name/);
      assert.match(text(result), /Generated markup/);
    });
    await t.step("the same page again is answered from cache", async () => {
      const again = await call(client, "generate_schema", { url: "https://no-llms.test/" });
      assert.equal((again.structuredContent as { fromCache: boolean }).fromCache, true);
    });
    await t.step("a page that cannot be fetched is a tool error that says so", async () => {
      const failed = await call(client, "generate_schema", { url: "https://down.test/" });
      assert.equal(failed.isError, true);
      assert.match(text(failed), /could not be fetched/);
    });
  } finally {
    await client.close();
    await env.close();
  }
});

Deno.test("POST /mcp - one address has at most 4 requests in progress; a 5th is 429, others go on", async () => {
  const env = await startAppEnv();
  const app = shortWaitApp(env, 1500); // no worker: each scan_site waits the full 1.5 s
  const post = (ip: string, body: unknown) =>
    Promise.resolve(app.request("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": ip,
      },
      body: JSON.stringify(body),
    }));
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
  try {
    const waiting = [1, 2, 3, 4].map((i) =>
      post("203.0.113.50", {
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: "scan_site", arguments: { url: `wait${i}.example` } },
      })
    );
    await new Promise((r) => setTimeout(r, 300));
    const fifth = await post("203.0.113.50", ping(5));
    assert.equal(fifth.status, 429);
    assert.equal(fifth.headers.get("retry-after"), "1");
    const body = await fifth.json();
    assert.equal(body.jsonrpc, "2.0");
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /at most 4 at once/);
    const other = await post("203.0.113.51", ping(6));
    assert.equal(other.status, 200, "another address is not affected");
    await other.body?.cancel();
    for (const res of await Promise.all(waiting)) {
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    const again = await post("203.0.113.50", ping(7));
    assert.equal(again.status, 200, "the address is served again once its requests finished");
    await again.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("POST /mcp - reads of stored records wait their turn in the app's queue of record views", async () => {
  const env = await startAppEnv();
  // A gate that lets everything through and says who asked (the app's is a FairGate).
  const turns: string[] = [];
  let refuse = false;
  const gate: RecordViewGate = {
    run: async <T>(caller: string, task: () => Promise<T>) => {
      turns.push(caller);
      if (refuse) {
        throw new RateLimitedError(
          "Too many report views at once from this address: wait for the ones in progress. Retry in 2 seconds.",
          2,
        );
      }
      return await task();
    },
  };
  const client = await connect(inProcess(shortWaitApp(env, 0, gate), "203.0.113.77"));
  try {
    await storeRecord(env, "queued.example");
    assert.equal(
      (await call(client, "get_report", { domain: "queued.example" })).isError,
      undefined,
    );
    await client.readResource({ uri: "report://queued.example" });
    await call(client, "compare_scans", { domain: "queued.example" });
    assert.deepEqual(turns, ["203.0.113.77", "203.0.113.77", "203.0.113.77"]);
    // A full queue is a tool error the agent can act on; it never claims reads are free of limits.
    refuse = true;
    const busy = await call(client, "get_report", { domain: "queued.example" });
    assert.equal(busy.isError, true);
    assert.match(text(busy), /Too many report views at once.*Retry after 2 seconds/);
    assert.doesNotMatch(text(busy), /never counts against the limits/);
  } finally {
    await client.close();
    await env.close();
  }
});
