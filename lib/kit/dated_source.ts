/**
 * A dated source: a page of a vendor's or a standard's own documentation that something we say
 * rests on, and the day it was last read to confirm it. Every registry spells it this way (a
 * signal's learn sources, the crawlers, the formats we read, Google's features, the log formats and
 * verification rules, answer presence's vendor docs), and {@link datedSourceProblems} is the one
 * check their tests run, so an entry without a source or a date fails wherever it is added.
 */

/** A page and the day it was last read. */
export interface DatedSource {
  /** The page (https). */
  url: string;
  /** The day it was last read to confirm what we cite it for (YYYY-MM-DD). */
  checked: string;
}

/**
 * What is wrong with a dated source: no https URL, or no real calendar day in `checked`. Empty when
 * it is fine.
 */
export function datedSourceProblems(source: Partial<DatedSource>): string[] {
  const out: string[] = [];
  const url = source.url ?? "";
  try {
    if (new URL(url).protocol !== "https:") out.push(`not an https URL: ${url}`);
  } catch {
    out.push(`no source URL${url ? `: ${url}` : ""}`);
  }
  const day = source.checked ?? "";
  const m = day.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  const real = m && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
  if (!real) out.push(`no checked-on date (YYYY-MM-DD)${day ? `: ${day}` : ""}`);
  return out;
}
