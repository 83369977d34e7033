/**
 * The property every fix builder must have (issue 42): apply a report's fix to the site it was
 * written for, exactly as its instructions say (tests/helpers/apply_fix.ts), scan again, and
 * - every check the fix names (`resolves`) passes, or at least no longer fails with nothing more
 *   asked of it (a fix that says it leaves part of a problem, such as an allowlist that stays an
 *   allowlist);
 * - no fix of the new report repeats it: none has its cause, and none ships a code block it
 *   shipped;
 * - a fix with nothing to apply (a CDN setting, more text to write) says what to check afterwards.
 * Run one fix at a time, then every fix at once (the walk-through of a new user who pastes them
 * all and scans again).
 */
import type { Issue, ScanRecord, Signal } from "../../lib/engines/visibility/record.ts";
import { type FixStep, readSteps } from "../../lib/engines/visibility/fix_steps.ts";
import { type Applied, applyHow } from "./apply_fix.ts";
import type { OverlaySite } from "./overlay_site.ts";

/** What the verification found, per fix: empty when every fix did what it names. */
export interface Verdicts {
  /** "<site> <fix title>: <what went wrong>". */
  problems: string[];
  /** Fixes applied and rescanned (one at a time, and all at once). */
  applied: number;
  /** Fixes with nothing to apply, that say what to check afterwards. */
  byHand: number;
}

function signalsOf(record: ScanRecord): Map<string, Signal> {
  return new Map(
    (record.result?.pillars ?? []).flatMap((p) => p.signals).map((s) => [s.id, s]),
  );
}

function causeOf(issue: Issue): string {
  return issue.fix.cause?.key ?? `signal:${issue.id}`;
}

/** A code block as an owner would see it repeated (spaces at line ends ignored). */
function normal(code: string): string {
  return code.replace(/[ \t]+$/gm, "").trim();
}

/**
 * Code with where it goes ("https://a.test/robots.txt <code>"): the same line for another page
 * (a byline the scan now asks of a page it had not sampled) is new work, not a repeat.
 */
function placed(steps: FixStep[]): string[] {
  return steps.flatMap((st) =>
    st.code.flatMap((c) => (st.urls.length ? st.urls : [""]).map((u) => `${u} ${normal(c)}`))
  );
}

/** Where each code block of the applied steps went (what was pasted). */
function pastedCode(applied: Applied): string[] {
  return placed(applied.applied);
}

/**
 * Fixes of one report that ship the same code (a fix never ships another fix's text): "<title>
 * and <title> both ship ...". Commands to check a result are left out: two checks may use one.
 */
export function sharedCode(record: ScanRecord): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const issue of record.result?.topIssues ?? []) {
    const own = new Set(
      readSteps(issue.fix.how).filter((s) => s.kind !== "check").flatMap((s) => s.code).map(normal),
    );
    for (const code of own) {
      const other = seen.get(code);
      if (other !== undefined) {
        out.push(`"${other}" and "${issue.title}" both ship: ${code.slice(0, 80)}`);
      } else seen.set(code, issue.title);
    }
  }
  return out;
}

/**
 * What is wrong with `issue` after it was applied and the site scanned again (`after`); `partly`:
 * some of it was left to the owner's hands, so only the repeat is judged.
 */
export function judgeFix(
  issue: Issue,
  before: ScanRecord,
  after: ScanRecord,
  partly: boolean,
  applied: readonly string[],
): string[] {
  const problems: string[] = [];
  if (after.status !== "ok" || !after.result) return ["the rescan failed"];
  const signals = signalsOf(after);
  const earlier = signalsOf(before);
  const sampledBefore = new Set(
    (earlier.get("discovery.site_sample")?.pages ?? []).map((p) => new URL(p.url).pathname),
  );
  const next = after.result.topIssues;
  const asked = new Set(next.flatMap((i) => (i.resolves ?? [{ id: i.id }]).map((r) => r.id)));
  if (!partly) {
    for (const r of issue.resolves ?? [{ id: issue.id, title: issue.title }]) {
      const s = signals.get(r.id);
      if (!s || s.status === "pass" || s.status === "na" || s.status === "info") continue;
      // A site check may now sample pages it had not read (a sitemap was published): its verdict
      // then rests on pages the fix was never written for, which is new work, not the fix
      // failing (a duplicate title of the home page and a newly sampled page, say).
      const was = new Set((earlier.get(r.id)?.evidence ?? []).map(pageOf));
      if (s.evidence.length && !s.evidence.some((e) => was.has(pageOf(e)))) continue;
      if (s.evidence.some((e) => e.startsWith("/") && !sampledBefore.has(pageOf(e)))) continue;
      if (s.status === "fail" || asked.has(r.id)) {
        problems.push(`${r.id} still ${s.status}: ${s.detail}`);
      }
    }
  }
  // What was pasted: code the owner is left to change by hand, or runs to check, may well be
  // asked again while that part is not done.
  const shipped = new Set(applied);
  const named = new Set((issue.resolves ?? [{ id: issue.id }]).map((r) => r.id));
  for (const n of next) {
    // The same change asked again for a check it named (the same cause may well come back for
    // pages the scan had not sampled before: that is new work, not a repeat).
    const again = (n.resolves ?? [{ id: n.id }]).some((r) => named.has(r.id));
    if (causeOf(n) === causeOf(issue) && again && !partly) {
      problems.push(`the new report asks again: "${n.title}"`);
    }
    const repeated = placed(readSteps(n.fix.how)).filter((b) => shipped.has(b));
    if (repeated.length) {
      problems.push(`"${n.title}" ships its code again: ${repeated[0].slice(0, 120)}`);
    }
  }
  return problems;
}

/** The page an evidence line names ("/about: none" and "/about" are the same page). */
function pageOf(evidence: string): string {
  return evidence.split(": ")[0];
}

/** A scan of the site as it is served now. */
export type Rescan = () => Promise<ScanRecord>;

/** Applies each fix of `before` alone, then all at once, rescanning after each. */
export async function verifyFixes(
  name: string,
  site: OverlaySite,
  before: ScanRecord,
  scan: Rescan,
): Promise<Verdicts> {
  const out: Verdicts = { problems: [], applied: 0, byHand: 0 };
  const issues = before.result?.topIssues ?? [];
  for (const p of sharedCode(before)) out.problems.push(`${name}: ${p}`);
  const appliedOnce = new Map<Issue, Applied>();
  for (const issue of issues) {
    site.reset();
    let applied: Applied;
    try {
      applied = await applyHow(site, issue.fix.how);
    } catch (e) {
      out.problems.push(`${name} "${issue.title}": ${(e as Error).message}`);
      continue;
    }
    appliedOnce.set(issue, applied);
    if (!applied.applied.length) {
      if (applied.checks.length) out.byHand++;
      else out.problems.push(`${name} "${issue.title}": nothing to apply, and no check afterwards`);
      continue;
    }
    const after = await scan();
    out.applied++;
    const partly = applied.byHand.length > 0;
    for (const p of judgeFix(issue, before, after, partly, pastedCode(applied))) {
      out.problems.push(`${name} "${issue.title}": ${p}`);
    }
  }
  // Every fix at once, as a new user pastes them all.
  site.reset();
  const pasted: Issue[] = [];
  for (const issue of issues) {
    const once = appliedOnce.get(issue);
    if (!once?.applied.length) continue;
    await applyHow(site, issue.fix.how);
    pasted.push(issue);
  }
  if (pasted.length) {
    const after = await scan();
    for (const issue of pasted) {
      const once = appliedOnce.get(issue)!;
      const partly = once.byHand.length > 0;
      for (const p of judgeFix(issue, before, after, partly, pastedCode(once))) {
        out.problems.push(`${name} (every fix pasted) "${issue.title}": ${p}`);
      }
    }
  }
  site.reset();
  return out;
}
