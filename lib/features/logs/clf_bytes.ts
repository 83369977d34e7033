/**
 * Common Log Format lines read as bytes (the combined and common formats, and Fastly's): a
 * WebAssembly scanner (clf_scan.wat, its bytes in clf_scan_wasm.ts) finds each line's end and
 * counts the lines the reader would drop, a person's visit (the shape of clf.ts checkClfAt and a
 * User-Agent without any of the agents' anchors, crawler_match.ts AgentFilter), without the
 * runtime decoding them to text; it hands every other line back by its bounds, and the reader
 * decodes and reads that line as before. So the text path decides every line that may name a
 * crawler, hold other characters than ASCII, be malformed or be too long; the scanner only
 * spares the reader what it would have thrown away (tests/features/logs/clf_bytes_test.ts holds
 * the two paths to the same answers over generated logs).
 *
 * Why: reading each line's text in JavaScript cost about twice what splitting the log into
 * lines alone costs (the budget of docs/logs.md is at least half as fast), and most of that was
 * a few searches per line, each a call into the runtime; the scanner looks at 16 bytes at a time
 * and calls nothing (tests/bench/logs_bench.ts).
 */
import { anchorsFor, TOKENS } from "./crawler_match.ts";
import { WASM_BASE64 } from "./clf_scan_wasm.ts";

/** Where the scanned bytes start in the scanner's memory (clf_scan.wat "Memory"). */
const IN = 65_536;
/** The bytes read and ignored past the end (one block). */
const PAD = 16;
const PAGE = 65_536;
/** Where the scanner leaves its counts and the lines it hands back. */
const COUNTS = 2048;
const BACK = 4096;
/** The most lines one scan hands back (then it stops, and is called again). */
const MAX_BACK = 4096;

/** The anchors' layout in the scanner's memory, or null when they do not fit it. */
function anchorTables(): { firsts: number[]; anchors: number[][] } | null {
  const anchors = anchorsFor(TOKENS).map((a) => [...a].map((c) => c.charCodeAt(0)));
  // ASCII, and none of the characters that end a line or its User-Agent (the scanner relies on it).
  const unfit = (c: number) => c > 127 || c === 0 || c === 10 || c === 13 || c === 34;
  if (anchors.some((a) => a.length === 0 || a.length > 255 || a.some(unfit))) return null;
  const firsts = [
    ...new Set(anchors.flatMap((a) => {
      const c = String.fromCharCode(a[0]);
      return [c, c.toUpperCase()].map((x) => x.charCodeAt(0));
    })),
  ];
  const size = anchors.reduce((n, a) => n + 1 + a.length, 0);
  if (firsts.length > 4 || size > 1500) return null;
  // Four places: those not used repeat the first character.
  while (firsts.length < 4) firsts.push(firsts[0]);
  return { firsts, anchors };
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled scanner, or null where WebAssembly (or its SIMD) is not available. */
function scannerModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(
        (Uint8Array as unknown as { fromBase64(s: string): Uint8Array<ArrayBuffer> }).fromBase64(
          WASM_BASE64,
        ),
      );
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** What one call of {@link ClfByteScanner.scan} found. */
export interface ByteScan {
  /** Where it stopped, from the start of the bytes loaded: the rest is an unfinished line. */
  next: number;
  /** Complete lines read. */
  lines: number;
  /** Of them, lines dropped (a person's visit). */
  dropped: number;
  /** The others, in order: where each starts and ends (before its `\n`), and its line number
   * counted from 0 at this call's first line. */
  back: { start: number; end: number; line: number }[];
  /** It stopped having handed back as many lines as it may: there may be more lines to scan. */
  more: boolean;
}

/** clf_scan.wat's `scan`, on offsets in its memory. */
type ScanExport = (start: number, n: number, combined: number, maxLine: number) => number;

/** One read's scanner (its own memory). */
export class ClfByteScanner {
  readonly #memory: WebAssembly.Memory;
  readonly #scan: ScanExport;
  #length = 0;

  private constructor(instance: WebAssembly.Instance, tables: ReturnType<typeof anchorTables>) {
    this.#memory = instance.exports.memory as WebAssembly.Memory;
    this.#scan = instance.exports.scan as ScanExport;
    const view = new DataView(this.#memory.buffer);
    const bytes = new Uint8Array(this.#memory.buffer);
    bytes.set(tables!.firsts, 260);
    view.setInt32(512, tables!.anchors.length, true);
    let at = 516;
    for (const a of tables!.anchors) {
      bytes[at] = a.length;
      bytes.set(a, at + 1);
      at += 1 + a.length;
    }
  }

  /** A scanner, or null where it cannot run (the reader then reads every line as text). */
  static create(): ClfByteScanner | null {
    const module = scannerModule();
    const tables = anchorTables();
    if (!module || !tables) return null;
    try {
      return new ClfByteScanner(new WebAssembly.Instance(module), tables);
    } catch {
      return null;
    }
  }

  /** Loads `head` then `body` as the bytes to scan (the memory grows to hold them). */
  load(head: Uint8Array, body: Uint8Array): void {
    const n = head.byteLength + body.byteLength;
    const need = IN + n + PAD;
    if (need > this.#memory.buffer.byteLength) {
      this.#memory.grow(Math.ceil((need - this.#memory.buffer.byteLength) / PAGE));
    }
    const bytes = new Uint8Array(this.#memory.buffer);
    bytes.set(head, IN);
    bytes.set(body, IN + head.byteLength);
    this.#length = n;
  }

  /** The loaded bytes from `start` to `end` (a view: read it before the next load). */
  bytes(start: number, end: number): Uint8Array {
    return new Uint8Array(this.#memory.buffer, IN + start, end - start);
  }

  /** The length of what was loaded. */
  get length(): number {
    return this.#length;
  }

  /**
   * Reads the complete lines loaded from `start` on (`combined`: the User-Agent is expected;
   * lines longer than `maxLine` bytes are handed back).
   */
  scan(start: number, combined: boolean, maxLine: number): ByteScan {
    const next = this.#scan(IN + start, IN + this.#length, combined ? 1 : 0, maxLine) - IN;
    const view = new Int32Array(this.#memory.buffer);
    const count = view[COUNTS / 4 + 2];
    const back: ByteScan["back"] = [];
    for (let i = 0, r = BACK / 4; i < count && i < MAX_BACK; i++, r += 3) {
      back.push({ start: view[r] - IN, end: view[r + 1] - IN, line: view[r + 2] });
    }
    return {
      next,
      lines: view[COUNTS / 4],
      dropped: view[COUNTS / 4 + 1],
      back,
      more: count >= MAX_BACK,
    };
  }
}
