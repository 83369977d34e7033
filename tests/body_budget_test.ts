/**
 * Large request bodies read at once stay inside the memory plan's share: past it a request gets
 * 429 before a byte of its body is read, and the share is given back when a read ends (whole,
 * too large, or timed out).
 */
import assert from "node:assert/strict";
import { RateLimitedError } from "../lib/kit/errors.ts";
import { readCappedBody, setBodyBudget } from "../lib/kit/web/http_body.ts";
import { memoryPlan } from "../lib/kit/config_memory.ts";

const MiB = 1024 * 1024;

/** A request whose body of `bytes` arrives only when `release` is called. */
function slowUpload(bytes: number) {
  let release: () => void = () => {};
  const released = new Promise<void>((r) => release = r);
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      await released;
      c.enqueue(new Uint8Array(bytes));
      c.close();
    },
  });
  const request = new Request("http://x/api/validate", {
    method: "POST",
    body,
    headers: { "content-length": String(bytes) },
    // @ts-ignore: Deno needs it for a stream body
    duplex: "half",
  });
  return { request, release: () => release() };
}

Deno.test("[body budget] large bodies past the share get 429 before they are read; the share comes back", async () => {
  setBodyBudget(3 * MiB);
  try {
    const a = slowUpload(MiB);
    const b = slowUpload(2 * MiB);
    const reading = [readCappedBody(a.request, 2 * MiB), readCappedBody(b.request, 2 * MiB)];
    // 3 MiB are being read: a third large body is refused at once, unread.
    const c = slowUpload(MiB);
    await assert.rejects(readCappedBody(c.request, 2 * MiB), (e) => {
      assert.ok(e instanceof RateLimitedError);
      assert.equal(e.status, 429);
      assert.equal(e.retryAfterSeconds, 5);
      return true;
    });
    assert.equal(c.request.bodyUsed, false, "its body was not read");
    // Small bodies (a scan request, a form) are never counted.
    const small = new Request("http://x/api/scan", { method: "POST", body: '{"url":"a.test"}' });
    assert.equal((await readCappedBody(small, 4096))?.length, 16);
    a.release();
    b.release();
    assert.deepEqual((await Promise.all(reading)).map((x) => x?.length), [MiB, 2 * MiB]);
    // Given back: the next one is read.
    const d = slowUpload(MiB);
    const read = readCappedBody(d.request, 2 * MiB);
    d.release();
    assert.equal((await read)?.length, MiB);
  } finally {
    setBodyBudget(64 * MiB);
  }
});

Deno.test("[body budget] the plan's share: 15 MB on a 512 MB machine (seven 2 MiB bodies at once)", () => {
  assert.equal(memoryPlan({ memoryMb: 512 }, null).bodyMb, 15);
});
