/**
 * Names in bylines: "By Lucy Akins" is Lucy Akins, "Ann Poe, Bo Li" and "Ann Poe and Bo Li" are
 * two people, "Poe, Ann" is one. The page facts and the generator read authors through these.
 */

/** Words that introduce a byline rather than belong to the name, in a few languages. */
const PREFIX =
  /^(?:(?:written|posted|words|story|text|reporting|photos?|published)\s+by|by|par|por|door|av|przez|autor(?:in)?:|author:)\s+/i;

/** A name without its byline prefix and surrounding punctuation ("By Lucy Akins" -> "Lucy Akins"). */
export function cleanAuthorName(raw: string): string {
  let t = raw.replace(/\s+/g, " ").trim().replace(/^[\s|·•—–-]+|[\s|·•—–,;-]+$/g, "");
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
  const parts = cleaned.split(/\s*;\s*|\s+(?:and|&|und|et|y|e|en|og|och)\s+/i).flatMap((p) => {
    const commas = p.split(/\s*,\s*/).map((x) => x.trim()).filter(Boolean);
    return commas.length > 1 && commas.every((x) => x.split(" ").length >= 2) ? commas : [p];
  });
  const out: string[] = [];
  for (const p of parts.map(cleanAuthorName)) {
    if (p && p.length <= 100 && !out.some((o) => o.toLowerCase() === p.toLowerCase())) out.push(p);
  }
  return out.slice(0, 20);
}
