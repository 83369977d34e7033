/**
 * The byline's one fix (issue 42: one fix per cause): the home page's check
 * (`trust.author_dates`) and the article pages' (`trust.site_author_dates`) ask for the same line
 * on the pages that lack it, so both offer this fix and the report lists it once; its cause is
 * the pages' template (the article pages' when they lack it), so a canonical fix of the same
 * pages joins it as another step of one change. A byline names
 * the author in a link marked rel="author" and the date in a `<time datetime>`, the forms every
 * reader of authorship understands (our own check included); static HTML page by page, or the
 * engine's own template tags when the home page shows one.
 */
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { escapeHtml, howText } from "./fix_text.ts";
import { pageEditSteps } from "./page_edits.ts";
import { homeUrl } from "./site_identity.ts";
import { sampledSite, templateCause } from "./audit/site_view.ts";
import type { PageReport } from "./audit/types.ts";

/** The byline to paste, with what only the owner knows left as FILL-IN. */
export function bylineHtml(ctx: ScanContext): string {
  const about = ctx.facts.trustLinks.about ?? homeUrl(ctx);
  return `<p>By <a rel="author" href="${
    escapeHtml(about)
  }">FILL-IN: the author's name</a>, updated <time datetime="FILL-IN: YYYY-MM-DD">FILL-IN: the date as readers see it</time></p>`;
}

/**
 * The pages a byline goes on: the home page when its own check fails (`homeLacks`), and the
 * sampled article pages that name no author or state no date.
 */
export function bylinePages(ctx: ScanContext, homeLacks: boolean): PageReport[] {
  const site = sampledSite(ctx);
  const articles =
    site?.read.filter((p) => p.type === "article" && (p.author === false || p.date === false)) ??
      [];
  const home: PageReport = site?.read.find((p) => p.type === "home") ??
    { url: ctx.pageUrl, path: new URL(ctx.pageUrl).pathname, type: "home" } as PageReport;
  // The article pages first: they name the template the change is mostly about.
  return [...articles.filter((p) => p.url !== home.url), ...(homeLacks ? [home] : [])];
}

/** The byline fix for `pages` (see {@link bylinePages}). */
export function bylineFix(ctx: ScanContext, pages: PageReport[]): Fix {
  const urls = pages.map((p) => p.url);
  const many = urls.length > 1;
  return {
    what: many
      ? "Show who wrote each page and when"
      : "State who wrote the page and when it was updated",
    why:
      "AI answers prefer attributable, fresh sources: a visible author and date make expertise and recency checkable.",
    how: howText(
      ...pageEditSteps(ctx, {
        urls,
        where: "main",
        code: () => bylineHtml(ctx),
        template:
          'print the author\'s name in a link marked rel="author" and the date the page last changed in a <time datetime> element, below its heading',
        note: `replace each FILL-IN${many ? " with that page's own author and date" : ""}`,
        check:
          'that an article page shows its author and date, with a rel="author" link and a <time datetime> element in its HTML.',
        engineCode: (engine) => ({
          code: engine.byline,
          lang: engine.lang,
          where: engine.articleTemplate,
        }),
      }),
    ),
    effort: "S",
    cause: templateCause(ctx, pages),
  };
}
