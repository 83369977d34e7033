import assert from "node:assert/strict";
import { readCappedBody, readJsonBody } from "../lib/web/http_body.ts";
import { PayloadTooLargeError, RequestTimeoutError } from "../lib/errors.ts";

function streaming(chunks: string[], thenHang = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(enc.encode(chunks[i++]));
      else if (!thenHang) controller.close();
      // else: never close, like a client that stops sending mid-body
    },
  });
}

Deno.test("[http_body] a body that stops arriving ends with 408, not a request held open", async () => {
  const req = new Request("http://x/", { method: "POST", body: streaming(['{"url":'], true) });
  const t0 = performance.now();
  await assert.rejects(readCappedBody(req, 1024, 150), RequestTimeoutError);
  assert.ok(performance.now() - t0 < 1000);
});

Deno.test("[http_body] a body over the cap is refused while it streams, even without Content-Length", async () => {
  const req = new Request("http://x/", {
    method: "POST",
    body: streaming(Array.from({ length: 100 }, () => "x".repeat(1000))),
  });
  await assert.rejects(readCappedBody(req, 10_000), PayloadTooLargeError);
});

Deno.test("[http_body] a complete JSON body in many chunks is read whole", async () => {
  const req = new Request("http://x/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: streaming(['{"url"', ':"example', '.com"}']),
  });
  assert.deepEqual(await readJsonBody(req, 1024), { url: "example.com" });
});

Deno.test("[http_body] a body cut short of its Content-Length is a 400, over a real socket", async () => {
  const seen: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    try {
      await readJsonBody(req, 16_384);
      return new Response("read", { status: 200 });
    } catch (error) {
      seen.push(error);
      return new Response("refused", { status: (error as { status?: number }).status ?? 500 });
    }
  });
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(new TextEncoder().encode(
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"u',
    ));
    await conn.closeWrite();
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    conn.close();
    // Either the server answers 400 or it drops the connection; it never reports success or 500.
    if (n) assert.match(new TextDecoder().decode(buf.subarray(0, n)), /^HTTP\/1\.1 400/);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.length, 1);
    assert.equal((seen[0] as { status?: number }).status, 400);
  } finally {
    await server.shutdown();
  }
});
