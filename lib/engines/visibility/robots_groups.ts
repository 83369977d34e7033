/**
 * robots.txt read the RFC 9309 way for the fixes (robots_fix.ts): the file's lines and groups,
 * each crawler's verdict on a set of paths (computed with the project's own matcher on the file
 * parsed once, see robots.ts), and the paths worth checking. Parsed groups and verdicts are
 * cached per file.
 */
import { CRAWLERS } from "./crawlers.ts";
import {
  analyseRobots,
  type ParsedRobotsTxt,
  requestTarget,
  robotsFile,
  robotsVerdict,
} from "./robots.ts";
import type { FetchOutcome } from "./snapshot_types.ts";
import { cutAt } from "../../kit/text/trim.ts";

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

const LINE = /^\s*([A-Za-z-]+)\s*:([^]*)$/;

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
    const m = cutAt(raw, "#").match(LINE);
    if (!m) return;
    const key = m[1].toLowerCase();
    const value = m[2].trim();
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
 * sitemap against the same file. The file is parsed once (robots.ts keeps the parsed form per
 * text) and each path is matched against the parsed groups. A few files are kept (a scan needs
 * one, plus the patched candidates).
 */
const verdictCache = new Map<string, FileVerdicts>();
const CACHED_FILES = 8;

/** One file's parsed rules (null: the body is no robots.txt, every crawler may read) and verdicts. */
interface FileVerdicts {
  rules: ParsedRobotsTxt | null;
  byPath: Map<string, Map<string, boolean>>;
}

/** Every known crawler's verdict (allowed?) on each path, keyed "token path". */
export function robotsVerdicts(
  text: string,
  origin: string,
  paths: string[],
): Map<string, boolean> {
  const base = new URL(origin).origin;
  const key = `${base}\n${text}`;
  let file = verdictCache.get(key);
  if (!file) {
    // A body that is no robots.txt at all (an HTML page) has no rules: every crawler is allowed,
    // exactly as analyseRobots reads it.
    const ok = analyseRobots(outcomeOf(text, `${base}/robots.txt`), `${base}/`).state === "ok";
    file = { rules: ok ? robotsFile(text) : null, byPath: new Map() };
    verdictCache.set(key, file);
    if (verdictCache.size > CACHED_FILES) {
      verdictCache.delete(verdictCache.keys().next().value!);
    }
  }
  const out = new Map<string, boolean>();
  for (const path of paths) {
    let verdicts = file.byPath.get(path);
    if (!verdicts) {
      verdicts = new Map();
      const target = requestTarget(new URL(path, base).href);
      for (const c of CRAWLERS) {
        verdicts.set(
          c.token,
          file.rules ? robotsVerdict(file.rules, c.token, target).allowed : true,
        );
      }
      file.byPath.set(path, verdicts);
    }
    for (const [token, allowed] of verdicts) out.set(`${token} ${path}`, allowed);
  }
  return out;
}

/**
 * The paths a check evaluates: the home page and a sample of the rules' patterns, spread evenly
 * over the files (at most `max`, 100 by default).
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
