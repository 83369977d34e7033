/**
 * robots.txt analysis per RFC 9309, on top of `npm:robots-parser` (exact product tokens, duplicate
 * groups merged, longest match wins, Allow wins ties). Our part is the RFC's handling of fetch
 * outcomes and classing the result per crawler.
 */
import robotsParserModule from "robots-parser";
import { type CrawlerRole, CRAWLERS } from "./crawlers.ts";
import type { FetchOutcome } from "./snapshot_types.ts";

/** The parts of robots-parser's API we use (its bundled typings do not type the default export). */
interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getSitemaps(): string[];
}
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => ParsedRobots;

/** How the robots.txt fetch went, read the RFC 9309 way. */
export type RobotsState =
  | "ok" // 2xx with robots.txt rules (or an empty file)
  | "missing" // 4xx: "unavailable", crawlers may crawl everything
  | "server_error" // 5xx: "unreachable", crawlers must assume complete disallow
  | "unreachable" // we could not reach it (network, timeout): not observable
  | "invalid"; // 2xx but not a robots.txt (an HTML page, a soft 404): no rules apply

/** What robots.txt says to one crawler about the home page. */
export interface CrawlerAccess {
  token: string;
  role: CrawlerRole;
  allowed: boolean;
  /** Which group decided: one naming this crawler, the `*` group, or none (no rules). */
  group: "specific" | "wildcard" | "none";
  /** The 1-based line of the deciding rule, and its text; null when no rule matched. */
  line: number | null;
  lineText: string | null;
}

/** The robots.txt verdicts every signal reads. */
export interface RobotsAnalysis {
  state: RobotsState;
  url: string;
  httpStatus: number | null;
  crawlers: CrawlerAccess[];
  /** `User-agent: *` disallows the home page (or robots.txt was a 5xx). */
  wildcardBlocksHome: boolean;
  sitemaps: string[];
  /** Lines of the file (0 when none was read). */
  lineCount: number;
  /** Lines that are neither blank, comments nor a known directive: a sign of a broken file. */
  unknownLines: number;
}

const DIRECTIVE =
  /^\s*(user-agent|allow|disallow|sitemap|crawl-delay|host|clean-param|request-rate|visit-time|noindex|content-signal)\s*:/i;

/**
 * Reads a robots.txt fetch outcome for a page URL.
 *
 * @example
 * ```ts
 * const a = analyseRobots({ ok: true, result }, "https://example.com/");
 * a.crawlers.find((c) => c.token === "OAI-SearchBot")?.allowed;
 * ```
 */
export function analyseRobots(outcome: FetchOutcome, pageUrl: string): RobotsAnalysis {
  const url = new URL("/robots.txt", pageUrl).href;
  const base: RobotsAnalysis = {
    state: "ok",
    url,
    httpStatus: null,
    crawlers: [],
    wildcardBlocksHome: false,
    sitemaps: [],
    lineCount: 0,
    unknownLines: 0,
  };
  if (!outcome.ok) {
    return { ...base, state: "unreachable", crawlers: allCrawlers(true, "none") };
  }
  const res = outcome.result;
  base.httpStatus = res.status;
  if (res.status >= 500) {
    return {
      ...base,
      state: "server_error",
      crawlers: allCrawlers(false, "none"),
      wildcardBlocksHome: true,
    };
  }
  if (res.status >= 400 || res.status < 200 || res.status >= 300) {
    return { ...base, state: "missing", crawlers: allCrawlers(true, "none") };
  }
  const text = res.body;
  const lines = text.split(/\r\n|\r|\n/);
  const meaningful = lines.filter((l) => l.replace(/#.*/, "").trim() !== "");
  const unknownLines = meaningful.filter((l) => !DIRECTIVE.test(l)).length;
  const looksLikeHtml = /^\s*</.test(text) || /text\/html/i.test(res.headers["content-type"] ?? "");
  if (looksLikeHtml && meaningful.every((l) => !DIRECTIVE.test(l) || /</.test(l))) {
    return {
      ...base,
      state: "invalid",
      crawlers: allCrawlers(true, "none"),
      lineCount: lines.length,
      unknownLines,
    };
  }
  // robots-parser only answers for URLs of the robots.txt's own origin, so test the final origin.
  const robots = robotsParser(url, text);
  const testUrl = new URL(new URL(pageUrl).pathname || "/", url).href;
  const named = new Set(
    meaningful
      .map((l) => l.match(/^\s*user-agent\s*:\s*([^#\s]+)/i)?.[1]?.toLowerCase())
      .filter((t): t is string => !!t),
  );
  const crawlers: CrawlerAccess[] = CRAWLERS.map((c) => {
    const allowed = robots.isAllowed(testUrl, c.token) !== false;
    const lineNo = robots.getMatchingLineNumber(testUrl, c.token);
    return {
      token: c.token,
      role: c.role,
      allowed,
      group: named.has(c.token.toLowerCase()) ? "specific" : named.has("*") ? "wildcard" : "none",
      line: lineNo > 0 ? lineNo : null,
      lineText: lineNo > 0 ? lines[lineNo - 1].trim() : null,
    };
  });
  const wildcardAllowed = robots.isAllowed(testUrl, "*") !== false;
  return {
    ...base,
    crawlers,
    wildcardBlocksHome: named.has("*") && !wildcardAllowed,
    sitemaps: robots.getSitemaps().slice(0, 20),
    lineCount: lines.length,
    unknownLines,
  };
}

function allCrawlers(allowed: boolean, group: CrawlerAccess["group"]): CrawlerAccess[] {
  return CRAWLERS.map((c) => ({
    token: c.token,
    role: c.role,
    allowed,
    group,
    line: null,
    lineText: null,
  }));
}
