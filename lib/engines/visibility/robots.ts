/**
 * robots.txt analysis per RFC 9309, with our own matcher: groups of consecutive `User-agent`
 * lines (lines such as `Sitemap` or `Crawl-delay` between them do not split a group), product
 * tokens read up to the first character that cannot be part of one (`Foo Bar` and `Foo/1.0` name
 * `Foo`), groups for one crawler merged, the path and query of the URL matched with `*` and `$`,
 * the longest match winning and Allow winning ties. On top: the RFC's handling of fetch outcomes,
 * Apple's documented fallback (Applebot follows the Googlebot group when it has none of its own),
 * and classing the result per crawler. No input throws.
 */
import { type CrawlerRole, CRAWLERS } from "./crawlers.ts";
import type { FetchOutcome } from "./snapshot_types.ts";
import { occurrences } from "../../kit/text/occurrences.ts";

/** One Allow or Disallow rule of a parsed robots.txt. */
export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (may hold `*` and a final `$`). */
  pattern: string;
  /** 1-based line number in the file. */
  line: number;
  /** The pattern percent-encoded as a crawler compares it, computed once at parse time. */
  normalised: string;
  /** Its literal start (up to the first `*` or final `$`): a path not starting so cannot match. */
  prefix: string;
}

/**
 * A line of a group that is neither Allow nor Disallow but states a preference about the use of
 * what may be crawled: Cloudflare's `Content-Signal` or the IETF AI-preferences `Content-Usage`
 * rule (usage_prefs.ts reads their values).
 */
export interface RobotsPreferenceLine {
  key: "content-signal" | "content-usage";
  /** The value as written, comment stripped. */
  value: string;
  /** 1-based line number in the file. */
  line: number;
}

/**
 * One group of a robots.txt file: its product tokens, its rules, and its preference lines (each
 * applying to the tokens named before it: a User-agent line after a preference line still joins
 * the group, but not that line).
 */
export interface RobotsGroupPart {
  /** Lower-cased product tokens, each once; none for the lines before any User-agent line. */
  tokens: string[];
  rules: RobotsRule[];
  preferences: { line: RobotsPreferenceLine; tokens: number }[];
}

/** A robots.txt file parsed into groups. */
export interface ParsedRobotsTxt {
  /**
   * Rules per lower-cased product token (`*` for the wildcard group); duplicate groups merged.
   * Built when first read (the matcher reads {@link parts}): merged copies cost tokens x rules.
   */
  readonly groups: Map<string, RobotsRule[]>;
  /** Sitemap URLs in file order, as written. */
  sitemaps: string[];
  /** The file's lines (for quoting a deciding rule). */
  lines: string[];
  /**
   * Preference lines per lower-cased product token, merged like the rules; lines before any
   * User-agent line are kept under "" (they belong to no group). Built when first read.
   */
  readonly preferences: Map<string, RobotsPreferenceLine[]>;
  /** The groups in file order; the first holds the lines before any User-agent line. */
  parts: RobotsGroupPart[];
  /** For each lower-cased product token, the groups naming it (indexes into {@link parts}). */
  tokenParts: Map<string, number[]>;
}

/** The verdict of the matcher for one product token and one URL. */
export interface RobotsVerdict {
  allowed: boolean;
  /** The group that decided: the token's own (or, for Applebot, Googlebot's), `*`, or none. */
  group: "specific" | "wildcard" | "none";
  /** The deciding rule, or null when none matched. */
  rule: RobotsRule | null;
}

/** Reads the product token of a User-agent value: its leading letters, `-` and `_` (RFC 9309 2.2.1). */
export function productToken(value: string): string {
  const v = value.trim();
  if (v.startsWith("*")) return "*";
  return (v.match(/^[A-Za-z_-]+/)?.[0] ?? "").toLowerCase();
}

/**
 * Parses robots.txt text. Linear in the input; never throws. A group's tokens share its one list
 * of rules (a file naming thousands of tokens above thousands of rules costs their sum, not their
 * product); the merged maps {@link ParsedRobotsTxt.groups} and `preferences` are built on demand.
 */
export function parseRobotsTxt(text: string): ParsedRobotsTxt {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const parts: RobotsGroupPart[] = [{ tokens: [], rules: [], preferences: [] }];
  const tokenParts = new Map<string, number[]>();
  const sitemaps: string[] = [];
  let current = parts[0];
  let inCurrent = new Set<string>();
  let collectingAgents = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const hash = raw.indexOf("#");
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase().replace(/[\s_]+/g, "-");
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent" || key === "useragent") {
      if (!collectingAgents) {
        current = { tokens: [], rules: [], preferences: [] };
        parts.push(current);
        inCurrent = new Set();
      }
      collectingAgents = true;
      const token = productToken(value);
      if (!token || inCurrent.has(token)) continue;
      inCurrent.add(token);
      current.tokens.push(token);
      const list = tokenParts.get(token);
      if (list) list.push(parts.length - 1);
      else tokenParts.set(token, [parts.length - 1]);
    } else if (key === "allow" || key === "disallow") {
      collectingAgents = false;
      // An empty Disallow matches nothing; an empty Allow neither (RFC 9309 2.2.2). Rules before
      // any User-agent line belong to no group.
      if (!value || current === parts[0]) continue;
      const normalised = normaliseEncoding(value);
      current.rules.push({
        allow: key === "allow",
        pattern: value,
        line: i + 1,
        normalised,
        prefix: normalised.split("*")[0].replace(/\$$/, ""),
      });
    } else if (key === "sitemap") {
      // Sitemap lines stand outside groups and do not end one.
      if (value) sitemaps.push(value);
    } else if ((key === "content-signal" || key === "content-usage") && value) {
      // Preference lines belong to the group they stand in but, like Crawl-delay, do not end its
      // User-agent lines: Google's matcher (the corpus reference) groups them that way.
      current.preferences.push({
        line: { key, value, line: i + 1 },
        tokens: current.tokens.length,
      });
    }
    // Other lines (Crawl-delay, Host, ...) neither end nor split a group.
  }
  let groups: Map<string, RobotsRule[]> | undefined;
  let preferences: Map<string, RobotsPreferenceLine[]> | undefined;
  return {
    sitemaps,
    lines,
    parts,
    tokenParts,
    get groups() {
      return groups ??= mergedRules(parts, tokenParts);
    },
    get preferences() {
      return preferences ??= mergedPreferences(parts);
    },
  };
}

/** Each token's rules, its groups' merged in file order. */
function mergedRules(
  parts: RobotsGroupPart[],
  tokenParts: Map<string, number[]>,
): Map<string, RobotsRule[]> {
  const out = new Map<string, RobotsRule[]>();
  for (const [token, list] of tokenParts) out.set(token, list.flatMap((i) => parts[i].rules));
  return out;
}

/** Each token's preference lines in file order ("" for those before any User-agent line). */
function mergedPreferences(parts: RobotsGroupPart[]): Map<string, RobotsPreferenceLine[]> {
  const out = new Map<string, RobotsPreferenceLine[]>();
  for (const part of parts) {
    for (const { line, tokens } of part.preferences) {
      for (const t of tokens ? part.tokens.slice(0, tokens) : [""]) {
        const list = out.get(t);
        if (list) list.push(line);
        else out.set(t, [line]);
      }
    }
  }
  return out;
}

/**
 * The groups a crawler obeys (RFC 9309 2.2.1): those naming its product token (Applebot reads
 * Googlebot's when it has none, as Apple documents), else the `*` groups; and which kind that is.
 */
export function groupsFor(
  parsed: ParsedRobotsTxt,
  token: string,
): { parts: RobotsGroupPart[]; group: RobotsVerdict["group"]; key: string | null } {
  const key = productToken(token) || token.toLowerCase();
  const own = parsed.tokenParts.get(key) ??
    (key === "applebot" ? parsed.tokenParts.get("googlebot") : undefined);
  const group: RobotsVerdict["group"] = key === "*" ? "wildcard" : "specific";
  if (own) {
    const ownKey = parsed.tokenParts.has(key) ? key : "googlebot";
    return { parts: own.map((i) => parsed.parts[i]), group, key: ownKey };
  }
  const star = parsed.tokenParts.get("*");
  return star
    ? { parts: star.map((i) => parsed.parts[i]), group: "wildcard", key: "*" }
    : { parts: [], group: "none", key: null };
}

/**
 * The parsed form of a robots.txt text, parsed once per text: a scan asks the same file about the
 * home page, every sampled page and every candidate fix. A few files are kept (a scan needs one,
 * plus the patched candidates its fixes try).
 */
export function robotsFile(text: string): ParsedRobotsTxt {
  const cached = parsedCache.get(text);
  if (cached) return cached;
  const parsed = parseRobotsTxt(text);
  parsedCache.set(text, parsed);
  if (parsedCache.size > CACHED_FILES) parsedCache.delete(parsedCache.keys().next().value!);
  return parsed;
}

const parsedCache = new Map<string, ParsedRobotsTxt>();
const CACHED_FILES = 8;

/** Printable ASCII with no lower-case hex in an escape: already in a crawler's form. */
const ALREADY_NORMAL = /^(?:[\x21-\x24\x26-\x7e]|%[0-9A-F]{2})*$/;

/** Percent-encodes what a crawler would encode and upper-cases existing escapes. */
function normaliseEncoding(s: string): string {
  if (ALREADY_NORMAL.test(s)) return s;
  let out = "";
  const encoder = new TextEncoder();
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code > 0x7e || code < 0x21) {
      for (const b of encoder.encode(ch)) {
        out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
      }
    } else out += ch;
  }
  return out.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}

/** True when the pattern (with `*` and a final `$`) matches the start of the path. */
export function patternMatches(pattern: string, path: string): boolean {
  return normalisedMatches(normaliseEncoding(pattern), path);
}

/**
 * {@link patternMatches} for a pattern already percent-encoded the crawler's way, in time linear
 * in pattern and path (no regular expression built from the file): the pattern's first piece must
 * start the path, each piece after a `*` is found at its first place after the one before (taking
 * the first place leaves the most room for the rest, so nothing is ever retried), and with a
 * final `$` the last piece must end the path.
 */
function normalisedMatches(p: string, path: string): boolean {
  const anchored = p.endsWith("$");
  const pieces = (anchored ? p.slice(0, -1) : p).split("*");
  const first = pieces[0];
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const found = firstAt(path, pieces[i], at);
    if (found < 0) return false;
    at = found + pieces[i].length;
  }
  const tail = pieces[last];
  if (anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return tail === "" || firstAt(path, tail, at) >= 0;
}

/** The first place of `piece` in `text` at or after `from`, or -1 (linear: a KMP search). */
function firstAt(text: string, piece: string, from: number): number {
  if (piece === "") return from;
  for (const at of occurrences(text.slice(from), piece)) return from + at;
  return -1;
}

/** The path and query a crawler requests for a URL, e.g. `/a/b?c=d` (`//x` stays a path). */
export function requestTarget(pageUrl: string): string {
  try {
    const u = new URL(pageUrl);
    return normaliseEncoding((u.pathname || "/") + u.search);
  } catch {
    return "/";
  }
}

/**
 * Decides whether the crawler with this product token may fetch a URL (`/path?query` or an
 * absolute URL). Applebot uses the Googlebot group when it has none of its own, as Apple documents.
 */
export function robotsVerdict(
  parsed: ParsedRobotsTxt,
  token: string,
  url: string,
): RobotsVerdict {
  const target = url.startsWith("/") ? normaliseEncoding(url) : requestTarget(url);
  const { parts, group } = groupsFor(parsed, token);
  if (group === "none") return { allowed: true, group, rule: null };
  let best: RobotsRule | null = null;
  let bestLen = -1;
  for (const part of parts) {
    for (const r of part.rules) {
      if (!target.startsWith(r.prefix) || !normalisedMatches(r.normalised, target)) continue;
      const len = r.normalised.length;
      if (len > bestLen || (len === bestLen && r.allow && !best!.allow)) {
        best = r;
        bestLen = len;
      }
    }
  }
  // "/robots.txt" is always allowed (RFC 9309 2.2.2).
  if (target === "/robots.txt") return { allowed: true, group, rule: null };
  return { allowed: best ? best.allow : true, group, rule: best };
}

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
  /^\s*(user-agent|allow|disallow|sitemap|crawl-delay|host|clean-param|request-rate|visit-time|noindex|content-signal|content-usage)\s*:/i;

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
  const parsed = robotsFile(text);
  const target = requestTarget(pageUrl);
  const crawlers: CrawlerAccess[] = CRAWLERS.map((c) => {
    const v = robotsVerdict(parsed, c.token, target);
    return {
      token: c.token,
      role: c.role,
      allowed: v.allowed,
      group: v.group,
      line: v.rule ? v.rule.line : null,
      lineText: v.rule ? parsed.lines[v.rule.line - 1].trim() : null,
    };
  });
  const wildcard = robotsVerdict(parsed, "*", target);
  return {
    ...base,
    crawlers,
    wildcardBlocksHome: wildcard.group === "wildcard" && !wildcard.allowed,
    sitemaps: sitemapUrls(parsed.sitemaps, url),
    lineCount: lines.length,
    unknownLines,
  };
}

/** The Sitemap lines as absolute http(s) URLs, deduplicated, at most 20; bad entries skipped. */
function sitemapUrls(values: string[], base: string): string[] {
  const out: string[] = [];
  for (const v of values) {
    try {
      const u = new URL(v, base);
      if ((u.protocol === "http:" || u.protocol === "https:") && !out.includes(u.href)) {
        out.push(u.href);
      }
    } catch {
      // A malformed entry does not spoil the others.
    }
    if (out.length >= 20) break;
  }
  return out;
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
