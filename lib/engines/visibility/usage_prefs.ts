/**
 * AI usage preferences a site declares, per purpose (search, AI input, training), read from:
 * - Cloudflare's `Content-Signal` lines in robots.txt (`search`, `ai-input`, `ai-train` = yes or
 *   no; standards.ts `contentSignals`), per group, with an optional leading path read as a scope;
 *   the `use` key (the most a crawler may use the content for: `reference`, then `full`;
 *   standards.ts `contentSignalsUse`) is read as a level, any other value shown as written;
 * - the IETF AI-preferences `Content-Usage` rule in robots.txt (a path, then `train-ai`,
 *   `ai-use`, `search` = y or n; draft-ietf-aipref-attach-05 and -vocab-08), per group, the
 *   longest matching path applying;
 * - the `Content-Usage` and `Content-Signal` response headers of the home page.
 * What a crawler is told is the most restrictive of what applies to it (vocab-08, combining
 * preferences). Declared preferences are the owner's choice: they never cost points; only their
 * contradictions with robots.txt's own Allow/Disallow verdicts are pointed out.
 */
import { type CrawlerRole, CRAWLERS } from "./crawlers.ts";
import {
  groupsFor,
  type ParsedRobotsTxt,
  patternMatches,
  type RobotsAnalysis,
  type RobotsPreferenceLine,
} from "./robots.ts";

/** The purposes a site can state a preference for. */
export type UsagePurpose = "search" | "ai_input" | "training";

/** The purposes in report order, with their plain names. */
export const PURPOSES: readonly { id: UsagePurpose; name: string }[] = [
  { id: "search", name: "search (links and short excerpts)" },
  { id: "ai_input", name: "AI input (answers grounded on the page)" },
  { id: "training", name: "AI training" },
];

/** One stated preference. */
export interface Declaration {
  purpose: UsagePurpose;
  allowed: boolean;
  /** How it was written: `Content-Signal` or `Content-Usage`, line or header, and the key. */
  source: string;
  /** The group it sits in (lower-cased product tokens; "" for a line outside any group), or "header". */
  scope: string;
  /** The path it applies under ("/" for the whole site). */
  path: string;
}

/** Keys of each vocabulary, by purpose. */
const CONTENT_SIGNAL: Record<string, UsagePurpose> = {
  search: "search",
  "ai-input": "ai_input",
  "ai-train": "training",
};
const CONTENT_USAGE: Record<string, UsagePurpose> = {
  search: "search",
  "ai-use": "ai_input",
  "train-ai": "training",
};

/** The levels of Content Signals' `use` key, least permissive first (Cloudflare, 2026-08-31). */
export const USE_LEVELS = ["reference", "full"] as const;
/** A level of the `use` key. */
export type UseLevel = (typeof USE_LEVELS)[number];

/** A Content-Signal value: `search=yes, ai-train=no` (lenient: spaces and case are tolerated). */
function readContentSignal(
  value: string,
): { prefs: [UsagePurpose, boolean][]; other: string[]; use: UseLevel[] } {
  const prefs: [UsagePurpose, boolean][] = [];
  const other: string[] = [];
  const use: UseLevel[] = [];
  for (const part of value.split(",")) {
    const [rawKey, rawValue = ""] = part.split("=", 2);
    const key = rawKey.trim().toLowerCase();
    const v = rawValue.trim().toLowerCase();
    if (!key) continue;
    const purpose = CONTENT_SIGNAL[key];
    if (purpose && (v === "yes" || v === "no")) prefs.push([purpose, v === "yes"]);
    else if (key === "use" && (USE_LEVELS as readonly string[]).includes(v)) {
      use.push(v as UseLevel);
    } else other.push(`${key}=${rawValue.trim()}`);
  }
  return { prefs, other, use };
}

/**
 * A Content-Usage value, read as vocab-08's exemplary format: a structured-field dictionary whose
 * keys are lower-case; `y` allows, `n` disallows, anything else is unknown; the last value of a
 * repeated key applies; unknown keys and parameters are ignored. A dictionary that does not parse
 * (an upper-case key, say) states nothing.
 */
function readContentUsage(value: string): { prefs: [UsagePurpose, boolean][]; other: string[] } {
  const found = new Map<string, string>();
  const other: string[] = [];
  for (const part of value.split(",")) {
    const member = part.trim();
    if (!member) continue;
    const m = member.match(/^([a-z*][a-z0-9_.*-]*)(?:=([^;]*))?(;.*)?$/);
    if (!m) return { prefs: [], other: [`unreadable: ${value.trim()}`] };
    found.set(m[1], (m[2] ?? "?1").trim());
  }
  const prefs: [UsagePurpose, boolean][] = [];
  for (const [key, v] of found) {
    const purpose = CONTENT_USAGE[key];
    if (purpose && (v === "y" || v === "n")) prefs.push([purpose, v === "y"]);
    else other.push(`${key}=${v}`);
  }
  return { prefs, other };
}

/** What a site declares: every statement, and what was written but is not a preference we know. */
export interface UsagePreferences {
  declarations: Declaration[];
  /**
   * The Content Signals `use` levels stated (the most a crawler may use content for), each with
   * where it was written and the group it sits in.
   */
  use: { level: UseLevel; source: string; scope: string; path: string }[];
  /** Keys and values outside the vocabularies (Content-Signal `use=reference`, unknown keys). */
  other: string[];
}

/** The most declarations kept (a hostile file may hold thousands of lines). */
const MAX_DECLARATIONS = 200;

/** Splits a robots.txt preference line into its path (when it starts with one) and its value. */
function scoped(line: RobotsPreferenceLine): { path: string; value: string } {
  const m = line.value.match(/^(\/\S*)\s+([^]*)$/);
  if (m) return { path: m[1], value: m[2] };
  // Content-Usage requires a path (attach-05); earlier drafts and some files write none: the
  // whole site, as the draft's own example `/ train-ai=n` says.
  return { path: "/", value: line.value };
}

/** Reads every preference a site states in robots.txt and in the home page's headers. */
export function readUsagePreferences(
  parsed: ParsedRobotsTxt | null,
  headers: Record<string, string>,
): UsagePreferences {
  const declarations: Declaration[] = [];
  const use: UsagePreferences["use"] = [];
  const other = new Set<string>();
  const add = (
    read: { prefs: [UsagePurpose, boolean][]; other: string[]; use?: UseLevel[] },
    base: Omit<Declaration, "purpose" | "allowed">,
  ) => {
    for (const o of read.other) other.add(`${base.source}: ${o}`);
    for (const level of read.use ?? []) {
      if (use.length < MAX_DECLARATIONS) use.push({ level, ...base });
    }
    for (const [purpose, allowed] of read.prefs) {
      if (declarations.length < MAX_DECLARATIONS) {
        declarations.push({ ...base, purpose, allowed });
      }
    }
  };
  if (parsed) {
    for (const d of robotsDeclarations(parsed, MAX_DECLARATIONS)) {
      if (declarations.length < MAX_DECLARATIONS) declarations.push(d);
    }
    for (const u of robotsUse(parsed, MAX_DECLARATIONS)) use.push(u);
    for (const o of robotsOther(parsed, 20)) other.add(o);
  }
  if (headers["content-usage"]) {
    add(readContentUsage(headers["content-usage"]), {
      source: "Content-Usage header",
      scope: "header",
      path: "/",
    });
  }
  if (headers["content-signal"]) {
    add(readContentSignal(headers["content-signal"]), {
      source: "Content-Signal header",
      scope: "header",
      path: "/",
    });
  }
  return { declarations, use, other: [...other].slice(0, 20) };
}

/** One preference line read once: its scope path and what it says. */
interface ReadLine {
  line: RobotsPreferenceLine;
  path: string;
  label: string;
  prefs: [UsagePurpose, boolean][];
  other: string[];
  /** The Content Signals `use` levels the line states (none for Content-Usage). */
  use: UseLevel[];
}

function readLine(line: RobotsPreferenceLine): ReadLine {
  const { path, value } = scoped(line);
  const read = line.key === "content-signal"
    ? readContentSignal(value)
    : { ...readContentUsage(value), use: [] };
  const label = line.key === "content-signal" ? "Content-Signal" : "Content-Usage";
  return { line, path, label, ...read };
}

/**
 * The (scope, line) pairs of robots.txt's preference lines in the order a merged map per token
 * gives them: tokens by the first line that applies to each ("" for lines outside any group),
 * each token's lines in file order. Each line is read once, and only lines passing `keep` are
 * visited: the pairs are tokens x lines, so callers stop after the first few they need.
 */
function* preferencePairs(
  parsed: ParsedRobotsTxt,
  keep: (r: ReadLine) => boolean,
): Generator<{ scope: string; read: ReadLine }> {
  // Per group: its kept lines, each with how many of the group's tokens it applies to (that
  // count never falls along a group, so a token's lines are a suffix and "" 's a prefix).
  const kept = parsed.parts.map((part) =>
    part.preferences.map((p) => ({ read: readLine(p.line), tokens: p.tokens }))
      .filter((p) => keep(p.read))
  );
  const scopes: string[] = [];
  const known = new Set<string>();
  const add = (scope: string) => {
    if (known.has(scope)) return;
    known.add(scope);
    scopes.push(scope);
  };
  for (const part of parsed.parts) {
    let counted = 0;
    for (const { tokens } of part.preferences) {
      if (!tokens) add("");
      for (; counted < tokens; counted++) add(part.tokens[counted]);
    }
  }
  for (const scope of scopes) {
    if (scope === "") {
      for (const lines of kept) {
        for (let k = 0; k < lines.length && lines[k].tokens === 0; k++) {
          yield { scope, read: lines[k].read };
        }
      }
      continue;
    }
    for (const g of parsed.tokenParts.get(scope) ?? []) {
      const lines = kept[g];
      const index = positionIn(parsed, g, scope);
      let lo = 0, hi = lines.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lines[mid].tokens > index) hi = mid;
        else lo = mid + 1;
      }
      for (let k = lo; k < lines.length; k++) yield { scope, read: lines[k].read };
    }
  }
}

/** Where each group lists each token, computed once per parsed file. */
const positions = new WeakMap<ParsedRobotsTxt, Map<string, number>[]>();

function positionIn(parsed: ParsedRobotsTxt, group: number, token: string): number {
  let all = positions.get(parsed);
  if (!all) {
    all = parsed.parts.map((p) => new Map(p.tokens.map((t, i) => [t, i])));
    positions.set(parsed, all);
  }
  return all[group].get(token) ?? -1;
}

/** The first `max` statements of robots.txt's preference lines, one per scope, line and purpose. */
function robotsDeclarations(parsed: ParsedRobotsTxt, max: number): Declaration[] {
  const out: Declaration[] = [];
  for (const { scope, read } of preferencePairs(parsed, (r) => r.prefs.length > 0)) {
    for (const [purpose, allowed] of read.prefs) {
      if (out.length >= max) return out;
      out.push({
        source: `robots.txt line ${read.line.line} (${read.label})`,
        scope,
        path: read.path,
        purpose,
        allowed,
      });
    }
  }
  return out;
}

/** The first `max` `use` levels of robots.txt's preference lines, one per scope and line. */
function robotsUse(parsed: ParsedRobotsTxt, max: number): UsagePreferences["use"] {
  const out: UsagePreferences["use"] = [];
  for (const { scope, read } of preferencePairs(parsed, (r) => r.use.length > 0)) {
    for (const level of read.use) {
      if (out.length >= max) return out;
      out.push({
        level,
        source: `robots.txt line ${read.line.line} (${read.label})`,
        scope,
        path: read.path,
      });
    }
  }
  return out;
}

/** The first `max` keys and values outside the vocabularies, each line's reported once. */
function robotsOther(parsed: ParsedRobotsTxt, max: number): string[] {
  const out = new Set<string>();
  const seen = new Set<number>();
  for (const { read } of preferencePairs(parsed, (r) => r.other.length > 0)) {
    if (seen.has(read.line.line)) continue;
    seen.add(read.line.line);
    for (const o of read.other) {
      out.add(`robots.txt line ${read.line.line} (${read.label}): ${o}`);
      if (out.size >= max) return [...out];
    }
  }
  return [...out];
}

/**
 * The robots.txt group a crawler reads its preference lines from: its own token's lines, else
 * (Applebot) Googlebot's, else the `*` group's, as robots.txt groups are chosen (RFC 9309).
 */
function groupFor(parsed: ParsedRobotsTxt | null, token: string): string | null {
  return parsed ? groupsFor(parsed, token).key : null;
}

/** What one crawler is told for one purpose on one path: allowed, disallowed or nothing (null). */
export function preferenceFor(
  prefs: UsagePreferences,
  parsed: ParsedRobotsTxt | null,
  token: string,
  purpose: UsagePurpose,
  path = "/",
): { allowed: boolean | null; by: Declaration[] } {
  const group = groupFor(parsed, token);
  const applicable = prefs.declarations.filter((d) =>
    d.purpose === purpose && (d.scope === "header" || d.scope === group || d.scope === "") &&
    patternMatches(d.path, path)
  );
  // Content-Usage: the longest matching path applies; Content-Signal lines, unscoped or scoped,
  // all apply where they match. Then the most restrictive statement wins.
  const usage = applicable.filter((d) =>
    d.source.includes("Content-Usage") && d.scope !== "header"
  );
  const longest = Math.max(-1, ...usage.map((d) => d.path.length));
  const by = applicable.filter((d) =>
    !(d.source.includes("Content-Usage") && d.scope !== "header") || d.path.length === longest
  );
  if (!by.length) return { allowed: null, by };
  const denied = by.filter((d) => !d.allowed);
  return { allowed: denied.length === 0, by: denied.length ? denied : by };
}

/** The purpose a crawler's work falls under, for contradictions (search crawlers feed search). */
export function purposeOfRole(role: CrawlerRole): UsagePurpose | null {
  return role === "training"
    ? "training"
    : role === "search"
    ? "search"
    : role === "user"
    ? "ai_input"
    : null;
}

/**
 * Where a stated preference and robots.txt's own verdict for the home page disagree: a purpose
 * declared "no" while robots.txt lets that purpose's crawlers in, or "yes" while it keeps them
 * out. Informational: either may be the owner's intent.
 */
export function contradictions(
  prefs: UsagePreferences,
  parsed: ParsedRobotsTxt | null,
  robots: RobotsAnalysis,
): string[] {
  const out: string[] = [];
  for (const { id, name } of PURPOSES) {
    const says = new Map<boolean, string[]>([[true, []], [false, []]]);
    for (const c of robots.crawlers) {
      const crawler = CRAWLERS.find((x) => x.token === c.token);
      if (!crawler || purposeOfRole(crawler.role) !== id) continue;
      const pref = preferenceFor(prefs, parsed, c.token, id).allowed;
      if (pref === null || pref === c.allowed) continue;
      says.get(pref)!.push(c.token);
    }
    const no = says.get(false)!;
    const yes = says.get(true)!;
    if (no.length) {
      out.push(
        `${name} is declared "no" for ${list(no)}, yet robots.txt lets ${
          no.length > 1 ? "them" : "it"
        } read the home page`,
      );
    }
    if (yes.length) {
      out.push(
        `${name} is declared "yes" for ${list(yes)}, yet robots.txt keeps ${
          yes.length > 1 ? "them" : "it"
        } out of the home page`,
      );
    }
  }
  return out;
}

function list(tokens: string[]): string {
  return tokens.length > 4
    ? `${tokens.slice(0, 4).join(", ")} and ${tokens.length - 4} more`
    : tokens.join(", ");
}
