/**
 * How each crawler's claim can be checked, as data with its sources: the vendor's published IP
 * ranges (the registry's `ipRanges`, lib/engines/visibility/crawlers_registry.ts), reverse DNS with forward
 * confirmation where the vendor documents the host names its crawler resolves to, and Web Bot Auth
 * signatures from a signing agent the vendor operates. A crawler with none of these is
 * unverifiable: its hits are labelled so, never guessed.
 */
import { CRAWLERS } from "../../engines/visibility/crawlers.ts";
import type { DatedSource } from "../../kit/dated_source.ts";

/** A vendor's documented reverse-DNS rule for one crawler, with its dated source. */
export interface ReverseDnsRule extends DatedSource {
  /** Host-name suffixes a genuine crawler's address resolves to (matched on a label boundary). */
  suffixes: string[];
}

/**
 * Reverse DNS rules, by crawler token. Google: "Verify that the domain name is either
 * googlebot.com, google.com, or googleusercontent.com" with Googlebot's mask
 * `crawl-*.googlebot.com` (googleusercontent.com is left out for Googlebot: it also names
 * fetchers other sites run on Google Cloud). Microsoft: "resolves to a name that end with
 * search.msn.com". Amazon: "a subdomain of crawl.amazonbot.amazon". Each read through the search
 * tool's stored copy of the page on the date given.
 */
export const REVERSE_DNS: Readonly<Record<string, ReverseDnsRule>> = {
  Googlebot: {
    suffixes: ["googlebot.com", "google.com"],
    url: "https://developers.google.com/crawling/docs/crawlers-fetchers/verifying-googlebot",
    checked: "2026-12-06",
  },
  Bingbot: {
    suffixes: ["search.msn.com"],
    url: "https://www.bing.com/webmaster/help/how-to-verify-bingbot-3905dc26",
    checked: "2026-12-06",
  },
  Amazonbot: {
    suffixes: ["crawl.amazonbot.amazon"],
    url: "https://developer.amazon.com/support/amazonbot",
    checked: "2026-12-06",
  },
};

/**
 * A signing agent (Web Bot Auth `Signature-Agent` origin host) and the vendor that runs it, with the
 * dated source that says so.
 */
export interface SigningAgent extends DatedSource {
  host: string;
  vendor: string;
  basis: string;
}

/**
 * Signing agents known to belong to a vendor. OpenAI's ChatGPT agent signs with
 * `Signature-Agent: "https://chatgpt.com"` and publishes its keys at chatgpt.com's
 * `/.well-known/http-message-signatures-directory`: observed and published by Simon Willison and
 * by Castle (read 2026-12-06); OpenAI's own crawler page was not found saying so, so this rests on
 * those observations (docs/logs.md says so).
 */
export const SIGNING_AGENTS: readonly SigningAgent[] = [
  {
    host: "chatgpt.com",
    vendor: "OpenAI",
    url: "https://simonwillison.net/2025/Aug/4/chatgpt-agents-user-agent/",
    checked: "2026-12-06",
    basis: "observed requests and the published key directory; not on OpenAI's crawler page",
  },
];

/** One published list of addresses: its URL, the file name it is published under, who it covers. */
export interface RangeList {
  url: string;
  /** The last path segment of the URL: the name a local directory holds it under. */
  fileName: string;
  /** Tokens of the crawlers the list covers. */
  tokens: string[];
  /** Bit of this list in the prefix tree. */
  bit: number;
}

/** Every published list named by the registry, grouped by URL. */
export const RANGE_LISTS: readonly RangeList[] = (() => {
  const byUrl = new Map<string, string[]>();
  for (const c of CRAWLERS) {
    if (!c.ipRanges) continue;
    const tokens = byUrl.get(c.ipRanges) ?? [];
    tokens.push(c.token);
    byUrl.set(c.ipRanges, tokens);
  }
  return [...byUrl].slice(0, 32).map(([url, tokens], bit) => ({
    url,
    fileName: new URL(url).pathname.split("/").filter(Boolean).pop() ?? "ranges.json",
    tokens,
    bit,
  }));
})();

/** The lists covering a crawler, as a bit mask (0: its vendor publishes none). */
export function listsOf(token: string): number {
  let mask = 0;
  for (const l of RANGE_LISTS) if (l.tokens.includes(token)) mask |= 1 << l.bit;
  return mask;
}
