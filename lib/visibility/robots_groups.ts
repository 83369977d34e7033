/**
 * robots.txt read the RFC 9309 way for the fixes (robots_fix.ts): the file's lines and groups,
 * each crawler's verdict on a set of paths (computed with the project's own matcher,
 * {@link analyseRobots}), the paths worth checking, and the file reduced to what concerns the
 * crawlers we know (so a check reads a small file). Parsed groups and verdicts are cached per file.
 */
import { CRAWLERS } from "./crawlers.ts";
import { analyseRobots } from "./robots.ts";
import type { FetchOutcome } from "./snapshot_types.ts";

/** A rule line of a group. */
export interface Rule {
  allow: boolean;
  path: string;
  /** 1-based line number in the file. */
  line: number;
}

/** A group: its User-agent lines and the rules that follow them. */
export interface RobotsGroup {
  agents: { token: string; line: number }[];
  rules: Rule[];
  /** First and last 1-based line of the group (User-agent lines to last rule or extension). */
  start: number;
  end: number;
}

const LINE = /^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*$/;

/** Splits robots.txt text into lines as the matcher does. */
export function robotsLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * Reads the groups of a robots.txt file (RFC 9309 section 2.1): consecutive User-agent lines open
 * a group, the rules after them belong to it, and a User-agent line after a rule opens the next.
 * Rules before any User-agent line belong to no group. Only used to build candidates: verdicts
 * always come from {@link analyseRobots}.
 */
export function robotsGroups(text: string): RobotsGroup[] {
  const cached = groupCache.get(text);
  if (cached) return cached;
  const groups = readGroups(text);
  groupCache.set(text, groups);
  if (groupCache.size > CACHED_FILES) groupCache.delete(groupCache.keys().next().value!);
  return groups;
}

/** Groups already read, per file text (a scan reads the same file for several fixes). */
const groupCache = new Map<string, RobotsGroup[]>();

function readGroups(text: string): RobotsGroup[] {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | null = null;
  robotsLines(text).forEach((raw, i) => {
    const m = raw.replace(/#.*$/, "").match(LINE);
    if (!m) return;
    const key = m[1].toLowerCase();
    const value = m[2];
    if (key === "user-agent") {
      if (!current || current.rules.length) {
        current = { agents: [], rules: [], start: i + 1, end: i + 1 };
        groups.push(current);
      }
      current.agents.push({ token: value.split(/\s/)[0] ?? "", line: i + 1 });
      current.end = i + 1;
    } else if ((key === "allow" || key === "disallow") && current) {
      current.rules.push({ allow: key === "allow", path: value, line: i + 1 });
      current.end = i + 1;
    } else if (key !== "sitemap" && current && current.rules.length) {
      current.end = i + 1; // crawl-delay and other group extensions
    }
  });
  return groups;
}

/** Whether a rule's path pattern (with `*` and a final `$`) matches `path`. */
export function patternMatches(pattern: string, path: string): boolean {
  if (!pattern) return false;
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern).split("*")
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`).test(path);
}

/** A path the rule's pattern matches, to test the rule with (wildcards filled in). */
function samplePath(pattern: string): string | null {
  const p = pattern.replace(/\$$/, "").replace(/\*/g, "x");
  if (!p) return null;
  return p.startsWith("/") ? p : `/${p}`;
}

/** A robots.txt body as the guarded fetcher would hand it over (200, text/plain). */
export function outcomeOf(text: string, robotsUrl: string): FetchOutcome {
  return {
    ok: true,
    result: {
      url: robotsUrl,
      finalUrl: robotsUrl,
      status: 200,
      headers: { "content-type": "text/plain" },
      body: text,
      bytes: text.length,
      truncated: false,
      redirects: [],
      ttfbMs: 0,
      totalMs: 0,
      remoteAddress: "",
    },
  };
}

/**
 * Verdicts already computed, per file text and origin: a scan checks several fixes and the
 * sitemap against the same file, and the matcher parses the whole file for every path it is
 * asked about. A few files are kept (a scan needs one, plus the patched candidates).
 */
const verdictCache = new Map<string, Map<string, Map<string, boolean>>>();
const CACHED_FILES = 8;

/** Every known crawler's verdict (allowed?) on each path, keyed "token path". */
export function robotsVerdicts(
  text: string,
  origin: string,
  paths: string[],
): Map<string, boolean> {
  const key = `${new URL(origin).origin}\n${text}`;
  let byPath = verdictCache.get(key);
  if (!byPath) {
    byPath = new Map();
    verdictCache.set(key, byPath);
    if (verdictCache.size > CACHED_FILES) {
      verdictCache.delete(verdictCache.keys().next().value!);
    }
  }
  const out = new Map<string, boolean>();
  const outcome = outcomeOf(text, new URL("/robots.txt", origin).href);
  for (const path of paths) {
    let verdicts = byPath.get(path);
    if (!verdicts) {
      verdicts = new Map();
      const a = analyseRobots(outcome, new URL(path, origin).href);
      for (const c of a.crawlers) verdicts.set(c.token, c.allowed);
      byPath.set(path, verdicts);
    }
    for (const [token, allowed] of verdicts) out.set(`${token} ${path}`, allowed);
  }
  return out;
}

/**
 * The paths a check evaluates: the home page and a sample of the rules' patterns, spread evenly
 * over the files (at most `max`, 100 by default). The matcher reads the whole file for every
 * path, so a scan checks a smaller sample (see {@link SCAN_SAMPLE}); the test suite checks 100.
 */
export function pathsToCheck(texts: string[], max = 100): string[] {
  const all = new Set<string>();
  for (const text of texts) {
    for (const g of robotsGroups(text)) {
      for (const r of g.rules) {
        const p = samplePath(r.path);
        if (p && p !== "/") all.add(p);
      }
    }
  }
  const list = [...all];
  const take = Math.max(0, max - 1);
  if (list.length <= take) return ["/", ...list];
  const step = list.length / take;
  return ["/", ...Array.from({ length: take }, (_, i) => list[Math.floor(i * step)])];
}

/** How many paths a scan checks each candidate fix on (the home page included). */
export const SCAN_SAMPLE = 4;

const KNOWN_TOKENS = CRAWLERS.map((c) => c.token.toLowerCase());

/** Whether a group's User-agent value could concern a crawler we know (or every crawler). */
function mayConcernKnown(token: string): boolean {
  const t = token.toLowerCase();
  return t.includes("*") || KNOWN_TOKENS.some((k) => k.startsWith(t) || t.startsWith(k));
}

/**
 * The file with every group that can concern no crawler we know (it names only other bots)
 * replaced by a placeholder group of the same shape, so group boundaries, and so RFC 9309's
 * grouping, are unchanged. Our crawlers' verdicts read the same on it, and the matcher, which
 * parses the whole file for every path, reads a fraction of it: a 44 KB file naming 33 bots
 * shrinks to the groups of the few we track.
 */
export function reduceForCheck(text: string): string {
  const lines = robotsLines(text);
  const out: string[] = [];
  const skip = new Map<number, RobotsGroup>();
  for (const g of robotsGroups(text)) {
    if (!g.agents.some((a) => mayConcernKnown(a.token))) skip.set(g.start, g);
  }
  for (let n = 1; n <= lines.length; n++) {
    const g = skip.get(n);
    if (!g) {
      out.push(lines[n - 1]);
      continue;
    }
    out.push("User-agent: zz-placeholder", ...(g.rules.length ? ["Disallow: /zz"] : []));
    n = g.end;
  }
  return out.join("\n");
}

/**
 * The text a scan checks fixes on: the reduced file when our crawlers' home-page verdicts read
 * the same on it (they should; if the matcher ever disagrees, the whole file is used).
 */
export function leanText(text: string, origin: string): string {
  const key = `${new URL(origin).origin}\n${text}`;
  const cached = leanCache.get(key);
  if (cached !== undefined) return cached;
  const lean = computeLean(text, origin);
  leanCache.set(key, lean);
  if (leanCache.size > CACHED_FILES) leanCache.delete(leanCache.keys().next().value!);
  return lean;
}

const leanCache = new Map<string, string>();

function computeLean(text: string, origin: string): string {
  const reduced = reduceForCheck(text);
  if (reduced === text) return text;
  const full = robotsVerdicts(text, origin, ["/"]);
  const lean = robotsVerdicts(reduced, origin, ["/"]);
  for (const [k, v] of full) if (lean.get(k) !== v) return text;
  return reduced;
}
