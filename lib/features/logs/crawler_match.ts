/**
 * Which registry crawler a User-Agent names. A crawler's token counts only as a whole token (not
 * followed by a letter, digit, `-` or `_`): `Googlebot-Image` is not Googlebot, `ClaudeBot` is not
 * `Claude-User`. One regular expression of the registry's literal tokens, longest first, is tried
 * over a line's User-Agent (or the whole line, for formats whose agent is not cut out in place)
 * before anything is parsed, so a person's line costs one linear scan, or one lookup of an agent
 * already seen, and is dropped as read.
 */
import { type Crawler, CRAWLERS } from "../../engines/visibility/crawlers.ts";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Tokens a User-Agent may carry (robots.txt-only tokens such as Google-Extended never appear). */
const TOKENS = CRAWLERS.map((c) => c.token).sort((a, b) => b.length - a.length);

/** Any token anywhere (the cheap first test over a raw line). */
const ANY = new RegExp(TOKENS.map(escape).join("|"), "i");

/** A whole token, captured. */
const WHOLE = new RegExp(
  `(?<![A-Za-z0-9_-])(${TOKENS.map(escape).join("|")})(?![A-Za-z0-9_-])`,
  "i",
);

const BY_TOKEN = new Map(CRAWLERS.map((c) => [c.token.toLowerCase(), c]));

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
  #may = new Map<string, boolean>();
  #named = new Map<string, Crawler | null>();
  #lookups = 0;
  #misses = 0;
  #remember = true;

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
