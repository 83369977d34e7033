/** `discovery.sitemap_in_robots`: robots.txt names the sitemap on a `Sitemap:` line. */
import { codeBlock, howText } from "../../fix_text.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { sitemapExists } from "../../skeletons.ts";

export const sitemapInRobots: SignalDef = {
  id: "discovery.sitemap_in_robots",
  pillar: "discovery",
  title: "robots.txt names the sitemap",
  points: 1,
  scope: "page",
  learn: {
    what: "A `Sitemap:` line in robots.txt tells every crawler where the sitemap is.",
    why: "Crawlers other than Google's rarely guess the address.",
    how: "We look for Sitemap lines in robots.txt.",
    sources: [SOURCES.sitemaps, SOURCES.rfc9309],
  },
  check(ctx) {
    const r = ctx.robots;
    if (r.state === "unreachable") {
      return { status: "unknown", detail: "robots.txt could not be read." };
    }
    return {
      status: r.sitemaps.length ? "pass" : "warn",
      detail: r.sitemaps.length
        ? `robots.txt names ${r.sitemaps.length} sitemap(s).`
        : "robots.txt has no Sitemap line.",
      evidence: r.sitemaps.slice(0, 3),
      impact: "low",
    };
  },
  fix: (ctx) => ({
    what: "Name the sitemap in robots.txt",
    why: "Crawlers read robots.txt first; a Sitemap line is how most of them find the sitemap.",
    how: howText(
      sitemapExists(ctx)
        ? "Add this line to robots.txt (anywhere, outside any group):"
        : "Once the sitemap is published (see the sitemap fix), add this line to robots.txt (anywhere, outside any group):",
      codeBlock(`Sitemap: ${new URL("/sitemap.xml", ctx.pageUrl).href}`),
    ),
    effort: "S",
  }),
};
