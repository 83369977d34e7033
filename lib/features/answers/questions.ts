/**
 * The questions asked: a small default set built from what the site says about itself
 * (site_facts.ts), never from a list of ours, and the owner's own set when they edit it. Each
 * question carries its basis (the fact it was built from, or "written by the owner") and whether
 * it names the site, since an answer to "What is Acme?" naming Acme says little: the report marks
 * those questions.
 */
import { BadRequestError } from "../../kit/errors.ts";
import { namesSite, siteOf } from "./presence.ts";
import type { SiteFacts } from "./site_facts.ts";

/** One question. */
export interface Question {
  text: string;
  /** Where it came from: "the site's name, from og:site_name", "written by the site's owner". */
  basis: string;
  /** The question itself names the brand or the domain. */
  namesSite: boolean;
}

/** The most questions a default set has. */
export const DEFAULT_QUESTIONS = 3;
/** Bounds of one question (characters). */
export const QUESTION_CHARS = { min: 8, max: 300 } as const;
/** The most competitor domains an owner may list. */
export const MAX_COMPETITORS = 10;

/** The default questions of a site, from its facts (at most {@link DEFAULT_QUESTIONS}). */
export function defaultQuestions(facts: SiteFacts): Question[] {
  const site = { domain: siteOf(facts.domain), brand: facts.brand.text };
  const out: { text: string; basis: string }[] = [
    { text: `What is ${facts.brand.text}?`, basis: `the site's name, from ${facts.brand.source}` },
  ];
  const [first, second] = facts.offers;
  if (first) {
    out.push({
      text: `Where can I find ${first.text}?`,
      basis: `what the site offers, from ${first.source}`,
    });
  }
  if (facts.category) {
    const where = facts.locality ? ` in ${facts.locality.text}` : "";
    out.push({
      text: `Can you recommend a ${facts.category.text}${where}?`,
      basis: `its kind of business, from ${facts.category.source}${
        facts.locality ? ` and ${facts.locality.source}` : ""
      }`,
    });
  } else if (second) {
    out.push({
      text: `What are the best options for ${second.text}?`,
      basis: `what the site offers, from ${second.source}`,
    });
  }
  return out.slice(0, DEFAULT_QUESTIONS).map((q) => ({ ...q, namesSite: namesSite(q.text, site) }));
}

/**
 * The owner's questions, checked: 1 to `max`, each 8-300 characters of text on one line, no two
 * alike. @throws BadRequestError naming what is wrong.
 */
export function ownerQuestions(
  texts: unknown,
  max: number,
  site: { domain: string; brand: string | null },
): Question[] {
  if (!Array.isArray(texts) || texts.length === 0) {
    throw new BadRequestError("questions must be a list of 1 to " + max + " questions");
  }
  if (texts.length > max) throw new BadRequestError(`At most ${max} questions.`);
  const seen = new Set<string>();
  return texts.map((raw, i) => {
    if (typeof raw !== "string") throw new BadRequestError(`questions[${i}] must be text`);
    const text = raw.replace(/\s+/g, " ").trim();
    if (text.length < QUESTION_CHARS.min || text.length > QUESTION_CHARS.max) {
      throw new BadRequestError(
        `questions[${i}] must be ${QUESTION_CHARS.min} to ${QUESTION_CHARS.max} characters`,
      );
    }
    // deno-lint-ignore no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(text)) {
      throw new BadRequestError(`questions[${i}] has control characters`);
    }
    const key = text.toLowerCase();
    if (seen.has(key)) throw new BadRequestError(`questions[${i}] repeats another question`);
    seen.add(key);
    return { text, basis: "written by the site's owner", namesSite: namesSite(text, site) };
  });
}

/**
 * The owner's competitors: each a domain or URL ("https://www.rival.co.uk/x" -> "rival.co.uk"),
 * optionally with the name answers call it after an equals sign ("rival.example = Rival
 * Roasters"; share of voice looks for the name as well as the domain), at most
 * {@link MAX_COMPETITORS}, never the site itself. @throws BadRequestError for one that is not a
 * domain, or a name that is not 2-100 characters of text.
 */
export function ownerCompetitors(
  values: unknown,
  siteDomain: string,
): { domains: string[]; names: Record<string, string> } {
  const names: Record<string, string> = {};
  if (values === undefined || values === null) return { domains: [], names };
  if (!Array.isArray(values)) throw new BadRequestError("competitors must be a list of domains");
  if (values.length > MAX_COMPETITORS) {
    throw new BadRequestError(`At most ${MAX_COMPETITORS} competitors.`);
  }
  const out = new Set<string>();
  values.forEach((raw, i) => {
    const entry = typeof raw === "string" ? raw : "";
    const cut = entry.indexOf("=");
    const text = (cut >= 0 ? entry.slice(0, cut) : entry).trim();
    const name = cut >= 0 ? entry.slice(cut + 1).replace(/\s+/g, " ").trim() : "";
    let host: string;
    try {
      host = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`).hostname;
    } catch {
      host = "";
    }
    if (!text || text.length > 253 || !/^[a-z0-9.-]+\.[a-z0-9-]+$/i.test(host)) {
      throw new BadRequestError(`competitors[${i}] is not a domain such as rival.example`);
    }
    // deno-lint-ignore no-control-regex
    if (cut >= 0 && (name.length < 2 || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name))) {
      throw new BadRequestError(`competitors[${i}]: the name after "=" must be 2-100 characters`);
    }
    const site = siteOf(host);
    if (site === siteDomain) return;
    out.add(site);
    if (name) names[site] = name;
  });
  return { domains: [...out], names };
}
