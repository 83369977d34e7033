/**
 * A worker's side of a stream job's input (lib/kit/isolate/protocol.ts StreamJobModule): the
 * stream the job reads, filled with the pieces the server sends, asking for each piece before it
 * is needed. At most {@link STREAM_PIECES_AHEAD} pieces are asked for or waiting to be read at
 * once, so a job that reads slowly holds a few pieces, never the input (the server reads the next
 * piece from its caller only when asked: lib/kit/isolate/stream_feed.ts).
 */
import { STREAM_PIECES_AHEAD, type StreamInputMessage } from "./protocol.ts";

/**
 * The job's input stream, and `take` for each message of the server's that carries a piece or
 * the end. `ask` asks the server for one more piece.
 */
export function streamInput(ask: () => void): {
  stream: ReadableStream<Uint8Array>;
  take: (m: StreamInputMessage) => void;
} {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  /** Pieces asked for and not yet come. */
  let asked = 0;
  let done = false;
  const askMore = () => {
    if (done || !controller) return;
    // What the queue has room for, less what is already on its way.
    for (let want = (controller.desiredSize ?? 0) - asked; want > 0; want--) {
      asked++;
      ask();
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    pull: askMore,
    // The job stopped reading early (a size cap, a truncated gzip stream): later pieces are
    // dropped, and the server stops sending when the job answers.
    cancel() {
      done = true;
    },
  }, new CountQueuingStrategy({ highWaterMark: STREAM_PIECES_AHEAD }));
  return {
    stream,
    take(m) {
      if (done || !controller) return;
      asked = Math.max(0, asked - 1);
      if ("end" in m) {
        done = true;
        if (m.error) controller.error(new Error(m.error));
        else controller.close();
        return;
      }
      if ("parts" in m) { for (const part of m.parts) controller.enqueue(part); }
      else controller.enqueue("chunk" in m ? m.chunk : Uint8Array.fromBase64(m.chunk64));
      askMore();
    },
  };
}
