/**
 * Which registry crawler a User-Agent names. A crawler's token counts only as a whole token (not
 * followed by a letter, digit, `-` or `_`): `Googlebot-Image` is not Googlebot, `ClaudeBot` is not
 * `Claude-User`. One regular expression of the registry's literal tokens, longest first, is tried
 * over the whole line before anything is parsed, so a person's line costs one linear scan and is
 * dropped as read.
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
