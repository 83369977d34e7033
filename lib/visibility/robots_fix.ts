/**
 * robots.txt fixes computed on the site's real file and checked before they are offered.
 *
 * A fix lets named crawlers read the home page. It is built the RFC 9309 way: a crawler obeys the
 * group(s) naming it (merged), else the `*` group; within them the longest matching rule wins and
 * an Allow wins a tie. So the safest change is to add a group for the crawlers the fix names
 * (nobody else reads it), and to edit existing lines only when adding cannot work (a longer
 * Disallow in the crawler's own group), then giving the corrected group whole.
 *
 * Every candidate is applied to the real file and evaluated with the project's own matcher
 * ({@link analyseRobots}) for every crawler we know, on the home page and on every path the file's
 * rules mention: it is offered only when the named crawlers become allowed and every other crawler
 * keeps its exact verdict everywhere (training opt-outs included).
 */
import { CRAWLERS } from "./crawlers.ts";
import { codeBlock } from "./fix_text.ts";
import { analyseRobots } from "./robots.ts";
import type { FetchOutcome } from "./snapshot_types.ts";

/** A rule line of a group. */
interface Rule {
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

/** One change to the file. */
export type RobotsEdit =
  | { kind: "append"; text: string }
  | { kind: "prepend"; text: string }
  | { kind: "replace"; start: number; end: number; text: string }
  | { kind: "delete"; line: number; text: string };

/** A computed fix, with the result of checking it. */
export interface RobotsFix {
  /** The crawlers the fix lets read the home page. */
  tokens: string[];
  edits: RobotsEdit[];
  /** The whole file after the change. */
  patched: string;
  /** True when the check passed: only `tokens` changed verdict, and all of them are allowed. */
  verified: boolean;
  /** Crawlers (other than `tokens`) whose verdict the change would alter; empty when verified. */
  collateral: string[];
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
function patternMatches(pattern: string, path: string): boolean {
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

/** Applies edits to the file's text; line numbers refer to the original file. */
export function applyRobotsEdits(text: string, edits: RobotsEdit[]): string {
  const lines = robotsLines(text);
  const drop = new Set<number>();
  const replaceAt = new Map<number, string>();
  for (const e of edits) {
    if (e.kind === "delete") drop.add(e.line);
    if (e.kind === "replace") {
      for (let n = e.start; n <= e.end; n++) drop.add(n);
      replaceAt.set(e.start, e.text);
    }
  }
  const body: string[] = [];
  lines.forEach((l, i) => {
    const n = i + 1;
    if (replaceAt.has(n)) body.push(replaceAt.get(n)!);
    if (!drop.has(n)) body.push(l);
  });
  while (body.length && body[body.length - 1].trim() === "") body.pop();
  const before = edits.filter((e) => e.kind === "prepend").map((e) => e.text);
  const after = edits.filter((e) => e.kind === "append").map((e) => e.text);
  return [
    ...before.flatMap((t) => [t, ""]),
    ...body,
    ...after.flatMap((t) => ["", t]),
  ].join("\n") + "\n";
}

/** Checks a patched file: the named crawlers are allowed home, every other verdict is unchanged. */
export function checkRobotsChange(
  original: string,
  patched: string,
  origin: string,
  tokens: string[],
  maxPaths = SCAN_SAMPLE,
): { ok: boolean; collateral: string[]; stillBlocked: string[] } {
  // The fix only writes paths the file already has, so the original's sample covers it (and its
  // verdicts are computed once per scan).
  const paths = pathsToCheck([original], maxPaths);
  const before = robotsVerdicts(original, origin, paths);
  const after = robotsVerdicts(patched, origin, paths);
  const named = new Set(tokens.map((t) => t.toLowerCase()));
  const collateral = new Set<string>();
  for (const [key, v] of before) {
    const token = key.slice(0, key.indexOf(" "));
    if (!named.has(token.toLowerCase()) && after.get(key) !== v) collateral.add(token);
  }
  const stillBlocked = tokens.filter((t) => after.get(`${t} /`) !== true);
  return {
    ok: collateral.size === 0 && stillBlocked.length === 0,
    collateral: [...collateral],
    stillBlocked,
  };
}

const ruleText = (r: { allow: boolean; path: string }) =>
  `${r.allow ? "Allow" : "Disallow"}: ${r.path}`;

/** The rules a crawler reads now, without those that block the home page, then `Allow: /`. */
function rulesWithHomeOpen(rules: Rule[]): string[] {
  const kept = rules.filter((r) => r.allow || !patternMatches(r.path, "/")).map(ruleText);
  return [...new Set([...kept.filter((r) => r !== "Allow: /"), "Allow: /"])];
}

function groupText(tokens: string[], rules: string[], comment?: string): string {
  return [...(comment ? [`# ${comment}`] : []), ...tokens.map((t) => `User-agent: ${t}`), ...rules]
    .join("\n");
}

/** Groups the tokens that get the same rules into one group each. */
function bundle(byToken: Map<string, string[]>, comment: string): string[] {
  const byRules = new Map<string, string[]>();
  for (const [token, rules] of byToken) {
    const key = rules.join("\n");
    byRules.set(key, [...(byRules.get(key) ?? []), token]);
  }
  return [...byRules].map(([rules, tokens]) => groupText(tokens, rules.split("\n"), comment));
}

/**
 * Computes the change that lets `tokens` read the site, tries it on the file and returns it with
 * the verdict of the check. Returns null when none of the tokens is blocked now.
 *
 * @example
 * ```ts
 * const fix = robotsAllowFix("User-agent: *\nDisallow: /\n", "https://example.com/", ["OAI-SearchBot"]);
 * fix?.edits; // [{ kind: "append", text: "# ...\nUser-agent: OAI-SearchBot\nAllow: /" }]
 * ```
 */
export function robotsAllowFix(
  text: string,
  origin: string,
  tokens: string[],
  comment = "Let these crawlers read the site",
): RobotsFix | null {
  const home = robotsVerdicts(text, origin, ["/"]);
  const blocked = tokens.filter((t) => home.get(`${t} /`) === false);
  if (!blocked.length) return null;
  const groups = robotsGroups(text);
  const named = (t: string) =>
    groups.filter((g) => g.agents.some((a) => a.token.toLowerCase() === t.toLowerCase()));
  const wildcard = groups.filter((g) => g.agents.some((a) => a.token === "*"));

  // A crawler's own group, naming it alone, is corrected whole (its Disallow: / is nobody
  // else's); a crawler without a group gets a new one holding the `*` rules it reads today minus
  // those closing the home page; one named in a group shared with others gets `Allow: /` in a
  // group of its own, which RFC 9309 merges with the shared one for it alone.
  const lines = robotsLines(text);
  const replaces: RobotsEdit[] = [];
  const added = new Map<string, string[]>();
  const shared = new Map<string, RobotsGroup[]>();
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  for (const t of blocked) {
    const own = named(t);
    if (!own.length) {
      added.set(t, rulesWithHomeOpen(wildcard.flatMap((g) => g.rules)));
      continue;
    }
    for (const g of own) {
      if (g.agents.every((a) => same(a.token, t))) {
        if (!replaces.some((e) => e.kind === "replace" && e.start === g.start)) {
          replaces.push({
            kind: "replace",
            start: g.start,
            end: g.end,
            text: groupText(g.agents.map((a) => a.token), rulesWithHomeOpen(g.rules)),
          });
        }
      } else shared.set(t, [...(shared.get(t) ?? []), g]);
    }
    if (shared.has(t)) added.set(t, ["Allow: /"]);
  }
  const tried: RobotsFix[] = [];
  for (const kind of ["append", "prepend"] as const) {
    const adds = bundle(added, comment).map((text): RobotsEdit => ({ kind, text }));
    const fix = verify(text, origin, blocked, [...replaces, ...adds]);
    if (fix.verified) return fix;
    tried.push(fix);
  }
  // A shared group holding a Disallow longer than "/" that matches the home page (Disallow: /$,
  // Disallow: /*): the crawler leaves that group (its User-agent line goes) for a group of its own
  // with the same rules, minus those closing the home page.
  const deletes: RobotsEdit[] = [];
  for (const [t, groups] of shared) {
    for (const g of groups) {
      for (const a of g.agents) {
        if (same(a.token, t)) {
          deletes.push({ kind: "delete", line: a.line, text: lines[a.line - 1].trim() });
        }
      }
    }
    added.set(t, rulesWithHomeOpen(groups.flatMap((g) => g.rules)));
  }
  if (deletes.length) {
    const adds = bundle(added, comment).map((text): RobotsEdit => ({ kind: "append", text }));
    const fix = verify(text, origin, blocked, [...replaces, ...deletes, ...adds]);
    if (fix.verified) return fix;
  }
  return tried[0];
}

function lineOf(e: RobotsEdit): number {
  return e.kind === "delete" ? e.line : e.kind === "replace" ? e.start : 0;
}

function verify(text: string, origin: string, tokens: string[], edits: RobotsEdit[]): RobotsFix {
  const patched = applyRobotsEdits(text, edits);
  const lean = leanText(text, origin);
  const check = lean === text
    ? checkRobotsChange(text, patched, origin, tokens)
    : checkRobotsChange(lean, reduceForCheck(patched), origin, tokens);
  return { tokens, edits, patched, verified: check.ok, collateral: check.collateral };
}

/**
 * The fix as `how` text: each change as a short step with its lines in a code block, then what
 * the check found. An unverified fix offers no lines to paste, only the reason.
 */
export function robotsFixHow(fix: RobotsFix, robotsUrl: string): string {
  const names = fix.tokens.join(", ");
  if (!fix.verified) {
    return [
      `We could not compute a robots.txt change for ${robotsUrl} that lets ${names} in without changing what other crawlers may read${
        fix.collateral.length
          ? ` (it would also change ${fix.collateral.slice(0, 5).join(", ")})`
          : ""
      }.`,
      `Edit the groups that name ${names} (or the User-agent: * group they fall under) by hand, and check the result with a robots.txt tester for each crawler you care about.`,
    ].join("\n\n");
  }
  const steps: string[] = [];
  // Bottom of the file first, so the line numbers of the next steps stay right.
  const changes = fix.edits.filter((e) => e.kind === "delete" || e.kind === "replace")
    .sort((a, b) => lineOf(b) - lineOf(a));
  const adds = fix.edits.filter((e) => e.kind === "append" || e.kind === "prepend");
  for (const e of changes) {
    if (e.kind === "replace") {
      steps.push(
        `In ${robotsUrl}, replace lines ${e.start}-${e.end} (the group of ${
          e.text.match(/User-agent: .+/g)?.map((l) => l.slice(12)).join(", ")
        }) with this corrected group, whole:`,
        codeBlock(e.text),
      );
    } else if (e.kind === "delete") {
      steps.push(
        `In ${robotsUrl}, delete line ${e.line} ("${e.text}"): the group it was in stays in force for the other crawlers it names.`,
      );
    }
  }
  if (adds.length) {
    const where = adds[0].kind === "prepend" ? "at the top" : "at the end";
    steps.push(
      `${steps.length ? "Then add" : `Add`} ${
        adds.length > 1 ? "these groups" : "this group"
      } ${where} of ${robotsUrl}${steps.length ? "" : ", keeping every other line as it is"}:`,
      codeBlock(adds.map((e) => e.text).join("\n\n")),
    );
  }
  steps.push(
    `Checked on your current robots.txt with our parser: only ${names} ${
      fix.tokens.length > 1 ? "change" : "changes"
    } (to allowed); every other crawler we track keeps its verdict, training crawlers included.`,
  );
  return steps.join("\n\n");
}
