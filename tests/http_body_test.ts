import assert from "node:assert/strict";
import { readCappedBody, readJsonBody } from "../lib/http_body.ts";
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
