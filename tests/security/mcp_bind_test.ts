/**
 * Safe by default (issue 26): the server started as `deno task start` starts it, bound to every
 * interface (HOST=0.0.0.0) with neither PUBLIC_URL nor MCP_ALLOWED_HOSTS, refuses a DNS-rebinding
 * request to /mcp (a foreign Host, a foreign Origin) with 403, and still serves a client that
 * names it by address.
 */
import assert from "node:assert/strict";
import { startLikeStartTask } from "../helpers/start_task_server.ts";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

/** POST /mcp over a raw socket, so the Host header is exactly what a rebinding browser sends. */
async function postMcp(port: number, headers: Record<string, string>): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const lines = [
      "POST /mcp HTTP/1.1",
      ...Object.entries({
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "content-length": String(new TextEncoder().encode(INIT).length),
        connection: "close",
        ...headers,
      }).map(([k, v]) => `${k}: ${v}`),
    ];
    await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n" + INIT));
    let text = "";
    const buf = new Uint8Array(4096);
    while (!/^HTTP\/1\.1 \d{3}/.test(text)) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    return Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
  } finally {
    conn.close();
  }
}

Deno.test({
  name:
    "[security/mcp] a 0.0.0.0 bind without PUBLIC_URL or MCP_ALLOWED_HOSTS refuses rebinding Hosts and Origins (403)",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const server = await startLikeStartTask({
      HOST: "0.0.0.0",
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_REQUESTS: "0",
    });
    try {
      const port = Number(new URL(server.base).port);
      assert.match(server.output(), /MCP: Host localhost, 127\.0\.0\.1, ::1 and IP addresses/);
      // The rebinding attack: the attacker's name resolves to this server; the browser sends it.
      assert.equal(
        await postMcp(port, {
          host: `rebind.attacker.example:${port}`,
          origin: `http://rebind.attacker.example:${port}`,
        }),
        403,
      );
      assert.equal(await postMcp(port, { host: `rebind.attacker.example:${port}` }), 403);
      // A foreign Origin with the server's own address as Host.
      assert.equal(
        await postMcp(port, { host: `127.0.0.1:${port}`, origin: "http://evil.example" }),
        403,
      );
      // A client that names the server by address (no Origin, or its own) is served.
      assert.equal(await postMcp(port, { host: `127.0.0.1:${port}` }), 200);
      assert.equal(
        await postMcp(port, { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }),
        200,
      );
      assert.equal(await postMcp(port, { host: `localhost:${port}` }), 200);
    } finally {
      await server.kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
