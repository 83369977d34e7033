/**
 * How an upload's read can fail besides bad input (which is counted, never fatal): the readers
 * are busy, the read was stopped at its limit, or its counters are too many for one upload. Each
 * is an HTTP error with a clear JSON body (lib/kit/errors.ts); the MCP tool says the same words.
 * A stopped read stores nothing (docs/logs.md says why): the body says what had been read by then.
 */
import { HttpError } from "../../kit/errors.ts";

/** 503: as many uploads as may be read at once are being read. */
export class LogReadersBusyError extends HttpError {
  override name = "LogReadersBusyError";
  constructor() {
    super(503, "Other logs are being read; retry in a minute");
  }
  override headers(): Record<string, string> {
    return { "Retry-After": "60" };
  }
}

/** What a stopped read had done by then. */
export interface ReadSoFar {
  /** Bytes of the body received, bytes read after decompression, lines read. */
  received: number;
  bytes: number;
  lines: number;
  /** Seconds from the start of the read to its stop. */
  seconds: number;
}

/**
 * A read stopped at its limit, with nothing stored: 422 when the log itself was too slow (or too
 * large) to read, 408 when its bytes arrived too slowly, 503 when the reader could not run.
 */
export class LogReadStoppedError extends HttpError {
  override name = "LogReadStoppedError";
  constructor(
    readonly reason: "slow" | "memory" | "late" | "crash",
    readonly soFar: ReadSoFar,
    limit: string,
  ) {
    super(statusOf(reason), messageOf(reason, soFar, limit));
  }
  override body(): Record<string, unknown> {
    return { error: this.message, read: this.soFar, stored: false };
  }
}

function statusOf(cause: LogReadStoppedError["reason"]): number {
  return cause === "late" ? 408 : cause === "crash" ? 503 : 422;
}

function messageOf(cause: LogReadStoppedError["reason"], s: ReadSoFar, limit: string): string {
  const read = `${s.lines.toLocaleString("en-US")} lines (${
    (s.bytes / 1048576).toFixed(1)
  } MB) had been read`;
  const nothing = "nothing of this upload was stored";
  if (cause === "late") {
    return `The log arrived too slowly: ${limit}, ${
      (s.received / 1048576).toFixed(1)
    } MB of it had come and ${read}; ${nothing}. Send it again, or in parts.`;
  }
  if (cause === "memory") {
    return `The log's counters needed more than ${limit} to read: ${read}; ${nothing}. ` +
      "Upload it in parts (a month at a time).";
  }
  if (cause === "crash") return `The log reader stopped (${limit}); ${nothing}. Retry in a minute.`;
  return `The log was too slow to read: it was stopped ${limit}, when ${read}; ${nothing}. ` +
    "Upload it in smaller parts.";
}

/** 422: the counters of one upload are too many to send back whole. */
export class LogCountersTooManyError extends HttpError {
  override name = "LogCountersTooManyError";
  constructor(readonly days: number, readonly soFar: ReadSoFar) {
    super(
      422,
      `The log's crawler counters span ${days} days and are too many for one upload; nothing of ` +
        "it was stored. Upload it in parts (a month at a time).",
    );
  }
  override body(): Record<string, unknown> {
    return { error: this.message, read: this.soFar, stored: false };
  }
}
