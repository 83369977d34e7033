import assert from "node:assert/strict";
import { maxChunks, readCappedBody, readJsonBody } from "../lib/kit/web/http_body.ts";
import { BadRequestError, PayloadTooLargeError, RequestTimeoutError } from "../lib/kit/errors.ts";

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

/** Serves one request with `read` and answers its status; `send` writes the raw request. */
async function overSocket(
  read: (req: Request) => Promise<unknown>,
  send: (conn: Deno.Conn) => Promise<void>,
): Promise<{ status: number; error: unknown }> {
  let error: unknown = null;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    try {
      await read(req);
      return new Response("read");
    } catch (e) {
      error = e;
      return new Response("refused", { status: (e as { status?: number }).status ?? 500 });
    }
  });
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await send(conn).catch(() => {});
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf).catch(() => null);
    conn.close();
    await new Promise((r) => setTimeout(r, 50));
    const head = n ? new TextDecoder().decode(buf.subarray(0, n)) : "";
    return { status: Number(head.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), error };
  } finally {
    await server.shutdown();
  }
}

const encoder = new TextEncoder();
const CHUNKED = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";

/** Writes `count` 1-byte chunks (8,192 per write), then the end of the body. */
async function oneByteChunks(conn: Deno.Conn, count: number): Promise<void> {
  await conn.write(encoder.encode(CHUNKED));
  const block = encoder.encode("1\r\na\r\n".repeat(8192));
  for (let sent = 0; sent < count; sent += 8192) {
    await conn.write(count - sent >= 8192 ? block : block.subarray(0, 6 * (count - sent)));
  }
  await conn.write(encoder.encode("0\r\n\r\n"));
}

Deno.test("[http_body] a chunked body may come in one chunk per 64 bytes of its cap (at least 1024): past it, a 400 that says what to do", async () => {
  assert.equal(maxChunks(16 * 1024), 1024);
  assert.equal(maxChunks(2 * 1024 * 1024), 32_768);
  const under = await overSocket(
    (req) => readCappedBody(req, 16 * 1024),
    (c) => oneByteChunks(c, 1024),
  );
  assert.equal(under.status, 200);
  const over = await overSocket(
    (req) => readCappedBody(req, 16 * 1024),
    (c) => oneByteChunks(c, 1025),
  );
  assert.equal(over.status, 400);
  assert.ok(over.error instanceof BadRequestError);
  assert.match(
    (over.error as Error).message,
    /more than 1024 chunks; send it with a Content-Length/,
  );
});

Deno.test("[http_body] 100,000 chunks of a real request body cost no memory per chunk outside the heap (BYOB reads)", async () => {
  // Deno 2.9.6's default reader kept about 300 bytes per chunk outside the JS heap (60 MB here).
  const before = Deno.memoryUsage().external;
  let grew = 0;
  const read = await overSocket(async (req) => {
    const bytes = await readCappedBody(req, 8 * 1024 * 1024);
    grew = Deno.memoryUsage().external - before;
    assert.equal(bytes?.byteLength, 100_000);
  }, (c) => oneByteChunks(c, 100_000));
  assert.equal(read.status, 200, String(read.error));
  assert.ok(grew < 8 * 1024 * 1024, `external memory grew ${(grew / 1048576).toFixed(1)} MB`);
});

Deno.test("[http_body] a chunked body cut inside a chunk is a 400, never a 500", async () => {
  // Deno's server fails the read ("invalid HTTP/1 request" or a closed connection): the client's
  // doing, so a 400 (it was a 500).
  const cut = await overSocket((req) => readCappedBody(req, 16 * 1024), async (conn) => {
    await conn.write(encoder.encode(`${CHUNKED}4\r\nabcd\r\n4\r\nab`));
    await conn.closeWrite();
  });
  assert.ok(cut.error instanceof BadRequestError, String(cut.error));
  assert.equal(cut.status, 400);
});
