/**
 * The words of the AI visibility report: what grades, pillars, statuses, impacts, efforts, caps
 * and a fix's worth mean in plain language. Shared by the report's components, the home page and
 * the exports (Markdown, HTML), so a download reads like the page.
 */
import type { Issue, Result, Signal } from "./record.ts";
import { capOf, gradeFor, worthOf } from "./score.ts";
import { gateText } from "./learn.ts";
import { accessRows, accessSentence, productsOf } from "./access_model.ts";

/** What each grade means, for someone who has never heard of robots.txt. */
export const GRADE_MEANING: Record<string, string> = {
  A: "AI search engines and assistants can find, read and understand this site, and are likely to cite it. Keep it that way.",
  B: "AI systems can find and read this site. A few gaps make it less likely to be quoted or recommended.",
  C: "AI systems can reach this site but miss a lot of it. The fixes below are the quickest ways to be understood and cited.",
  D: "Many of the signals AI systems rely on are missing, so assistants are less likely to understand or cite this site.",
  F: "Most of the signals AI systems rely on are missing or blocked, so AI assistants are unlikely to find or cite this site.",
};

/** Plain-language purpose of each pillar. */
export const PILLAR_PURPOSE: Record<string, string> = {
  access:
    "Can AI crawlers get in? robots.txt and page directives decide whether ChatGPT, Perplexity, Claude and Google may read the site.",
  content:
    "Can they read it? The text must be in the page the server sends, with clear headings and structure.",
  structured:
    "Do they understand what it is? Structured data (JSON-LD) tells machines who you are and what each page is about.",
  discovery:
    "Can they find everything? llms.txt and the sitemap point AI systems to your important pages.",
  trust:
    "Do they trust it? Clear ownership, About and Contact pages, authors and dates, and a presence on Wikidata and Wikipedia.",
  technical:
    "Are the basics right? HTTPS, a quick answer, a title, a description and a canonical address.",
};

/** The grade's one word ("Weak"), shown beside the grade; the sentence below says the rest. */
export function gradeWord(score: number): string {
  const label = gradeFor(score).label;
  const colon = label.indexOf(":");
  return colon > 0 ? label.slice(0, colon) : label;
}

/** A signal's status in words. */
export const STATUS_TEXT: Record<Signal["status"], string> = {
  pass: "Passed",
  warn: "Needs work",
  fail: "Failed",
  info: "For information",
  na: "Does not apply",
  unknown: "Could not check",
};

/** An issue's impact in words (one value in every view: lib/engines/visibility/severity.ts). */
export { IMPACT_TEXT } from "./severity.ts";

/** A fix's effort in words. */
export const EFFORT_TEXT: Record<Issue["fix"]["effort"], string> = {
  S: "Quick fix: minutes",
  M: "Some work: an hour or so",
  L: "Bigger job: a day or more",
};

/** "1 point", "6.5 points". */
export function pointsText(n: number): string {
  const r = Math.round(n * 10) / 10;
  return `${r} point${r === 1 ? "" : "s"}`;
}

/**
 * What a fix is worth, in words, from the score recomputed with its checks fixed (the issue's
 * `worth`, or computed for records made before it was stored): "+6.2 points"; under a cap it does
 * not lift, "+6.2 points once the cap is lifted" (the cap lifts first); for the fix that lifts the
 * cap, "Lifts the cap: 35 → 58".
 */
export function worthText(issue: Issue, result: Pick<Result, "pillars" | "score">): string {
  const w = issue.worth ??
    worthOf(result.pillars, (issue.resolves ?? [{ id: issue.id }]).map((r) => ({ id: r.id })));
  const score = Math.round(result.score);
  if (w.lifts.length) {
    return w.score > score ? `Lifts the cap: ${score} → ${w.score}` : "Lifts a cap";
  }
  const cap = capOf(result);
  const plus = `+${pointsText(w.points)}`;
  return cap?.binding && w.score <= score ? `${plus} once the cap is lifted` : plus;
}

/**
 * What the report says of the cap's figure, one sentence everywhere it is spoken of (the report's
 * cap notice, the exports, MCP), from the same value as the badge of the fix that lifts it ("Lifts
 * the cap: 40 → 51", {@link worthText}): the score once that fix is done. Without a fix that
 * lifts it, the score the other checks would give without the cap. Null when no cap binds.
 */
export function capLiftText(
  result: Pick<Result, "pillars" | "score" | "topIssues">,
): string | null {
  const cap = capOf(result);
  if (!cap?.binding) return null;
  const score = Math.round(result.score);
  const worth = (i: Issue) =>
    i.worth ?? worthOf(result.pillars, (i.resolves ?? [{ id: i.id }]).map((r) => ({ id: r.id })));
  const lifting = result.topIssues.find((i) => worth(i).lifts.includes(cap.gateId));
  const first = "Fix this first: everything else counts only once it is fixed.";
  if (lifting) {
    const to = worth(lifting).score;
    return to > score
      ? `${first} Its fix takes the score from ${score} to ${to} (grade ${gradeFor(to).grade}).`
      : `${first} Another cap still holds the score once it is lifted.`;
  }
  return `${first} Without the cap, the site would score ${cap.uncapped} (grade ${
    gradeFor(cap.uncapped).grade
  }).`;
}

/** The grade letter a 0-100 score would get (for colouring pillar scores). */
export function gradeOf(score: number): string {
  return gradeFor(score).grade;
}

/** Rounds to one decimal place, as text. */
export function round1(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/**
 * The line under the score: why the score is what it is, from its top causes, never the grade's
 * generic words when the record says more. The AI products that cannot read the site and why
 * (the one model of access, lib/engines/visibility/access_model.ts), else what caps the score,
 * else where the most points are; the grade's meaning only for a record with nothing to say (or
 * made before crawler verdicts were kept).
 */
export function scoreReason(result: Pick<Result, "pillars" | "topIssues" | "grade">): string {
  const rows = accessRows(result);
  const access = rows ? accessSentence(productsOf(rows)) : null;
  if (access) return access;
  const cap = capOf(result);
  const reach = rows ? "Every AI product we check may fetch the site" : null;
  if (cap?.binding) {
    return `${reach ? `${reach}, but the` : "The"} score is capped at ${cap.cap} because ${
      gateText(cap.gateId)?.name ?? cap.gateId.replace(/_/g, " ")
    }.`;
  }
  const top = result.topIssues[0];
  if (reach && top) return `${reach}; the most points are in "${top.title}".`;
  return GRADE_MEANING[result.grade] ?? "";
}
