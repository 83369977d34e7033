/** `discovery.sitemap_in_robots`: robots.txt names the sitemap on a `Sitemap:` line. */
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { robotsReadable, sitemapFix } from "../../sitemap_fix.ts";
import { robotsFileFix } from "../../robots_fixes.ts";

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
  // One cause with the sitemap itself: publishing it and naming it are one fix. A robots.txt that
  // is missing or broken is replaced whole by the robots.txt fix, which names the sitemap.
  fix: (ctx) => robotsReadable(ctx) ? sitemapFix(ctx) : robotsFileFix(ctx),
};
