/** `trust.site_author_dates`: the sampled article pages name an author and a date. */
import { bylineFix, bylinePages } from "../../byline_fix.ts";
import { authorDates } from "./author_dates.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import type { PageReport } from "../../audit/types.ts";
import { examples, pointsFor, SAMPLE_HOW, sampledSite, share } from "../../audit/site_view.ts";

/** The article pages missing an author or a date. */
interface Data {
  bad: PageReport[];
}

export const siteAuthorDates: SignalDef<Data> = {
  id: "trust.site_author_dates",
  pillar: "trust",
  title: "Article pages name an author and a date",
  points: 3,
  scope: "site",
  learn: {
    what:
      "An article page says who wrote it and when (a byline, a <time> element, or author and datePublished in its structured data).",
    why:
      "Assistants prefer sources they can attribute and date; an anonymous, undated article is weaker evidence.",
    how:
      `${SAMPLE_HOW}, recognise article-like pages (by their structured data or their path), and check each for an author and a publication date.`,
    sources: [SOURCES.helpful, SOURCES.structuredData],
  },
  check(ctx) {
    const articles = sampledSite(ctx)?.read.filter((p) => p.type === "article") ?? [];
    if (!articles.length) return null;
    const noAuthor = articles.filter((p) => p.author === false);
    const noDate = articles.filter((p) => p.date === false);
    const n = articles.length;
    const bad = articles.filter((p) => p.author === false || p.date === false);
    const parts = [
      ...(noAuthor.length
        ? [`${share(noAuthor.length, n, "article pages")} name no author: ${examples(noAuthor)}`]
        : []),
      ...(noDate.length
        ? [`${share(noDate.length, n, "article pages")} state no date: ${examples(noDate)}`]
        : []),
    ];
    return {
      status: !bad.length ? "pass" : bad.length * 2 >= n ? "fail" : "warn",
      detail: parts.length
        ? `${parts.join("; ")}.`
        : `All ${n} article pages name an author and a date.`,
      points: pointsFor(3, n - noAuthor.length / 2 - noDate.length / 2, n),
      evidence: bad.map((p) => p.path),
      data: { bad },
    };
  },
  // One fix with the home page's byline check (the same line, on every page that lacks it).
  fix: (ctx) => bylineFix(ctx, bylinePages(ctx, authorDates.check(ctx)?.status !== "pass")),
};
