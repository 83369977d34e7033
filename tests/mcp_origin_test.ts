/**
 * POST /mcp at the edge a browser sees: DNS-rebinding protection (Host and Origin checked, 403
 * otherwise), CORS for allowed origins (preflight answered, headers on every answer), and what
 * the server promises (no listChanged) and returns (the first text part mirrors
 * structuredContent).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { checkOrigin, hostNameOf, originPolicyFor } from "../lib/kit/mcp/http.ts";
import { startAppEnv, type TestEnv } from "./helpers/app_env.ts";

const V = "2025-11-25";
const init = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

function post(
  env: TestEnv,
  body: unknown,
  headers: Record<string, string> = {},
  url = "http://localhost/mcp",
): Promise<Response> {
  return Promise.resolve(env.app.request(
    new Request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": "203.0.113.9",
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  ));
}

async function withEnv(env: Record<string, string>, run: (e: TestEnv) => Promise<void>) {
  const e = await startAppEnv({ env });
  try {
    await run(e);
  } finally {
    await e.close();
  }
}

Deno.test("/mcp on a loopback-bound server: foreign Origin and foreign Host are 403", async () => {
  await withEnv({}, async (env) => {
    const evil = await post(env, init, { origin: "http://evil.example" });
    assert.equal(evil.status, 403);
    assert.equal((await evil.json()).error.code, -32000);
    assert.equal(evil.headers.get("access-control-allow-origin"), null);

    // DNS rebinding: the attacker's name resolves to us, so Host and Origin agree with each other.
    const rebound = await post(
      env,
      init,
      { host: "attacker.example:8000", origin: "http://attacker.example:8000" },
      "http://attacker.example:8000/mcp",
    );
    assert.equal(rebound.status, 403);
    await rebound.body?.cancel();

    const null_ = await post(env, init, { origin: "null" });
    assert.equal(null_.status, 403);
    await null_.body?.cancel();

    const own = await post(env, init, { origin: "http://localhost" });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get("access-control-allow-origin"), "http://localhost");
    assert.match(own.headers.get("access-control-expose-headers") ?? "", /Mcp-Session-Id/);
    await own.body?.cancel();

    const noOrigin = await post(env, init);
    assert.equal(noOrigin.status, 200);
    assert.equal(noOrigin.headers.get("access-control-allow-origin"), null);
    await noOrigin.body?.cancel();
  });
});

Deno.test("/mcp CORS: OPTIONS preflight is answered for allowed origins, 403 for others", async () => {
  await withEnv({ MCP_ALLOWED_ORIGINS: "https://inspector.example.org" }, async (env) => {
    const preflight = (origin: string) =>
      Promise.resolve(env.app.request("http://localhost/mcp", {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, mcp-protocol-version",
        },
      }));
    const ok = await preflight("https://inspector.example.org");
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get("access-control-allow-origin"), "https://inspector.example.org");
    assert.match(ok.headers.get("access-control-allow-methods") ?? "", /POST/);
    assert.match(ok.headers.get("access-control-allow-headers") ?? "", /Mcp-Protocol-Version/i);
    assert.match(ok.headers.get("access-control-allow-headers") ?? "", /Content-Type/i);
    assert.equal(ok.headers.get("vary"), "Origin");

    const foreign = await preflight("https://evil.example");
    assert.equal(foreign.status, 403);
    await foreign.body?.cancel();

    // The listed origin may POST, and its errors carry CORS headers too (the page can read them).
    const call = await post(env, init, { origin: "https://inspector.example.org" });
    assert.equal(call.status, 200);
    assert.equal(
      call.headers.get("access-control-allow-origin"),
      "https://inspector.example.org",
    );
    await call.body?.cancel();
    const get = await Promise.resolve(env.app.request("http://localhost/mcp", {
      headers: { origin: "https://inspector.example.org" },
    }));
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("access-control-allow-origin"), "https://inspector.example.org");
    await get.body?.cancel();
  });
});

Deno.test("/mcp on a public deployment: PUBLIC_URL names the Host; * opens every origin", async () => {
  await withEnv(
    { HOST: "0.0.0.0", PUBLIC_URL: "https://checker.example.org", MCP_ALLOWED_ORIGINS: "*" },
    async (env) => {
      const url = "https://checker.example.org/mcp";
      const own = await post(env, init, { host: "checker.example.org" }, url);
      assert.equal(own.status, 200);
      await own.body?.cancel();
      const any = await post(
        env,
        init,
        { host: "checker.example.org", origin: "https://someone-elses-client.example" },
        url,
      );
      assert.equal(any.status, 200);
      assert.equal(
        any.headers.get("access-control-allow-origin"),
        "https://someone-elses-client.example",
      );
      await any.body?.cancel();
      // Another name pointed at the same address is still refused.
      const other = await post(env, init, { host: "rebind.example" }, "http://rebind.example/mcp");
      assert.equal(other.status, 403);
      await other.body?.cancel();
    },
  );
});

Deno.test("the origin policy follows HOST, PUBLIC_URL and MCP_ALLOWED_HOSTS", () => {
  const req = (host: string, origin?: string) =>
    new Request(`http://${host}/mcp`, { headers: { host, ...(origin ? { origin } : {}) } });
  const local = originPolicyFor(loadConfig({}));
  assert.deepEqual(local.allowedHosts, ["localhost", "127.0.0.1", "::1"]);
  assert.equal(checkOrigin(req("[::1]:8000", "http://[::1]:8000"), local), "http://[::1]:8000");
  assert.throws(() => checkOrigin(req("evil.example"), local), /Host/);
  // Bound to every interface with no name known: loopback names and IP addresses, no other name
  // (a rebinding attacker's name is refused), and still only its own Origin.
  const open = originPolicyFor(loadConfig({ HOST: "0.0.0.0" }));
  assert.deepEqual(open.allowedHosts, ["localhost", "127.0.0.1", "::1"]);
  assert.equal(checkOrigin(req("203.0.113.5:8000"), open), null);
  assert.equal(checkOrigin(req("[2001:db8::5]:8000"), open), null);
  assert.throws(() => checkOrigin(req("rebind.example:8000"), open), /Host/);
  assert.throws(() => checkOrigin(req("203.0.113.5:8000", "http://evil.example"), open), /Origin/);
  // On Deno Deploy its proxy routes only the deployment's names: no list is needed there.
  const deploy = originPolicyFor(loadConfig({ DENO_DEPLOYMENT_ID: "x" }));
  assert.equal(deploy.allowedHosts, null);
  // An IP address is not accepted once names are known.
  assert.equal(
    originPolicyFor(loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://a.example" }))
      .ipHosts,
    false,
  );
  const named = originPolicyFor(loadConfig({ HOST: "::", MCP_ALLOWED_HOSTS: "mcp.example.org" }));
  assert.ok(named.allowedHosts?.includes("mcp.example.org"));
  assert.throws(() => checkOrigin(req("other.example.org"), named), /Host/);
  assert.throws(() => loadConfig({ MCP_ALLOWED_ORIGINS: "not a url" }), /MCP_ALLOWED_ORIGINS/);
  // Behind a proxy that rewrites Host, the deployment's own pages still count as its own.
  const proxied = originPolicyFor(loadConfig({ PUBLIC_URL: "https://checker.example.org/" }));
  assert.equal(
    checkOrigin(req("127.0.0.1:8000", "https://checker.example.org"), proxied),
    "https://checker.example.org",
  );
  assert.equal(hostNameOf("Example.ORG:443"), "example.org");
  assert.equal(hostNameOf("bad host"), null);
});

Deno.test("initialize promises no listChanged; a tool's first text part is its structuredContent", async () => {
  await withEnv({}, async (env) => {
    const res = await post(env, init);
    const body = await res.json();
    const caps = body.result.capabilities;
    assert.ok(caps.tools, JSON.stringify(caps));
    for (const kind of ["tools", "resources", "prompts"]) {
      assert.equal(caps[kind]?.listChanged, undefined, `${kind}: ${JSON.stringify(caps[kind])}`);
    }
    const call = await post(env, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_report", arguments: { domain: "never-scanned.example" } },
    }, { "mcp-protocol-version": V });
    const result = (await call.json()).result;
    assert.equal(result.isError, undefined);
    assert.equal(result.content[0].type, "text");
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    assert.equal(result.structuredContent.found, false);
    // The readable summary stays, after it.
    assert.match(result.content[1].text, /never been scanned/);
  });
});
