/**
 * Names in bylines: "By Lucy Akins" is Lucy Akins, "Ann Poe, Bo Li" and "Ann Poe and Bo Li" are
 * two people, "Poe, Ann" is one. The page facts and the generator read authors through these.
 */

import { charsOf, trimBoth } from "../../kit/text/trim.ts";

/** The most names one byline gives. */
const MAX_AUTHORS = 20;

/** Words that introduce a byline rather than belong to the name, in a few languages. */
const PREFIX =
  /^(?:(?:written|posted|words|story|text|reporting|photos?|published)\s+by|by|par|por|door|av|przez|autor(?:in)?:|author:)\s+/i;

/** Punctuation a byline's name may start with, and (with "," and ";") end with. */
const LEADING = charsOf("|·•—–-", true);
const TRAILING = charsOf("|·•—–,;-", true);

/** A name without its byline prefix and surrounding punctuation ("By Lucy Akins" -> "Lucy Akins"). */
export function cleanAuthorName(raw: string): string {
  // Trimmed by a scan from each end: `[...]+$` retried from every character of a long run.
  let t = trimBoth(raw.replace(/\s+/g, " ").trim(), LEADING, TRAILING);
  for (let i = 0; i < 2 && PREFIX.test(t); i++) t = t.replace(PREFIX, "").trim();
  return t;
}

/**
 * The people a byline names: split on ";", " and ", " & ", " und ", " et ", " y " and on commas
 * when every part is a name of its own (two words or more), so "Poe, Ann" stays one person.
 * Prefixes are stripped, duplicates dropped, at most 20 names.
 */
export function splitAuthors(raw: string): string[] {
  const cleaned = cleanAuthorName(raw);
  if (!cleaned) return [];
  // `cleaned` has single spaces only, so " ?" stands for `\s*` and " " for `\s+`: no run of
  // spaces for the split to retry from each of its characters.
  const parts = cleaned.split(/ ?; ?| (?:and|&|und|et|y|e|en|og|och) /i).flatMap((p) => {
    const commas = p.split(",").map((x) => x.trim()).filter(Boolean);
    return commas.length > 1 && commas.every((x) => x.split(" ").length >= 2) ? commas : [p];
  });
  const out: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    const p = cleanAuthorName(part);
    if (!p || p.length > 100 || seen.has(p.toLowerCase())) continue;
    seen.add(p.toLowerCase());
    out.push(p);
    if (out.length === MAX_AUTHORS) break;
  }
  return out;
}
