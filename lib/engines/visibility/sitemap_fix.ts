/**
 * The sitemap's one fix, shared by `discovery.sitemap` and `discovery.sitemap_in_robots` (one
 * cause: the sitemap and the line that names it): publish the skeleton (the home page and the
 * pages it links to that crawlers may read, each with a `<lastmod>` for the owner to fill in from
 * the page's real modification date: a sitemap without dates earns half the check), and name it
 * on a `Sitemap:` line of robots.txt. Where robots.txt itself is missing or broken, the robots.txt
 * fix publishes a file that names the sitemap, so this one does not repeat the line.
 */
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { addRobotsLines, byHand, createFile } from "./fix_steps.ts";
import { sitemapExists, sitemapXml } from "./skeletons.ts";
import { readSitemap } from "./sitemap.ts";

/** The cause the sitemap's checks share. */
export const SITEMAP_CAUSE = {
  key: "sitemap",
  title: "Publish a sitemap and name it in robots.txt",
};

/** Whether robots.txt answers with rules (a file the line can be added to). */
export function robotsReadable(ctx: ScanContext): boolean {
  return ctx.robots.state === "ok";
}

/**
 * Where the sitemap is (or goes): the URL robots.txt names when a file can be served there, else
 * /sitemap.xml. A named URL with a query or ending in "/" (`/?sitemap=true`) is a page a CMS
 * answers, not a file: a static file there would replace the home page.
 */
export function sitemapUrl(ctx: ScanContext): string {
  const named = ctx.snapshot.sitemap.source === "robots" ? new URL(ctx.snapshot.sitemap.url) : null;
  return named && !named.search && !named.pathname.endsWith("/")
    ? named.href
    : new URL("/sitemap.xml", ctx.pageUrl).href;
}

/**
 * Whether the sitemap must be published: none answers, or what answers lists no page. A sitemap
 * whose dates or children are wrong is repaired, not replaced (the sitemap check says how).
 */
export function sitemapMissing(ctx: ScanContext): boolean {
  if (!sitemapExists(ctx)) return true;
  const o = ctx.snapshot.sitemap.outcome;
  if (!o.ok) return false;
  const report = readSitemap(o.result.body, new URL(ctx.pageUrl).hostname);
  return report.kind === "invalid" || (report.kind === "urlset" && report.locs === 0);
}

/**
 * The fix for a missing (or broken) sitemap, or for a sitemap robots.txt does not name: the
 * skeleton to publish when there is none, and the `Sitemap:` line when robots.txt lacks it.
 * Null when there is nothing to do.
 */
export function sitemapFix(ctx: ScanContext): Fix | null {
  const publish = sitemapMissing(ctx);
  const url = sitemapUrl(ctx);
  const line = robotsReadable(ctx) &&
    (ctx.robots.sitemaps.length === 0 || (publish && !ctx.robots.sitemaps.includes(url)));
  if (!publish && !line) return null;
  const robotsUrl = new URL("/robots.txt", ctx.pageUrl).href;
  const named = ctx.snapshot.sitemap.source === "robots" && url === ctx.snapshot.sitemap.url;
  // robots.txt names a sitemap at an address a file cannot take: publish one beside it.
  const elsewhere = ctx.snapshot.sitemap.source === "robots" && !named
    ? ctx.snapshot.sitemap.url
    : null;
  return {
    what: publish
      ? named ? "Repair the sitemap robots.txt points to" : "Publish a sitemap.xml"
      : "Name the sitemap in robots.txt",
    why: publish
      ? "The sitemap is how crawlers (and the AI indexes built on them) find and re-crawl your pages; lastmod tells them what changed."
      : "Crawlers read robots.txt first; a Sitemap line is how most of them find the sitemap.",
    how: howText(
      publish &&
        createFile(
          url,
          ` (most CMSs and frameworks generate one; a static site serves this file as it is). It lists your home page and the pages it links to that crawlers may read. Replace each FILL-IN with the date that page last changed (your CMS or the file's date knows it); leave a <lastmod> line out where you do not know it, because a made-up date teaches crawlers to ignore them all:`,
        ),
      publish && codeBlock(sitemapXml(ctx), "xml"),
      line && addRobotsLines(robotsUrl, ", on a line of its own outside any group:"),
      line && codeBlock(`Sitemap: ${url}`),
      elsewhere !== null &&
        byHand(
          `robots.txt also names ${elsewhere}, which is no sitemap today: repair what serves it (a CMS or plugin) or delete that Sitemap line.`,
        ),
    ),
    effort: "S",
    cause: SITEMAP_CAUSE,
  };
}
