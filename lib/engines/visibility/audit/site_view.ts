/**
 * What the site-level signals (scope "site", lib/engines/visibility/signals/) read: the audit's sampled
 * pages with duplicates marked, the pages read, and the small helpers their details share ("3 of
 * 10 pages", "/blog/*, /products/*", examples). Each site signal names how many sampled pages it
 * touches, with examples, and its fix addresses the template those pages share.
 */
import type { ScanContext } from "../check.ts";
import { pathShape } from "./sample.ts";
import type { AuditResult, PageReport, PageType } from "./types.ts";
import type { FixCause } from "../record.ts";
import { siteEngine } from "../site_engine.ts";

/** The audit as the site signals see it. */
export interface SiteView {
  audit: AuditResult;
  /** Every sampled page, home first, with "duplicate title/description" marked. */
  pages: PageReport[];
  /** The pages fetched, answered 2xx with HTML and analysed. */
  read: PageReport[];
}

/** How the site signals' "how we test it" begins. */
export const SAMPLE_HOW =
  "We read a sample of the site's pages (from the sitemap and the home page's links, spread across its templates, politely: robots.txt obeyed, two requests at a time, Crawl-delay honoured)";

const views = new WeakMap<AuditResult, SiteView>();

/**
 * The site view of a scan, or null when there is none to judge: no audit, or the operator asked
 * for the home page alone (AUDIT_PAGES=1 or --pages 1), when the report is the home page's.
 */
export function siteView(ctx: ScanContext): SiteView | null {
  const audit = ctx.audit;
  if (!audit || audit.requested <= 1) return null;
  let view = views.get(audit);
  if (!view) {
    const pages = withDuplicates(audit.pages);
    view = { audit, pages, read: pages.filter(isRead) };
    views.set(audit, view);
  }
  return view;
}

/**
 * The site view when at least `minRead` pages were read (the home page included), else null:
 * a verdict on the site's pages needs more than the home page, whose own signals cover it.
 */
export function sampledSite(ctx: ScanContext, minRead = 2): SiteView | null {
  const view = siteView(ctx);
  return view && view.pages.length >= 2 && view.read.length >= minRead ? view : null;
}

/** A page that was fetched, answered 2xx with HTML and was analysed. */
function isRead(p: PageReport): boolean {
  return p.state === "read" && p.structured !== null;
}

/** "3 of 10 pages". */
export function share(n: number, of: number, noun = "pages"): string {
  return `${n} of ${of} ${noun}`;
}

/** Points for the share of pages that pass. */
export function pointsFor(max: number, good: number, total: number): number {
  return total ? (max * good) / total : max;
}

/** The templates (path shapes) a set of pages share: "/blog/*, /products/*" (for counting). */
export function templates(pages: PageReport[]): string {
  return [...new Set(pages.map((p) => pathShape(p.url)))].join(", ");
}

/** Each kind of page the audit tells apart, in words: one, several. */
const KIND_WORDS: Record<Exclude<PageType, "page">, [string, string]> = {
  home: ["home page", "home page"],
  about: ["About page", "About pages"],
  contact: ["Contact page", "Contact pages"],
  article: ["article page", "article pages"],
  product: ["product page", "product pages"],
  docs: ["documentation page", "documentation pages"],
  listing: ["listing page", "listing pages"],
};

/** A group of pages that probably share one template, with its name in words. */
interface PageGroup {
  /** The kind of page, or for pages of no known kind their path shape: the cause's key. */
  id: string;
  /** "article pages", "pages under /help/", "top-level pages". */
  words: string;
  pages: PageReport[];
}

/**
 * The pages grouped by the template they probably share, the largest group first: by kind
 * (article, product, documentation...), and pages of no known kind by the first segment of their
 * path. Globs (a star for each segment of a path shape) never reach the words: a reader who has
 * never written a robots.txt rule cannot read them, and the shape of a path whose first segment
 * looks like a host name (`/example.com/faq/x`) reads as another site.
 */
function pageGroups(pages: PageReport[]): PageGroup[] {
  const groups = new Map<string, PageGroup>();
  for (const p of pages) {
    let id: string, words: string;
    if (p.type !== "page") {
      id = p.type;
      words = KIND_WORDS[p.type][1];
    } else {
      const shape = pathShape(p.url);
      const first = shape.split("/")[1];
      id = `path:${shape === "/*" ? "/" : `/${first}/`}`;
      words = shape === "/*" ? "top-level pages" : `pages under /${first}/`;
    }
    const g = groups.get(id);
    if (g) g.pages.push(p);
    else groups.set(id, { id, words, pages: [p] });
  }
  // The largest first; a tie keeps the order the pages came in.
  return [...groups.values()].sort((a, b) => b.pages.length - a.pages.length);
}

/** "article pages (such as /2024/01/a)": a group's words and its first page as the example. */
function groupWords(g: PageGroup): string {
  const n = g.pages.length;
  const kind = g.id in KIND_WORDS && n === 1
    ? KIND_WORDS[g.id as keyof typeof KIND_WORDS][0]
    : g.words;
  return g.id === "home" ? "home page" : `${kind} (${n === 1 ? "" : "such as "}${g.pages[0].path})`;
}

/**
 * Pages in words, for a fix's title and steps: "your article pages (such as /2024/01/a)", "your
 * article pages (such as /2024/01/a) and your pages under /help/ (such as /help/x)", "... and 4
 * other pages". Paths appear only as examples.
 */
export function pagesInWords(pages: PageReport[], groups = 2): string {
  const all = pageGroups(pages);
  const named = all.slice(0, groups).map((g) => `your ${groupWords(g)}`);
  const rest = all.slice(groups).reduce((n, g) => n + g.pages.length, 0);
  if (rest) named.push(`${rest} other page${rest === 1 ? "" : "s"}`);
  return named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named[0];
}

/**
 * The template a site fix edits, as its cause: the largest group of its pages (by kind, or by
 * path for pages of no known kind). Two site checks whose pages are mostly article pages edit
 * the same template, so the report offers them as one change. Named in the site's terms: a
 * template where the home page shows an engine, the pages themselves on a static site.
 */
export function templateCause(ctx: ScanContext, pages: PageReport[]): FixCause {
  const g = pageGroups(pages)[0];
  const engine = siteEngine(ctx) !== null;
  return {
    key: `template:${g.id}`,
    title: g.id === "home"
      ? engine ? "Update the home page's template" : "Update your home page"
      : engine
      ? `Update the template of your ${groupWords(g)}`
      : `Update your ${groupWords(g)}`,
  };
}

/** "/a, /b, /c and 4 more". */
export function examples(pages: PageReport[], max = 3): string {
  const shown = pages.slice(0, max).map((p) => p.path).join(", ");
  return pages.length > max ? `${shown} and ${pages.length - max} more` : shown;
}

/** Adds "duplicate title/description" to the pages that share one with another page. */
export function withDuplicates(pages: PageReport[]): PageReport[] {
  // Two addresses of one path (`/` and `/?ref=nav`) are one document: its canonical, not its
  // title, tells them apart, so they count as one page here.
  const count = (key: (p: PageReport) => string | null) => {
    const m = new Map<string, Set<string>>();
    for (const p of pages) {
      const k = key(p);
      if (k) m.set(k, (m.get(k) ?? new Set()).add(new URL(p.url).pathname));
    }
    return new Map([...m].map(([k, paths]) => [k, paths.size]));
  };
  const titleKey = (p: PageReport) => p.title?.trim().toLowerCase() || null;
  const descKey = (p: PageReport) => p.description?.trim().toLowerCase() || null;
  const titles = count(titleKey), descs = count(descKey);
  return pages.map((p) => {
    const fails = [...p.fails];
    if ((titles.get(titleKey(p) ?? "") ?? 0) > 1) fails.push("duplicate title");
    if ((descs.get(descKey(p) ?? "") ?? 0) > 1) fails.push("duplicate description");
    return { ...p, fails };
  });
}
