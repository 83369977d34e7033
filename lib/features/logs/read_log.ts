/**
 * Reads an access log as a stream: plain or gzip (told by its first bytes), split into lines
 * with a cap on a line's length, the format detected from the first lines (or the one asked for),
 * each line checked for its format's shape, and only lines naming a registry crawler parsed,
 * judged and added to the aggregates. Every other line is dropped as it is read. Memory stays
 * flat in the log's size: one chunk, one partial line (at most `maxLineBytes`), the first lines
 * until the format is known, and the aggregates (capped per day and crawler).
 *
 * Bad input is counted, never fatal: a line that cannot be read is counted with its number and
 * why (never its text: it may be a person's), a line over the cap is counted as too long, binary
 * content, a truncated gzip stream and a log of another format than chosen each get a message,
 * and what could be read is kept.
 */
import { addHit, type Aggregates, emptyAggregates } from "./aggregate.ts";
import { BodyBuffer } from "../../kit/net/fetch_body.ts";
import { ClfByteScanner } from "./clf_bytes.ts";
import { CrawlerMatcher, mayNameCrawler } from "./crawler_match.ts";
import { TextScan } from "./text_scan.ts";
import { detectFormat } from "./detect.ts";
import { formatById, type LineReader, type LogFormatId } from "./formats.ts";
import type { LogHit } from "./hit.ts";
import { createJudge, type JudgeDeps } from "./judge.ts";

/** Options of {@link readAccessLog}. */
export interface ReadOptions extends JudgeDeps {
  /** The format to read as (detected when absent). */
  format?: LogFormatId;
  /** Decompressed bytes read at most (the rest is not read, and the summary says so). */
  maxBytes?: number;
  /** The longest line read; longer lines are counted and skipped. Default 64 KiB. */
  maxLineBytes?: number;
  signal?: AbortSignal;
  /** Told after each chunk how far the read is (bytes after decompression, lines). */
  onProgress?: (progress: { bytes: number; lines: number }) => void;
  /**
   * False: every User-Agent goes to the tokens' test, without the anchors' prefilter
   * (crawler_match.ts AgentFilter). Only to compare with; the answers are the same.
   */
  prefilter?: boolean;
  /**
   * False: every line of a Common Log Format log is decoded and read as text, without the byte
   * scanner that counts people's lines over the bytes (clf_bytes.ts). Only to compare with; the
   * answers are the same. (Without the prefilter there is no byte scanner either.)
   */
  bytes?: boolean;
}

/** A line that could not be read: its number and why. */
export interface UnreadableLine {
  line: number;
  why: string;
}

/** What a read found besides the aggregates (shown to the owner, never stored with a line). */
export interface ReadSummary {
  format: LogFormatId | null;
  /** What detection picked, and whether the caller's choice replaced it. */
  detected: LogFormatId | null;
  overridden: boolean;
  gzip: boolean;
  /** Bytes read (after decompression). */
  bytes: number;
  lines: number;
  /** Lines naming a registry crawler (judged and counted). */
  crawlerLines: number;
  /** Lines read and dropped: they named no crawler. */
  otherLines: number;
  /** Blank lines and directives. */
  skipped: number;
  unreadable: number;
  /** The first unreadable lines (at most 20). */
  unreadableLines: UnreadableLine[];
  /** Lines longer than the cap (counted among the unreadable). */
  tooLong: number;
  /** The gzip stream ended early; what came before it was read. */
  truncated: boolean;
  /** The size cap was reached; the rest was not read. */
  cut: boolean;
  /** The content is not text. */
  binary: boolean;
  signatures: { valid: number; invalid: number; unchecked: number };
  /** One sentence for the owner when something was wrong with the input. */
  messages: string[];
}

const DETECT_LINES = 64;
const SAMPLES = 20;
/** The most bytes given to the byte scanner at once (besides an unfinished line before them). */
const SCAN_SLICE = 256 * 1024;

/** Reads a log from a byte stream into aggregates and a summary. */
export async function readAccessLog(
  input: ReadableStream<Uint8Array>,
  options: ReadOptions,
): Promise<{ aggregates: Aggregates; summary: ReadSummary }> {
  const maxLine = options.maxLineBytes ?? 65_536;
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const aggregates = emptyAggregates();
  const judge = createJudge(options);
  const s: ReadSummary = {
    format: options.format ?? null,
    detected: null,
    overridden: false,
    gzip: false,
    bytes: 0,
    lines: 0,
    crawlerLines: 0,
    otherLines: 0,
    skipped: 0,
    unreadable: 0,
    unreadableLines: [],
    tooLong: 0,
    truncated: false,
    cut: false,
    binary: false,
    signatures: { valid: 0, invalid: 0, unchecked: 0 },
    messages: [],
  };
  let reader: LineReader | null = null;
  // The first lines, kept until the format is known, with their numbers.
  const pending: string[] = [];
  const pendingNumbers: number[] = [];
  let pendingBytes = 0;

  const bad = (n: number, why: string) => {
    s.unreadable++;
    if (s.unreadableLines.length < SAMPLES) s.unreadableLines.push({ line: n, why });
  };

  const hits: LogHit[] = [];
  const collect = (h: LogHit) => hits.push(h);
  const match = new CrawlerMatcher({ prefilter: options.prefilter });
  const scan = new TextScan();

  /** Reads a line that may name a crawler; a promise only when judging waits (DNS, signatures). */
  const readCrawlerLine = (line: string, n: number): Promise<void> | void => {
    hits.length = 0;
    const out = reader!.read(line, collect);
    if (out !== "ok") {
      if (out === "skip") s.skipped++;
      else bad(n, out.bad);
      return;
    }
    const waits: Promise<void>[] = [];
    let named = false;
    for (const hit of hits) {
      const crawler = match.crawlerOf(hit.userAgent);
      if (!crawler) continue;
      named = true;
      const j = judge(hit, crawler);
      const add = (v: Awaited<typeof j>) => {
        if (v.signature) s.signatures[v.signature]++;
        addHit(aggregates, {
          token: crawler.token,
          time: hit.time,
          ip: hit.ip,
          target: hit.target,
          status: hit.status,
          bytes: hit.bytes,
          verdict: v.verdict,
          basis: v.basis,
          why: v.why,
        });
      };
      if (j instanceof Promise) waits.push(j.then(add));
      else add(j);
    }
    if (named) s.crawlerLines++;
    else s.otherLines++;
    if (waits.length) return Promise.all(waits).then(() => {});
  };

  /**
   * One line, from `start` to `end` of `scan.text` (the caller has reset the scan to that text).
   * A person's line in a format with a fast check is checked and dropped where it lies: no string
   * is made of it. A promise only when it has to wait (detection's end, DNS, a signature).
   */
  const lineAt = (start: number, end: number): Promise<void> | void => {
    const n = ++lineNo;
    s.lines++;
    const text = scan.text;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    if (end - start > maxLine) return tooLong(n);
    if (detecting) {
      pending.push(text.slice(start, end));
      pendingNumbers.push(n);
      pendingBytes += end - start;
      if (pending.length < DETECT_LINES && pendingBytes < 262_144) return;
      return flushPending();
    }
    if (!reader) return bad(n, "no known log format");
    if (reader.checkAt) {
      const shape = reader.checkAt(scan, start, end);
      if (shape !== "ok") {
        if (shape === "skip") s.skipped++;
        else bad(n, shape.bad);
        return;
      }
      // Only the User-Agent is tested, remembered per distinct agent; the whole line when the
      // agent could not be cut out; nothing when the format has none.
      const may = scan.agentStart < 0
        ? mayNameCrawler(text.slice(start, end))
        : scan.agentStart < scan.agentEnd && match.mayNameIn(scan, scan.agentStart, scan.agentEnd);
      if (!may) {
        s.otherLines++;
        return;
      }
      return readCrawlerLine(text.slice(start, end), n);
    }
    const line = text.slice(start, end);
    const shape = reader.check(line);
    if (shape !== "ok") {
      if (shape === "skip") s.skipped++;
      else bad(n, shape.bad);
      return;
    }
    if (!mayNameCrawler(line)) {
      s.otherLines++;
      return;
    }
    return readCrawlerLine(line, n);
  };

  const tooLong = (n: number) => {
    s.tooLong++;
    bad(n, `longer than ${maxLine} characters`);
  };

  const startReading = () => {
    const detection = detectFormat(pending);
    s.detected = detection.format;
    if (!s.format) s.format = detection.format;
    s.overridden = Boolean(
      options.format && detection.format && options.format !== detection.format,
    );
    const format = s.format ? formatById(s.format) : undefined;
    reader = format ? format.reader() : null;
    if (format && !format.hasUserAgent) {
      s.messages.push(
        `A ${format.id} log has no User-Agent field: no crawler can be told apart in it.`,
      );
    }
  };

  let lineNo = 0;
  let detecting = true;
  /** Detection's end: the format is picked from the first lines, which are then read. */
  const flushPending = async () => {
    detecting = false;
    startReading();
    const lines = pending.splice(0);
    const numbers = pendingNumbers.splice(0);
    const last = lineNo;
    s.lines -= lines.length;
    for (let i = 0; i < lines.length; i++) {
      // Each line keeps its number (a line too long to keep came between them).
      lineNo = numbers[i] - 1;
      scan.reset(lines[i]);
      const p = lineAt(0, lines[i].length);
      if (p) await p;
    }
    lineNo = last;
    // The text being read when detection ended goes on being read.
    if (text !== null) scan.reset(text);
  };

  // Bytes: gzip is told by its magic number, then the stream is decoded chunk by chunk. A plain
  // log is read from the input's own reader (no stream in between: one less hop per chunk).
  const raw = input.getReader();
  const firstChunk = await raw.read();
  const head = firstChunk.done ? new Uint8Array() : firstChunk.value;
  let bytes: Pick<ReadableStreamDefaultReader<Uint8Array>, "read" | "cancel">;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    s.gzip = true;
    const replay = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(head);
      },
      async pull(c) {
        const r = await raw.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel: (why) => raw.cancel(why),
    });
    bytes = replay.pipeThrough(
      new DecompressionStream("gzip") as TransformStream<Uint8Array, Uint8Array>,
    ).getReader();
  } else {
    let first: ReadableStreamReadResult<Uint8Array> | null = firstChunk;
    bytes = {
      read: () => {
        const r = first;
        first = null;
        return r ? Promise.resolve(r) : raw.read();
      },
      cancel: (why?: unknown) => raw.cancel(why),
    };
  }

  const decoder = new TextDecoder("utf-8");
  // The start of a line the next chunk ends (at most maxLine characters are kept of it).
  let carry = "";
  // A line past maxLine is being skipped to its end.
  let discarding = false;
  let sawBinary = false;
  let text: string | null = null;

  // The byte scanner (clf_bytes.ts), once the format is known to be one it reads: null until
  // then, false when it cannot be used. Lines it hands back are decoded one at a time; a BOM
  // inside a log is a character there, as the stream's decoder reads it past the log's start.
  let scanner: ClfByteScanner | null | false = options.bytes === false ||
      options.prefilter === false
    ? false
    : null;
  const lineDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  // The unfinished line while the scanner reads (its bytes; `carry` while the text path does).
  // Never past its cap: over three bytes a character of the cap, it is counted too long and
  // emptied (overLong), and at most one slice is added at a time.
  const unfinished = new BodyBuffer(3 * maxLine + SCAN_SLICE);
  // The last chunk read as text ended inside a character: the decoder may hold part of it.
  let midChar = false;
  const sawNul = (line: string) => {
    if (!sawBinary && line.indexOf("\0") >= 0) sawBinary = true;
  };
  /** Lines a scan counted: each a person's line, dropped as the text path would drop it. */
  const counted = (n: number) => {
    lineNo += n;
    s.lines += n;
    s.otherLines += n;
  };
  /** A chunk read by the byte scanner. */
  const readBytes = async (chunk: Uint8Array, reading: ClfByteScanner, combined: boolean) => {
    let at = 0;
    while (at < chunk.length) {
      if (discarding) {
        const nl = chunk.indexOf(10, at);
        const upTo = nl < 0 ? chunk.length : nl;
        if (!sawBinary && chunk.subarray(at, upTo).includes(0)) sawBinary = true;
        if (nl < 0) return;
        discarding = false;
        at = nl + 1;
        continue;
      }
      const body = chunk.subarray(at, Math.min(chunk.length, at + SCAN_SLICE));
      at += body.length;
      // A piece shorter than the unfinished line before it, and holding no line's end, is only
      // kept: scanning the two again for each small piece (a log trickling in) would read the
      // line once per piece.
      if (body.length < unfinished.size && body.indexOf(10) < 0) {
        unfinished.append(body);
        overLong();
        continue;
      }
      reading.load(unfinished.bytes(), body);
      unfinished.clear();
      let start = 0;
      while (true) {
        const r = reading.scan(start, combined, maxLine);
        let done = 0;
        for (const back of r.back) {
          counted(back.line - done);
          const line = lineDecoder.decode(reading.bytes(back.start, back.end));
          sawNul(line);
          scan.reset(line);
          const wait = lineAt(0, line.length);
          if (wait) await wait;
          done = back.line + 1;
        }
        counted(r.lines - done);
        start = r.next;
        if (!r.more) break;
      }
      unfinished.append(reading.bytes(start, reading.length));
      overLong();
    }
  };
  /**
   * The unfinished line, once it is surely longer than the cap, is counted as too long and the
   * rest of it skipped: over three bytes a character it is (UTF-8 takes at most three bytes for
   * each UTF-16 unit the text path counts, and a byte that is not UTF-8 is at least one unit).
   * Shorter, it is kept until its end: the text path, or the scanner, then decides.
   */
  const overLong = () => {
    if (unfinished.size <= 3 * maxLine) return;
    if (!sawBinary && unfinished.bytes().includes(0)) sawBinary = true;
    lineNo++;
    s.lines++;
    tooLong(lineNo);
    unfinished.clear();
    discarding = true;
  };
  try {
    while (true) {
      if (options.signal?.aborted) throw options.signal.reason;
      const r = await bytes.read();
      if (r.done) break;
      let chunk = r.value;
      if (s.bytes + chunk.length > maxBytes) {
        chunk = chunk.subarray(0, Math.max(0, maxBytes - s.bytes));
        s.cut = true;
      }
      s.bytes += chunk.length;
      const clf = (reader as LineReader | null)?.clf;
      if (scanner === null && !detecting && clf && !midChar) {
        // From here the bytes are scanned: the unfinished line goes on as bytes.
        scanner = ClfByteScanner.create() ?? false;
        if (scanner) {
          unfinished.append(new TextEncoder().encode(carry));
          carry = "";
        }
      }
      if (scanner && clf) {
        await readBytes(chunk, scanner, clf.combined);
        options.onProgress?.({ bytes: s.bytes, lines: s.lines });
        if (s.cut) {
          await bytes.cancel().catch(() => {});
          break;
        }
        continue;
      }
      if (chunk.length) midChar = chunk[chunk.length - 1] >= 0x80;
      text = decoder.decode(chunk, { stream: true });
      // A NUL byte decodes to U+0000 and nothing else does: searched in the text, which the
      // runtime did about 30 times faster than in the bytes (tests/bench/logs_bench.ts).
      if (!sawBinary && text.indexOf("\0") >= 0) sawBinary = true;
      let start = 0;
      let nl = text.indexOf("\n");
      if (nl >= 0 && (carry || discarding)) {
        // The line begun in earlier chunks ends here: read it on its own.
        if (!discarding) {
          const line = carry + text.slice(0, nl);
          scan.reset(line);
          const wait = lineAt(0, line.length);
          if (wait) await wait;
        }
        carry = "";
        discarding = false;
        start = nl + 1;
        nl = text.indexOf("\n", start);
      }
      scan.reset(text);
      while (nl >= 0) {
        // Most lines return at once: awaiting only a promise keeps the loop synchronous.
        const wait = lineAt(start, nl);
        if (wait) await wait;
        start = nl + 1;
        nl = text.indexOf("\n", start);
      }
      if (!discarding) {
        carry += text.slice(start);
        if (carry.length > maxLine) {
          // Counted now, and the rest of the line is skipped without being kept.
          lineNo++;
          s.lines++;
          tooLong(lineNo);
          carry = "";
          discarding = true;
        }
      }
      options.onProgress?.({ bytes: s.bytes, lines: s.lines });
      if (s.cut) {
        await bytes.cancel().catch(() => {});
        break;
      }
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (s.gzip) {
      s.truncated = true;
      s.messages.push(
        "The gzip stream ends before its end marker (a truncated or damaged file): the lines before the break were read.",
      );
    } else throw error;
  }
  text = null;
  if (scanner && unfinished.size) {
    // The last line, without a newline: read as the text path reads it (the stream's decoder
    // keeps a character cut off at the end to itself).
    carry = new TextDecoder("utf-8", { ignoreBOM: true }).decode(unfinished.bytes(), {
      stream: true,
    });
    sawNul(carry);
  }
  if (!discarding && carry) {
    scan.reset(carry);
    await lineAt(0, carry.length);
  }
  if (detecting) await flushPending();

  if (sawBinary) {
    s.binary = true;
    s.messages.push(
      "This is not a text log: it holds binary bytes. Lines that could be read were counted.",
    );
  }
  if (s.cut) s.messages.push(`Only the first ${maxBytes} bytes were read (the size limit).`);
  if (s.tooLong) {
    s.messages.push(
      `${s.tooLong} line(s) were longer than ${maxLine} characters and were skipped.`,
    );
  }
  if (!s.format) {
    s.messages.push("No known log format was found in the first lines; nothing could be read.");
  } else if (s.unreadable > 0 && s.unreadable >= (s.lines - s.skipped) / 2) {
    const looks = s.detected && s.detected !== s.format
      ? ` The content looks like ${s.detected}.`
      : "";
    s.messages.push(
      `${s.unreadable} of ${s.lines} lines are not ${s.format} lines.${looks}`,
    );
  }
  return { aggregates, summary: s };
}
