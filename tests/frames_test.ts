/**
 * The frames between the server and its worker processes (lib/kit/isolate/frames.ts): messages pass
 * whole and unchanged (Maps, Dates, undefined, text of any size) however the pipe cuts them, the
 * reader keeps nothing past its cap, and a stream cut inside a frame is an error, not a message.
 */
import assert from "node:assert/strict";
import { concatBytes as concat } from "./helpers/bytes.ts";
import {
  bytesFrameHead,
  encodeFrame,
  FrameError,
  FrameReader,
  pullFrame,
} from "../lib/kit/isolate/frames.ts";

/** A stream that delivers `bytes` in chunks of `size`. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

Deno.test("[frames] messages pass whole in order, however the stream is cut", async () => {
  const messages = [
    { id: 1, ok: true, outcome: { record: { domain: "a.test", scannedAt: new Date(0) } } },
    { map: new Map([["shop.test", { host: "127.0.0.1", port: 4507 }]]), none: undefined },
    { text: "é€".repeat(100_000) },
    "scan-thread-ready",
  ];
  const bytes = concat(messages.map((m) => encodeFrame(m)));
  for (const size of [1, 7, 4096, bytes.length]) {
    const reader = new FrameReader(chunked(bytes, size));
    const got: unknown[] = [];
    for (let m = await reader.next(); m !== null; m = await reader.next()) got.push(m);
    assert.deepEqual(got, messages, `chunks of ${size}`);
  }
});

Deno.test("[frames] a frame over the cap is refused before it is read; a stream cut inside a frame is an error", async () => {
  const big = encodeFrame({ text: "x".repeat(2000) });
  const reader = new FrameReader(chunked(big, 64), 1000);
  await assert.rejects(() => reader.next(), FrameError);
  assert.throws(() => encodeFrame({ text: "x".repeat(2000) }, 1000), FrameError);
  const cut = new FrameReader(chunked(big.slice(0, 100), 10));
  await assert.rejects(() => cut.next(), /ended inside a frame/);
  const garbage = new Uint8Array([0, 0, 0, 3, 1, 2, 3]);
  await assert.rejects(() => new FrameReader(chunked(garbage, 7)).next(), FrameError);
});

Deno.test("[frames] a stream job's pieces pass as raw bytes among messages, unchanged however the stream is cut, never copied where they lie in one read", async () => {
  const piece = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);
  const bytes = concat([
    encodeFrame({ id: 9, more: true }),
    bytesFrameHead(9, piece.length),
    piece,
    bytesFrameHead(10, 0),
    encodeFrame({ id: 9, ok: true, answer: "done" }),
  ]);
  for (const size of [1, 13, 65_536, bytes.length]) {
    const reader = new FrameReader(chunked(bytes, size));
    assert.deepEqual(await reader.next(), { id: 9, more: true });
    const raw = await reader.next() as { id: number; parts: Uint8Array[] };
    assert.equal(raw.id, 9);
    assert.deepEqual(concat(raw.parts), piece, `chunks of ${size}`);
    // One view per read the piece spans: no part is a copy.
    if (size === bytes.length) assert.equal(raw.parts.length, 1);
    assert.deepEqual(await reader.next(), { id: 10, parts: [] });
    assert.deepEqual(await reader.next(), { id: 9, ok: true, answer: "done" });
    assert.equal(await reader.next(), null);
  }
  // A raw frame's length counts against the cap like any frame's.
  const over = concat([bytesFrameHead(1, 2000), new Uint8Array(2000)]);
  await assert.rejects(() => new FrameReader(chunked(over, 64), 1000).next(), FrameError);
});

/** A byte stream (as a process's pipe is) that delivers `bytes` in reads of at most `size`. */
function bytePipe(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(c) {
      if (at >= bytes.length) {
        c.close();
        c.byobRequest?.respond(0);
        return;
      }
      const view = c.byobRequest!.view as Uint8Array;
      const n = Math.min(size, view.byteLength, bytes.length - at);
      view.set(bytes.subarray(at, at + n));
      at += n;
      c.byobRequest!.respond(n);
    },
  });
}

Deno.test("[frames] from a pipe read into a lent buffer: short messages pass whole, each in a buffer of its own size, and a stream job's pieces pass unchanged", async () => {
  const piece = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 13) % 256);
  const asks = Array.from({ length: 50 }, (_, i) => ({ id: 3, more: true, n: i }));
  const bytes = concat([
    ...asks.map((m) => encodeFrame(m)),
    bytesFrameHead(3, piece.length),
    piece,
    encodeFrame({ id: 3, ok: true, text: "é€".repeat(40_000) }),
  ]);
  for (const size of [1, 29, 65_536, bytes.length]) {
    const reader = new FrameReader(bytePipe(bytes, size));
    for (const ask of asks) assert.deepEqual(await reader.next(), ask, `reads of ${size}`);
    const raw = await reader.next() as { id: number; parts: Uint8Array[] };
    assert.deepEqual(concat(raw.parts), piece, `reads of ${size}`);
    // Short reads are copied out of the lent buffer: none holds on to 64 KiB.
    if (size < 32_768) {
      assert.ok(raw.parts.every((p) => p.buffer.byteLength <= size), `reads of ${size}`);
    }
    assert.deepEqual(await reader.next(), { id: 3, ok: true, text: "é€".repeat(40_000) });
    assert.equal(await reader.next(), null);
  }
});

Deno.test("[frames] a worker's request for a piece is a raw frame without bytes, read back without decoding among messages", async () => {
  const bytes = concat([
    pullFrame(4),
    encodeFrame({ id: 4, progress: { bytes: 10, lines: 1 } }),
    pullFrame(4),
    pullFrame(4_000_000_000),
  ]);
  assert.equal(pullFrame(4).length, 8);
  for (const size of [1, 5, bytes.length]) {
    const reader = new FrameReader(chunked(bytes, size));
    assert.deepEqual(await reader.next(), { id: 4, parts: [] });
    assert.deepEqual(await reader.next(), { id: 4, progress: { bytes: 10, lines: 1 } });
    assert.deepEqual(await reader.next(), { id: 4, parts: [] });
    assert.deepEqual(await reader.next(), { id: 4_000_000_000, parts: [] });
    assert.equal(await reader.next(), null);
  }
});
