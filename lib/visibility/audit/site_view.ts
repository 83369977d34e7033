/**
 * What the site-level signals (scope "site", lib/visibility/signals/) read: the audit's sampled
 * pages with duplicates marked, the pages read, and the small helpers their details share ("3 of
 * 10 pages", "/blog/*, /products/*", examples). Each site signal names how many sampled pages it
 * touches, with examples, and its fix addresses the template those pages share.
 */
import type { ScanContext } from "../check.ts";
import { pathShape } from "./sample.ts";
import type { AuditResult, PageReport } from "./types.ts";

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

/** The templates (path shapes) a set of pages share: "/blog/*, /products/*". */
export function templates(pages: PageReport[]): string {
  return [...new Set(pages.map((p) => pathShape(p.url)))].join(", ");
}

/** "/a, /b, /c and 4 more". */
export function examples(pages: PageReport[], max = 3): string {
  const shown = pages.slice(0, max).map((p) => p.path).join(", ");
  return pages.length > max ? `${shown} and ${pages.length - max} more` : shown;
}

/** Adds "duplicate title/description" to the pages that share one with another page. */
export function withDuplicates(pages: PageReport[]): PageReport[] {
  const count = (key: (p: PageReport) => string | null) => {
    const m = new Map<string, number>();
    for (const p of pages) {
      const k = key(p);
      if (k) m.set(k, (m.get(k) ?? 0) + 1);
    }
    return m;
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
