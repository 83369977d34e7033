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
  const reader = input.getReader();
  let rest: Uint8Array = new Uint8Array();
  let ended = false;
  // Requests are answered one after another: each reads from where the one before stopped.
  let chain = Promise.resolve();
  return {
    more(id) {
      chain = chain.then(async () => {
        if (ended) return;
        try {
          if (!rest.byteLength) {
            const r = await reader.read();
            if (ended) return;
            if (r.done) {
              ended = true;
              await send({ id, end: true });
              return;
            }
            rest = r.value;
          }
          const piece = rest.subarray(0, STREAM_PIECE_BYTES);
          rest = rest.subarray(piece.byteLength);
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
      rest = new Uint8Array();
      reader.cancel().catch(() => {});
    },
  };
}
