/**
 * `trust.author_dates`: the page names who wrote it and when, in any form it may state them
 * (meta, structured data of any format, rel="author" links, time elements). The site audit runs
 * the same check on article pages (site_author_dates.ts reads its evidence).
 */
import { allNodes } from "../../check.ts";
import { bylineFix, bylinePages } from "../../byline_fix.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import {
  type JsonLdNode,
  nodesOfType,
  personNames,
  stringValues,
} from "../../../structured/page_graph.ts";
import { nameKey } from "../../../structured/site_name.ts";

const ARTICLE_TYPES = [
  "Article",
  "BlogPosting",
  "NewsArticle",
  "WebPage",
  "TechArticle",
  "Report",
  "ScholarlyArticle",
  "LiveBlogPosting",
];

export const authorDates: SignalDef = {
  id: "trust.author_dates",
  pillar: "trust",
  title: "Authorship and dates stated",
  points: 3,
  scope: "page",
  learn: {
    what: "Who wrote the content and when it was published or updated.",
    why: "AI answers prefer sources that are current and written by someone identifiable.",
    how:
      'We look for authors and dates in the structured data, meta tags, time elements and visible byline ("By ...", "Published ...") of the home page.',
    sources: [SOURCES.helpful],
  },
  check(ctx) {
    const f = ctx.facts;
    const articles = nodesOfType(allNodes(ctx), ARTICLE_TYPES);
    const byId = new Map<string, JsonLdNode>();
    for (const n of allNodes(ctx)) if (n.id && !byId.has(n.id)) byId.set(n.id, n);
    // Authors in every form the page may state them: meta, structured data of any format, and
    // rel="author" links. Each name is one person ("A, B and C" in one meta are three).
    const names = [
      // Dublin Core (RDFa dc:creator, or the DC-HTML name="DC.creator") names authors too.
      ...splitPeople(f.meta["author"] ?? f.meta["dcterms.creator"] ?? f.meta["dc.creator"] ?? ""),
      ...articles.flatMap((a) => personNames(a.data.author ?? a.data.creator, byId)),
      ...f.links.filter((l) => /(^|\s)author(\s|$)/.test(l.rel)).map((l) => l.text),
      // The byline the page's text shows ("By Anna Reid", lib/engines/html/visible_bylines.ts).
      ...(f.bylines?.authors ?? []).map((a) => a.name),
    ];
    const seen = new Set<string>();
    const authors = names.filter((n) => {
      const k = nameKey(n);
      if (!k || seen.has(k) || n.length > 100) return false;
      seen.add(k);
      return true;
    });
    const author = authors.length ? authors.join("; ") : null;
    const date = f.meta["article:modified_time"] ?? f.meta["article:published_time"] ??
      f.meta["dcterms.modified"] ?? f.meta["dcterms.issued"] ?? f.meta["dcterms.date"] ??
      articles.map((a) => stringValues(a.data.dateModified ?? a.data.datePublished)[0]).find(
        Boolean,
      ) ??
      f.bylines?.updated ?? f.bylines?.published ?? f.times[0] ?? null;
    return {
      status: author && date ? "pass" : author || date ? "warn" : "fail",
      detail: author && date
        ? `The page names ${
          authors.length > 1 ? `${authors.length} authors` : "an author"
        } and a date.`
        : author
        ? "The page names an author but no publication or update date."
        : date
        ? "The page has a date but names no author."
        : "The page states neither an author nor a date.",
      evidence: [
        ...authors.slice(0, 10).map((a) => `author: ${a}`),
        ...(date ? [`date: ${date}`] : []),
      ],
      impact: "low",
    };
  },
  // One fix with the article pages' byline check: the same line on every page that lacks it.
  fix: (ctx) => bylineFix(ctx, bylinePages(ctx, true)),
};

/** Splits a byline such as "Jane Doe, Bob Roe and Ann Poe" into people. */
export function splitPeople(byline: string): string[] {
  // Each part trimmed after the split: `\s*` on both sides of the separator retried a long run
  // of spaces from each of its characters.
  return byline.split(/,|;|\||&|\band\b|\bund\b|\bet\b|\by\b/i)
    .map((s) => s.trim().replace(/^by\s+/i, "").trim())
    .filter((s) => s.length > 1);
}
