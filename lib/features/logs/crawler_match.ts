/**
 * Which registry crawler a User-Agent names. A crawler's token counts only as a whole token (not
 * followed by a letter, digit, `-` or `_`): `Googlebot-Image` is not Googlebot, `ClaudeBot` is not
 * `Claude-User`. One regular expression of the registry's literal tokens, longest first, is tried
 * over a line's User-Agent (or the whole line, for formats whose agent is not cut out in place)
 * before anything is parsed, so a person's line costs one linear scan, or one lookup of an agent
 * already seen, and is dropped as read. Before either, a prefilter ({@link AgentFilter}) looks
 * for a few short anchors that every token holds, with the runtime's own search over the chunk's
 * text: most people's agents hold none, and are dropped without being hashed or matched.
 */
import { type Crawler, CRAWLERS } from "../../engines/visibility/crawlers.ts";
import type { TextScan } from "./text_scan.ts";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Tokens a User-Agent may carry (robots.txt-only tokens such as Google-Extended never appear). */
export const TOKENS = CRAWLERS.map((c) => c.token).sort((a, b) => b.length - a.length);

/** Any token anywhere (the cheap first test over a raw line). */
const ANY = new RegExp(TOKENS.map(escape).join("|"), "i");

/** A whole token, captured. */
const WHOLE = new RegExp(
  `(?<![A-Za-z0-9_-])(${TOKENS.map(escape).join("|")})(?![A-Za-z0-9_-])`,
  "i",
);

const BY_TOKEN = new Map(CRAWLERS.map((c) => [c.token.toLowerCase(), c]));

/**
 * Short pieces that most tokens share and people's agents seldom hold: `-` (Claude-User,
 * OAI-SearchBot, ...) and `bot` (GPTBot, Googlebot, ...). A token that holds neither
 * (Bytespider) becomes an anchor of its own ({@link anchorsFor}), so every token holds an anchor
 * whatever the registry adds.
 */
const PREFERRED_ANCHORS = ["-", "bot"];

/**
 * Anchors, lower-cased, such that every token holds one (compared ignoring ASCII case, as the
 * tokens' regular expression does without its `u` flag: only ASCII letters fold).
 */
export function anchorsFor(tokens: readonly string[]): string[] {
  const anchors = [...PREFERRED_ANCHORS];
  for (const t of tokens) {
    const lower = t.toLowerCase();
    if (!anchors.some((a) => lower.includes(a))) anchors.push(lower);
  }
  return anchors;
}

/**
 * The prefilter: whether a User-Agent, where it lies in a chunk's text, holds any anchor (its
 * answer "no" is certain: no token can be in it; "yes" goes to the tokens' test). Each anchor is
 * found by its first character, in both cases for a letter, with the runtime's own search from
 * the agent's start, and the rest of the anchor compared by hand. Each position found is kept for
 * the agents after it in the same text (agents are asked about in order), so each character is
 * searched for once over a text however its lines fall, and an agent that ends before the next
 * position of every character is answered with one comparison.
 */
export class AgentFilter {
  /** The characters searched for. */
  readonly #chars: string[];
  /** For each character, the anchors (lower case) that start with it. */
  readonly #anchors: string[][];
  /** The next position of each character in {@link #text} (-2: not looked for; -1: none). */
  readonly #at: Float64Array;
  #text = "";
  /** No character searched for occurs from the last agent's end to here. */
  #horizon = -1;

  constructor(tokens: readonly string[] = TOKENS) {
    const byFirst = new Map<string, string[]>();
    for (const a of anchorsFor(tokens)) {
      for (const c of new Set([a[0], a[0].toUpperCase()])) {
        byFirst.set(c, [...(byFirst.get(c) ?? []), a]);
      }
    }
    this.#chars = [...byFirst.keys()];
    this.#anchors = [...byFirst.values()];
    this.#at = new Float64Array(this.#chars.length);
  }

  /**
   * True when `text` from `start` to `end` may name a crawler. Calls for one text go forwards
   * (each `start` at or after the last `end`); a new text starts afresh.
   */
  mayName(text: string, start: number, end: number): boolean {
    if (text !== this.#text) {
      this.#text = text;
      this.#at.fill(-2);
      this.#horizon = -1;
    }
    if (this.#horizon >= end) return false;
    const at = this.#at;
    let horizon = Infinity;
    for (let k = 0; k < at.length; k++) {
      let p = at[k];
      if (p === -1) continue;
      if (p < start) p = at[k] = text.indexOf(this.#chars[k], start);
      while (p >= 0 && p < end) {
        if (anchored(text, p, end, this.#anchors[k])) {
          this.#horizon = -1;
          return true;
        }
        p = at[k] = text.indexOf(this.#chars[k], p + 1);
      }
      if (p >= 0 && p < horizon) horizon = p;
    }
    this.#horizon = horizon;
    return false;
  }
}

/** One of `anchors` (lower case) at `at` of `text`, ending by `end`, ignoring ASCII case. */
function anchored(text: string, at: number, end: number, anchors: string[]): boolean {
  next: for (const anchor of anchors) {
    if (at + anchor.length > end) continue;
    for (let i = 1; i < anchor.length; i++) {
      const c = text.charCodeAt(at + i);
      const want = anchor.charCodeAt(i);
      // A lower-case letter also matches its upper case (0x20 apart); anything else only itself.
      if (c !== want && !(want >= 97 && want <= 122 && c === want - 32)) continue next;
    }
    return true;
  }
  return false;
}

/** True when a raw line may hold a crawler's User-Agent (it names a token somewhere). */
export function mayNameCrawler(line: string): boolean {
  return ANY.test(line);
}

/** The crawler a User-Agent names, or null. */
export function crawlerOf(userAgent: string): Crawler | null {
  const m = WHOLE.exec(userAgent);
  return m ? BY_TOKEN.get(m[1].toLowerCase()) ?? null : null;
}

/** Distinct User-Agents remembered per read (past it the memory starts afresh). */
export const AGENT_MEMO = 8192;
/** Longer agents are never remembered: the memory stays under AGENT_MEMO x 512 characters. */
const MEMO_CHARS = 512;
/** After this many lookups, a memory that missed more than half the time is given up. */
const MEMO_TRIAL = 4096;

/**
 * A string that holds its own characters: a slice of a chunk's text would keep the whole chunk
 * alive for as long as the memory keeps the slice.
 */
function detached(s: string): string {
  return JSON.parse(JSON.stringify(s));
}

/**
 * The two tests for one read, remembering each distinct User-Agent's answer: a log repeats a few
 * thousand agents over millions of lines, so most lines cost one hash lookup instead of a scan of
 * the registry's tokens. The memory is bounded ({@link AGENT_MEMO} entries of at most 512
 * characters each, held apart from the text they were read from), and a log whose agents mostly
 * differ stops using it after {@link MEMO_TRIAL} lookups: it then costs the plain scans, as
 * without a memory.
 */
export class CrawlerMatcher {
  readonly #filter: AgentFilter | null;
  #may = new Map<string, boolean>();
  #named = new Map<string, Crawler | null>();
  #lookups = 0;
  #misses = 0;
  #remember = true;

  /**
   * `prefilter: false` sends every agent to the tokens' test: the reference the prefilter is
   * compared with (tests/features/logs/reader_test.ts) and the benchmark's figure without it.
   */
  constructor(options: { prefilter?: boolean } = {}) {
    this.#filter = options.prefilter === false ? null : new AgentFilter();
  }

  /**
   * {@link mayNameCrawler} of `text` from `start` to `end` (a line's User-Agent inside a chunk's
   * text: only that slice is made).
   */
  mayNameAt(text: string, start: number, end: number): boolean {
    const agent = text.slice(start, end);
    if (!this.#remember || end - start > MEMO_CHARS) return ANY.test(agent);
    let v = this.#may.get(agent);
    if (v === undefined) {
      v = ANY.test(agent);
      if (this.#may.size >= AGENT_MEMO) this.#may.clear();
      this.#may.set(detached(agent), v);
      this.#misses++;
    }
    if (++this.#lookups === MEMO_TRIAL && this.#misses * 2 > MEMO_TRIAL) {
      this.#remember = false;
      this.#may.clear();
    }
    return v;
  }

  /**
   * {@link mayNameCrawler} of the text of `scan` from `start` to `end`: the prefilter first (an
   * agent without an anchor costs a few searches, no string), then {@link mayNameAt}.
   */
  mayNameIn(scan: TextScan, start: number, end: number): boolean {
    return (this.#filter?.mayName(scan.text, start, end) ?? true) &&
      this.mayNameAt(scan.text, start, end);
  }

  /** {@link crawlerOf} a User-Agent. */
  crawlerOf(userAgent: string): Crawler | null {
    if (userAgent.length > MEMO_CHARS) return crawlerOf(userAgent);
    let v = this.#named.get(userAgent);
    if (v === undefined) {
      v = crawlerOf(userAgent);
      if (this.#named.size >= AGENT_MEMO) this.#named.clear();
      this.#named.set(detached(userAgent), v);
    }
    return v;
  }
}
