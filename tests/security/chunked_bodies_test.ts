/**
 * Request bodies in 1-byte chunks, against the server started as `deno task start:schema` starts
 * it (its flags and permissions; MEMORY_MB=512, the plan of a 512 MB machine): a chunked body
 * costs its size, never a multiple of it per chunk.
 *
 * With Deno 2.9.6's default stream reader each chunk of a request body cost about 300 bytes of
 * memory outside the JS heap (eight 64 KiB bodies to /mcp took the server from 162 to 325 MB), so
 * a flood of small capped bodies sent a byte per chunk got past the memory plan's request-body
 * share, which counts bytes. Bodies are now read with a BYOB reader and may come in at most one
 * chunk per 64 bytes of their cap (lib/kit/web/http_body.ts maxChunks): past it, a 400.
 */
import assert from "node:assert/strict";
import { startLikeStartTask } from "../helpers/start_task_server.ts";
import { probeHealth } from "./helpers/health_probe.ts";
import { MAX_SCAN_BODY } from "../../lib/engines/scan/scan_request.ts";
import { MAX_MCP_BODY } from "../../routes/mcp.ts";

const encoder = new TextEncoder();

/**
 * POSTs `bytes` of body to `path` over a raw socket in 1-byte chunks (8,192 chunks per write, as
 * fast as the server takes them) and returns the answer's status line and body.
 */
async function chunkedPost(
  port: number,
  path: string,
  bytes: number,
  ip: string,
): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(encoder.encode(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nX-Forwarded-For: ${ip}\r\n` +
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
    ));
    const body = `{"jsonld":"${"a".repeat(Math.max(0, bytes - 14))}"}`;
    const writing = (async () => {
      for (let at = 0; at < body.length; at += 8192) {
        let wire = "";
        for (const ch of body.slice(at, at + 8192)) wire += `1\r\n${ch}\r\n`;
        await conn.write(encoder.encode(wire));
      }
      await conn.write(encoder.encode("0\r\n\r\n"));
    })().catch(() => {}); // the server may answer (and close) before the body is all sent
    let text = "";
    const buf = new Uint8Array(16384);
    for (;;) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    await writing;
    const status = Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
    return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024);
}

Deno.test({
  name:
    "[security/bodies] start task: a flood of bodies in 1-byte chunks costs their size (a 400 past one chunk per 64 bytes of the cap), never a 500",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const server = await startLikeStartTask({
      SERVICE: "schema",
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_REQUESTS: "0",
      TRUST_PROXY: "1",
      MEMORY_MB: "512",
    });
    const port = Number(new URL(server.base).port);
    try {
      // Warm up what a flood starts anyway (both threads a validation may take, the MCP server),
      // so what is measured next is the bodies alone.
      await Promise.all([
        chunkedPost(port, "/api/validate", 2000, "10.1.0.1"),
        chunkedPost(port, "/api/validate", 2000, "10.1.0.2"),
        chunkedPost(port, "/mcp", 2000, "10.1.0.3"),
        chunkedPost(port, "/api/scan", 2000, "10.1.0.4"),
      ]);
      await new Promise((r) => setTimeout(r, 1000));
      const before = await rssMb(server.pid);
      let peak = before;
      const sampler = setInterval(async () => {
        peak = Math.max(peak, await rssMb(server.pid).catch(() => 0));
      }, 50);
      const health = probeHealth(server.base);
      // 32 scan requests and 8 MCP posts at their caps (16 KiB, 64 KiB: half a million chunks in
      // all, about 170 MB with the default reader and no chunk limit).
      const answers = await Promise.all([
        ...Array.from(
          { length: 32 },
          (_, i) => chunkedPost(port, "/api/scan", MAX_SCAN_BODY, `10.2.0.${i}`),
        ),
        ...Array.from(
          { length: 8 },
          (_, i) => chunkedPost(port, "/mcp", MAX_MCP_BODY, `10.3.0.${i}`),
        ),
      ]);
      clearInterval(sampler);
      const h = await health.stop();
      console.log(
        `RSS ${before} MB before, peak ${peak} MB; statuses ${
          JSON.stringify(answers.map((a) => a.status))
        }; /healthz ${JSON.stringify(h)}`,
      );
      assert.equal(server.exited(), false, "the server is up");
      // Bodies past their chunk limit: a 400 that says what to do.
      for (const a of answers) {
        assert.equal(a.status, 400, a.body.slice(0, 200));
        assert.match(JSON.parse(a.body).error, /chunks; send it with a Content-Length/);
      }
      // The default reader without a chunk limit cost about 170 MB here. With the fix the peak grew
      // 10 to 30 MB in most runs, and 51 MB once on a fresh clone in the full suite (the server's
      // own heap growing while it answers 40 floods at once): the bound sits between the two.
      assert.ok(peak - before < 80, `RSS grew ${peak - before} MB (${before} -> ${peak})`);
      assert.deepEqual(h.failures, []);
      assert.ok(h.worstRun < 3, `/healthz slower than 200 ms ${h.worstRun} times in a row`);

      // Under its limit (a 2 MiB cap: 32,768 chunks) a body in 1-byte chunks is read whole and
      // validated; over it, the 400.
      const [under, over] = await Promise.all([
        chunkedPost(port, "/api/validate", 30_000, "10.4.0.1"),
        chunkedPost(port, "/api/validate", 40_000, "10.4.0.2"),
      ]);
      assert.equal(under.status, 200, under.body.slice(0, 200));
      assert.equal(JSON.parse(under.body).status, "ok");
      assert.equal(over.status, 400, over.body.slice(0, 200));
      assert.match(JSON.parse(over.body).error, /more than 32768 chunks/);
      assert.equal(server.exited(), false, "the server is up");
    } finally {
      await server.kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
