/**
 * The server's side of a stream job's input (lib/kit/isolate/stream_feed.ts): the pieces a worker
 * asks for carry the caller's bytes unchanged and in order, a byte stream (an upload's body, a
 * file) is read into one buffer lent again for every piece, any other stream is cut into pieces
 * of at most STREAM_PIECE_BYTES, and a broken input ends the job's stream with its error.
 */
import assert from "node:assert/strict";
import { concatBytes as concat } from "./helpers/bytes.ts";
import { streamFeed } from "../lib/kit/isolate/stream_feed.ts";
import { STREAM_PIECE_BYTES, type StreamInputMessage } from "../lib/kit/isolate/protocol.ts";

/** Asks for pieces until the end, as a worker does; each piece is copied when it is sent. */
async function drain(input: ReadableStream<Uint8Array>) {
  const pieces: Uint8Array[] = [];
  const buffers = new Set<number>();
  let end: StreamInputMessage | null = null;
  let sent: () => void = () => {};
  const feed = streamFeed(input, async (m) => {
    if ("chunk" in m) {
      buffers.add(m.chunk.buffer.byteLength);
      // The bytes are taken only after a turn of the event loop, as a pipe's write is done.
      await new Promise((r) => setTimeout(r, 0));
      pieces.push(m.chunk.slice());
    } else end = m;
    sent();
  });
  while (!end) {
    const next = new Promise<void>((r) => sent = r);
    feed.more(1);
    await next;
  }
  return { pieces, buffers, end: end as StreamInputMessage };
}

const bytesOf = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) % 251);
Deno.test("[stream feed] a file is read into one lent buffer, and every piece arrives unchanged and in order", async () => {
  const data = bytesOf(1_500_000);
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeFile(path, data);
    const file = await Deno.open(path);
    const { pieces, buffers, end } = await drain(file.readable);
    assert.deepEqual(concat(pieces), data);
    assert.ok(pieces.every((p) => p.byteLength <= STREAM_PIECE_BYTES));
    // One buffer of a piece's size, lent to every read (not a buffer per chunk).
    assert.deepEqual([...buffers], [STREAM_PIECE_BYTES]);
    assert.deepEqual(end, { id: 1, end: true });
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("[stream feed] a stream that is not a byte stream is cut into pieces of at most STREAM_PIECE_BYTES; a broken one ends with its error", async () => {
  const data = bytesOf(700_000);
  const chunks = [data.subarray(0, 10), data.subarray(10, 600_000), data.subarray(600_000)];
  const { pieces, end } = await drain(ReadableStream.from(chunks));
  assert.deepEqual(concat(pieces), data);
  assert.ok(pieces.every((p) => p.byteLength <= STREAM_PIECE_BYTES));
  assert.deepEqual(end, { id: 1, end: true });

  const broken = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(data.subarray(0, 100));
      c.error(new Error("the client went away"));
    },
  });
  const cut = await drain(broken);
  assert.deepEqual(cut.end, { id: 1, end: true, error: "the client went away" });
});
