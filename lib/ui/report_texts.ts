/**
 * The words of the AI visibility report: what grades, pillars, statuses, impacts and efforts mean
 * in plain language. Shared by the report's components and the home page.
 */
import type { Issue, Signal } from "../visibility/record.ts";
import { gradeFor } from "../visibility/score.ts";

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

/** A signal's status in words. */
export const STATUS_TEXT: Record<Signal["status"], string> = {
  pass: "Passed",
  warn: "Needs work",
  fail: "Failed",
  info: "For information",
  na: "Does not apply",
  unknown: "Could not check",
};

/** An issue's impact in words (the order the issues are listed in). */
export const IMPACT_TEXT: Record<Issue["impact"], string> = {
  critical: "Critical",
  high: "High impact",
  medium: "Medium impact",
  low: "Low impact",
};

/** A fix's effort in words. */
export const EFFORT_TEXT: Record<Issue["fix"]["effort"], string> = {
  S: "Quick fix: minutes",
  M: "Some work: an hour or so",
  L: "Bigger job: a day or more",
};

/** The grade letter a 0-100 score would get (for colouring pillar scores). */
export function gradeOf(score: number): string {
  return gradeFor(score).grade;
}

/** Rounds to one decimal place, as text. */
export function round1(n: number): string {
  return String(Math.round(n * 10) / 10);
}
