/**
 * The log-read job's guarded fetcher (lib/features/logs/read_job.ts fetcherOnUse): loaded only on
 * its first use (a key directory asked for a signed line), it then fetches through the guarded
 * fetcher with the job's settings (SCAN_RESOLVE among them), and closing one never used loads
 * nothing.
 */
import assert from "node:assert/strict";
import { fetcherOnUse } from "../../../lib/features/logs/read_job.ts";

Deno.test("[logs/read job] the fetcher is loaded on its first use and fetches with the job's settings", async () => {
  let agent = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    agent = req.headers.get("user-agent") ?? "";
    return Response.json({ keys: [{ kty: "OKP", crv: "Ed25519", x: "abc" }] });
  });
  try {
    const unused = fetcherOnUse({
      userAgent: "logs-test",
      scanResolve: new Map(),
      requestTimeoutMs: 1000,
    });
    await unused.close();
    const fetcher = fetcherOnUse({
      userAgent: "logs-test/1.0",
      scanResolve: new Map([["agent.test", { host: "127.0.0.1", port: server.addr.port }]]),
      requestTimeoutMs: 5000,
    });
    const r = await fetcher.fetch(
      "http://agent.test/.well-known/http-message-signatures-directory",
    );
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).keys[0].crv, "Ed25519");
    assert.equal(agent, "logs-test/1.0");
    await fetcher.close();
    // Not mapped and not public: refused, as any fetch of a scan is.
    const other = fetcherOnUse({ userAgent: "x", scanResolve: new Map(), requestTimeoutMs: 1000 });
    await assert.rejects(() => other.fetch("http://127.0.0.1:1/x"));
    await other.close();
  } finally {
    await server.shutdown();
  }
});
