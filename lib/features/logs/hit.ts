/**
 * One request read from an access log, in the shape every format's reader produces (formats/).
 * A hit lives only while its line is read: the address and the User-Agent are used to say which
 * crawler it was and whether that is true, then dropped; only counters reach an aggregate
 * (aggregate.ts).
 */

/** The Web Bot Auth headers of a request, when the log kept them (web_bot_auth.ts). */
export interface SignatureHeaders {
  signature: string;
  signatureInput: string;
  signatureAgent: string;
  /** The request's host (`@authority`), which the signature covers. */
  authority: string;
}

/** A request as a log line states it. */
export interface LogHit {
  /** When, in ms since the epoch (UTC). */
  time: number;
  /** The client's address as logged (IPv4 or IPv6, no port). */
  ip: string;
  method: string;
  /** The path and query as requested (`/a/b?c`), or an absolute URL for some CDNs. */
  target: string;
  status: number;
  /** Response bytes as logged (0 where the log says `-`). */
  bytes: number;
  userAgent: string;
  signature?: SignatureHeaders;
}

/** What a format's reader says about one line. */
export type LineOutcome =
  /** One or more hits were emitted. */
  | "ok"
  /** A line that holds no request by design (a W3C directive, a blank line). */
  | "skip"
  /** Why the line could not be read. */
  | { bad: string };

/** Receives each hit a line holds. */
export type HitSink = (hit: LogHit) => void;
