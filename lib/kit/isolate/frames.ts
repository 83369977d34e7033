/**
 * Messages between the server and a worker process (lib/kit/isolate/process_pool.ts,
 * worker_process.ts) over the process's stdin and stdout pipes: each message is one frame, a
 * 4-byte big-endian length and the message serialised by V8 (`node:v8` serialize, the structured
 * clone `postMessage` uses between threads, so Maps, Dates and `undefined` pass as they did).
 *
 * Why pipes and V8's serialiser (measured with deno 2.9.6, tests/bench/isolation_bench.ts): a
 * round trip of 1 MiB of text to a child process and back costs about 10 ms (ASCII) to 30 ms
 * (two-byte characters), against about 1.3 s for 1 MB passed as a Uint8Array between
 * worker_threads. A record is at most 1 MiB (lib/kit/limits/record_budget.ts), a job's input at most
 * a few MiB, so {@link MAX_FRAME_BYTES} leaves room and still bounds what either side buffers.
 *
 * The reader is linear in what it reads: chunks are kept as they come and copied once into their
 * frame; a length over the cap ends the stream with {@link FrameError} before anything is kept.
 *
 * A stream job's pieces of input (lib/kit/isolate/protocol.ts StreamInputMessage) travel as raw
 * frames instead ({@link bytesFrameHead}): the length word with its top bit set, the job's id,
 * then the bytes as they are, written without a copy and read back as views of what was read
 * (`{ id, parts }`). Serialising them would copy each piece twice more on the sending side and
 * once more on the reading one.
 */
import { deserialize, serialize } from "node:v8";

/** The largest frame either side accepts (a stored record's summary job carries up to 64 MiB). */
export const MAX_FRAME_BYTES = 80 * 1024 * 1024;

/** The top bit of a raw frame's length word. */
const RAW = 0x8000_0000;

/** A frame over the cap, or bytes that are not a serialised message. */
export class FrameError extends Error {
  override name = "FrameError";
}

/** One message as a frame. @throws FrameError past {@link MAX_FRAME_BYTES}. */
export function encodeFrame(message: unknown, maxBytes = MAX_FRAME_BYTES): Uint8Array {
  const body = serialize(message);
  if (body.byteLength > maxBytes) {
    throw new FrameError(`a message of ${body.byteLength} bytes is over the ${maxBytes} cap`);
  }
  const frame = new Uint8Array(4 + body.byteLength);
  new DataView(frame.buffer).setUint32(0, body.byteLength);
  frame.set(body, 4);
  return frame;
}

/**
 * The head of a raw frame carrying `byteLength` bytes of a stream job's input: written just before
 * the bytes themselves, which are sent as they are (no copy), and read back by
 * {@link FrameReader.next} as `{ id, chunk }`. @throws FrameError past {@link MAX_FRAME_BYTES}.
 */
export function bytesFrameHead(id: number, byteLength: number): Uint8Array {
  if (byteLength + 4 > MAX_FRAME_BYTES) {
    throw new FrameError(`a piece of ${byteLength} bytes is over the ${MAX_FRAME_BYTES} cap`);
  }
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint32(0, (RAW | (4 + byteLength)) >>> 0);
  view.setUint32(4, id);
  return head;
}

/** What {@link FrameReader} reads its chunks with. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

/** The size of a read from a byte stream (the runtime's own reads are of 64 KiB). */
const READ_BYTES = 64 * 1024;

/**
 * The chunks of `stream`, each in a buffer of its own size. A byte stream (a process's pipe) is
 * read into a buffer of {@link READ_BYTES} lent to each read: a read that filled at least half of
 * it keeps that buffer (a new one is lent to the next), and a smaller one is copied out and the
 * buffer lent again. Read the runtime's way, every read of a pipe takes a buffer of 64 KiB
 * however little it holds, and a server reading a worker's short messages (a stream job asks for
 * each piece of its input) held 64 KiB for each until its collector ran: the server's side of a
 * 200 MB log upload grew by 33 MB that way (tests/bench/logs_bench.ts "peak RSS"). Any other
 * stream is read as it gives its chunks.
 */
function chunkReader(stream: ReadableStream<Uint8Array>): ChunkReader {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch { /* not a byte stream */ }
  if (!byob) {
    const reader = stream.getReader();
    return { read: () => reader.read(), cancel: () => reader.cancel() };
  }
  const reader = byob;
  let lent = new ArrayBuffer(READ_BYTES);
  return {
    async read() {
      const r = await reader.read(new Uint8Array(lent));
      if (r.done) return { done: true, value: undefined };
      const value = r.value;
      if (value.byteLength * 2 >= READ_BYTES) {
        lent = new ArrayBuffer(READ_BYTES);
        return { done: false, value };
      }
      // The read moved the buffer into the view's: lent again once the bytes are copied out.
      lent = value.buffer as ArrayBuffer;
      return { done: false, value: value.slice() };
    },
    cancel: () => reader.cancel(),
  };
}

/**
 * A worker process's request for the next piece of stream job `id`'s input: a raw frame without
 * bytes, read back as `{ id, parts: [] }` (lib/kit/isolate/protocol.ts StreamPullMessage). It
 * costs the server no decoding, once per piece.
 */
export function pullFrame(id: number): Uint8Array {
  return bytesFrameHead(id, 0);
}

/** Reads frames from a byte stream, one message at a time. */
export class FrameReader {
  readonly #reader: ChunkReader;
  readonly #max: number;
  /** Chunks read; those from {@link #head} on are not yet taken, the first from {@link #offset}. */
  #chunks: Uint8Array[] = [];
  #head = 0;
  #offset = 0;
  #buffered = 0;

  constructor(stream: ReadableStream<Uint8Array>, maxBytes = MAX_FRAME_BYTES) {
    this.#reader = chunkReader(stream);
    this.#max = maxBytes;
  }

  /**
   * The next message, or null once the stream has ended between frames.
   * @throws FrameError for a length over the cap, a stream cut inside a frame, or bad bytes.
   */
  async next(): Promise<unknown | null> {
    if (!(await this.#fill(4))) {
      if (this.#buffered === 0) return null;
      throw new FrameError("the stream ended inside a frame's length");
    }
    const head = this.#take(4);
    const word = new DataView(head.buffer, head.byteOffset, 4).getUint32(0);
    const raw = (word & RAW) !== 0;
    const length = raw ? word - RAW : word;
    if (length > this.#max || (raw && length < 4)) {
      await this.cancel();
      throw new FrameError(`a frame of ${length} bytes is over the ${this.#max} cap`);
    }
    if (!(await this.#fill(length))) throw new FrameError("the stream ended inside a frame");
    if (raw) {
      const id = this.#take(4);
      // The bytes as they lie in what was read, one view per chunk they span: never copied.
      return {
        id: new DataView(id.buffer, id.byteOffset, 4).getUint32(0),
        parts: this.#takeParts(length - 4),
      };
    }
    try {
      return deserialize(this.#take(length));
    } catch (error) {
      throw new FrameError(`a frame could not be read: ${(error as Error).message}`);
    }
  }

  /** Stops reading (the stream is cancelled). */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  /** Reads until `n` bytes are buffered; false when the stream ends first. */
  async #fill(n: number): Promise<boolean> {
    while (this.#buffered < n) {
      const { value, done } = await this.#reader.read();
      if (done) return false;
      if (value.byteLength === 0) continue;
      this.#chunks.push(value);
      this.#buffered += value.byteLength;
    }
    return true;
  }

  /** Takes `n` buffered bytes (each byte is copied at most once). */
  #take(n: number): Uint8Array {
    const first = this.#chunks[this.#head];
    // The common case: the frame lies in the first chunk, taken without a copy.
    if (first.byteLength - this.#offset >= n) {
      const out = first.subarray(this.#offset, this.#offset + n);
      this.#advance(n);
      return out;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.#chunks[this.#head];
      const part = chunk.subarray(this.#offset, this.#offset + (n - filled));
      out.set(part, filled);
      filled += part.byteLength;
      this.#advance(part.byteLength);
    }
    return out;
  }

  /** Takes `n` buffered bytes as views of the chunks they lie in (nothing is copied). */
  #takeParts(n: number): Uint8Array[] {
    const parts: Uint8Array[] = [];
    while (n > 0) {
      const chunk = this.#chunks[this.#head];
      const part = chunk.subarray(this.#offset, this.#offset + n);
      parts.push(part);
      n -= part.byteLength;
      this.#advance(part.byteLength);
    }
    return parts;
  }

  /** Marks `n` bytes of the first chunk taken (an index, not a shift: linear in chunks). */
  #advance(n: number): void {
    this.#buffered -= n;
    this.#offset += n;
    if (this.#offset < this.#chunks[this.#head].byteLength) return;
    this.#head++;
    this.#offset = 0;
    if (this.#head === this.#chunks.length) {
      this.#chunks = [];
      this.#head = 0;
    } else if (this.#head > 1024) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
  }
}
