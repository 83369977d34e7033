/**
 * robots.txt fixes computed on the site's real file and checked before they are offered.
 *
 * A fix lets named crawlers read the home page. It is built the RFC 9309 way: a crawler obeys the
 * group(s) naming it (merged), else the `*` group; within them the longest matching rule wins and
 * an Allow wins a tie. So the safest change is to add a group for the crawlers the fix names
 * (nobody else reads it), and to edit existing lines only when adding cannot work (a longer
 * Disallow in the crawler's own group), then giving the corrected group whole.
 *
 * Every candidate is applied to the real file, whole, and evaluated with the project's own matcher
 * (robots.ts, via robots_groups.ts: each file parsed once) for every crawler we know, on the home
 * page, on up to 100 paths the file's rules mention and on the real paths of the pages the scan
 * sampled: it is offered only when the named crawlers become allowed and every other crawler keeps
 * its exact verdict everywhere (training opt-outs included).
 */
import { codeBlock } from "./fix_text.ts";
import { patternMatches } from "./robots.ts";
import {
  pathsToCheck,
  type RobotsGroup,
  robotsGroups,
  robotsLines,
  robotsVerdicts,
  type Rule,
} from "./robots_groups.ts";

export {
  outcomeOf,
  pathsToCheck,
  type RobotsGroup,
  robotsGroups,
  robotsLines,
  robotsVerdicts,
} from "./robots_groups.ts";

/** One change to the file. */
export type RobotsEdit =
  | { kind: "append"; text: string }
  | { kind: "prepend"; text: string }
  | { kind: "replace"; start: number; end: number; text: string }
  | { kind: "delete"; line: number; text: string };

/** A computed fix, with the result of checking it. */
export interface RobotsFix {
  /** The crawlers the fix lets read the home page (and `paths`). */
  tokens: string[];
  /** The paths they may read after it: the home page, and the pages they were kept from. */
  paths: string[];
  edits: RobotsEdit[];
  /** The whole file after the change. */
  patched: string;
  /** True when the check passed: only `tokens` changed verdict, and all of them are allowed. */
  verified: boolean;
  /** Crawlers (other than `tokens`) whose verdict the change would alter; empty when verified. */
  collateral: string[];
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

/**
 * Checks a patched file: the named crawlers are allowed on the home page and on `targets`, every
 * other crawler's verdict is unchanged on the file's own paths (up to `maxPaths`), on
 * `extraPaths` (the pages the scan sampled) and on `targets`.
 */
export function checkRobotsChange(
  original: string,
  patched: string,
  origin: string,
  tokens: string[],
  extraPaths: readonly string[] = [],
  maxPaths = 100,
  targets: readonly string[] = ["/"],
): { ok: boolean; collateral: string[]; stillBlocked: string[] } {
  // The fix only writes paths the file already has, so the original's sample covers it (and its
  // verdicts are computed once per scan); the sampled pages are the paths the site really has,
  // with the paths the fix must open.
  const paths = [
    ...new Set([...pathsToCheck([original], maxPaths), ...extraPaths, ...targets]),
  ];
  const before = robotsVerdicts(original, origin, paths);
  const after = robotsVerdicts(patched, origin, paths);
  const named = new Set(tokens.map((t) => t.toLowerCase()));
  const collateral = new Set<string>();
  for (const [key, v] of before) {
    const token = key.slice(0, key.indexOf(" "));
    if (!named.has(token.toLowerCase()) && after.get(key) !== v) collateral.add(token);
  }
  const stillBlocked = tokens.filter((t) =>
    ["/", ...targets].some((p) => after.get(`${t} ${p}`) !== true)
  );
  return {
    ok: collateral.size === 0 && stillBlocked.length === 0,
    collateral: [...collateral],
    stillBlocked,
  };
}

/**
 * Whether a rule's pattern matches a path, by the one matcher of robots.ts (linear in pattern and
 * path, no RegExp built from the file); an empty pattern matches nothing (RFC 9309 2.2.2).
 */
const ruleMatches = (r: Rule, path: string) => r.path !== "" && patternMatches(r.path, path);

const ruleText = (r: { allow: boolean; path: string }) =>
  `${r.allow ? "Allow" : "Disallow"}: ${r.path}`;

/**
 * The rules a crawler reads now, without those that block the home page or one of `targets`,
 * then `Allow: /`.
 */
function rulesOpening(rules: Rule[], targets: string[]): string[] {
  const kept = rules.filter((r) => r.allow || !targets.some((t) => ruleMatches(r, t)))
    .map(ruleText);
  return [...new Set([...kept.filter((r) => r !== "Allow: /"), "Allow: /"])];
}

/**
 * What a crawler's own group adds to a group it shares with others (RFC 9309 merges them for it
 * alone): `Allow: /`, and for each Disallow there that keeps it from a page beyond the home page
 * an Allow matching the same paths with one octet more (a trailing `*`), so the longest match is
 * the Allow without relying on a tie.
 */
function allowsOver(rules: Rule[], targets: string[]): string[] {
  const pages = targets.filter((t) => t !== "/");
  const over = rules.filter((r) => !r.allow && pages.some((t) => ruleMatches(r, t)))
    .map((r) => `Allow: ${r.path.endsWith("$") ? r.path : `${r.path}*`}`);
  return [...new Set(["Allow: /", ...over])];
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
  /** Paths beyond the home page they must be able to read (pages of the site they are kept from). */
  paths: string[] = [],
  /** The sampled pages' paths: no other crawler's verdict may change there either. */
  extraPaths: readonly string[] = [],
): RobotsFix | null {
  const targets = [...new Set(["/", ...paths])];
  const now = robotsVerdicts(text, origin, targets);
  const blocked = tokens.filter((t) => targets.some((p) => now.get(`${t} ${p}`) === false));
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
      added.set(t, rulesOpening(wildcard.flatMap((g) => g.rules), targets));
      continue;
    }
    for (const g of own) {
      if (g.agents.every((a) => same(a.token, t))) {
        if (!replaces.some((e) => e.kind === "replace" && e.start === g.start)) {
          replaces.push({
            kind: "replace",
            start: g.start,
            end: g.end,
            text: groupText(g.agents.map((a) => a.token), rulesOpening(g.rules, targets)),
          });
        }
      } else shared.set(t, [...(shared.get(t) ?? []), g]);
    }
    if (shared.has(t)) added.set(t, allowsOver(shared.get(t)!.flatMap((g) => g.rules), targets));
  }
  const tried: RobotsFix[] = [];
  for (const kind of ["append", "prepend"] as const) {
    const adds = bundle(added, comment).map((text): RobotsEdit => ({ kind, text }));
    const fix = verify(text, origin, blocked, [...replaces, ...adds], targets, extraPaths);
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
    added.set(t, rulesOpening(groups.flatMap((g) => g.rules), targets));
  }
  if (deletes.length) {
    const adds = bundle(added, comment).map((text): RobotsEdit => ({ kind: "append", text }));
    const fix = verify(
      text,
      origin,
      blocked,
      [...replaces, ...deletes, ...adds],
      targets,
      extraPaths,
    );
    if (fix.verified) return fix;
  }
  return tried[0];
}

function lineOf(e: RobotsEdit): number {
  return e.kind === "delete" ? e.line : e.kind === "replace" ? e.start : 0;
}

function verify(
  text: string,
  origin: string,
  tokens: string[],
  edits: RobotsEdit[],
  targets: string[],
  extraPaths: readonly string[],
): RobotsFix {
  const patched = applyRobotsEdits(text, edits);
  const check = checkRobotsChange(text, patched, origin, tokens, extraPaths, 100, targets);
  const paths = targets;
  return { tokens, paths, edits, patched, verified: check.ok, collateral: check.collateral };
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
  const more = fix.paths.length - 1;
  steps.push(
    `Checked on your current robots.txt with our parser: only ${names} ${
      fix.tokens.length > 1 ? "change" : "changes"
    } (to allowed${
      more > 0
        ? `, on the home page and the ${more} sampled page${more > 1 ? "s" : ""} named above`
        : ""
    }); every other crawler we track keeps its verdict, training crawlers included.`,
  );
  return steps.join("\n\n");
}
