/**
 * The server's side of a stream job's input (lib/kit/isolate/protocol.ts StreamJobModule): the
 * caller's byte stream (an upload's body) is read one piece at a time, only when the worker asks
 * for the next, and each piece is sent on as it is, never looked into. What this side holds is
 * the rest of one chunk read from the caller (pieces are cut at {@link STREAM_PIECE_BYTES}); what
 * the worker holds is the few pieces it asked for ahead. A request body is thereby read at the
 * pace its reader reads it: a client sending faster waits on TCP's own backpressure.
 */
import { STREAM_PIECE_BYTES, type StreamInputMessage } from "./protocol.ts";

/** Feeds one stream job: `more` answers one request of the worker's, in the order they came. */
export interface StreamFeed {
  /** The worker asked for the next piece of job `id`'s input. */
  more(id: number): void;
  /** The job has ended: nothing more is read or sent, and the caller's stream is cancelled. */
  stop(): void;
}

/**
 * A feed of `input` that sends each piece with `send` (a frame to a process, a message to a
 * thread). A broken input (a client gone) ends the job's stream with its error.
 */
export function streamFeed(
  input: ReadableStream<Uint8Array>,
  send: (message: StreamInputMessage) => Promise<void> | void,
): StreamFeed {
  const pieces = pieceReader(input);
  let ended = false;
  // Requests are answered one after another: each reads from where the one before stopped.
  let chain = Promise.resolve();
  return {
    more(id) {
      chain = chain.then(async () => {
        if (ended) return;
        try {
          const piece = await pieces.read();
          if (ended) return;
          if (!piece) {
            ended = true;
            await send({ id, end: true });
            return;
          }
          // Sent before the next read: the piece's buffer is read into again after this.
          await send({ id, chunk: piece });
        } catch (error) {
          if (ended) return;
          ended = true;
          const why = error instanceof Error ? error.message : String(error);
          await Promise.resolve(send({ id, end: true, error: why })).catch(() => {});
        }
      });
    },
    stop() {
      if (ended) return;
      ended = true;
      pieces.cancel();
    },
  };
}

/** The pieces of an input, read one at a time (null: its end). */
interface PieceReader {
  read(): Promise<Uint8Array | null>;
  cancel(): void;
}

/**
 * The pieces of `input`. A byte stream (a request's body, a file: what an upload is) is read
 * into one buffer of {@link STREAM_PIECE_BYTES}, reused for every piece, since each piece has been
 * sent (written to the worker's pipe, or encoded for its thread) before the next is read. Read
 * into buffers of its own making, each piece would stay in memory until the runtime collected
 * it (tests/bench/logs_bench.ts "peak RSS", docs/logs.md "Benchmarks"). Any other stream is read
 * chunk by chunk as it gives them, each cut into pieces of at most that size.
 */
function pieceReader(input: ReadableStream<Uint8Array>): PieceReader {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = input.getReader({ mode: "byob" });
  } catch { /* not a byte stream */ }
  if (byob) {
    const reader = byob;
    let buffer = new ArrayBuffer(STREAM_PIECE_BYTES);
    return {
      async read() {
        const r = await reader.read(new Uint8Array(buffer));
        if (r.done) return null;
        // The view's buffer is the one lent (moved into a new ArrayBuffer object by the read).
        buffer = r.value.buffer as ArrayBuffer;
        return r.value;
      },
      cancel: () => void reader.cancel().catch(() => {}),
    };
  }
  const reader = input.getReader();
  let rest: Uint8Array = new Uint8Array();
  return {
    async read() {
      while (!rest.byteLength) {
        const r = await reader.read();
        if (r.done) return null;
        rest = r.value;
      }
      const piece = rest.subarray(0, STREAM_PIECE_BYTES);
      rest = rest.subarray(piece.byteLength);
      return piece;
    },
    cancel: () => {
      rest = new Uint8Array();
      reader.cancel().catch(() => {});
    },
  };
}
