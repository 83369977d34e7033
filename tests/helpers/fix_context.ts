/**
 * Builds the ScanContext of a scan from text in memory (home page HTML, robots.txt, sitemap,
 * llms.txt), so the fix generators can be run on fixtures and on saved real pages without a
 * network or a server.
 */
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import type { FetchOutcome } from "../../lib/engines/visibility/snapshot_types.ts";
import type { ScanContext } from "../../lib/engines/visibility/check.ts";
import { flattenJsonLd } from "../../lib/engines/structured/page_graph.ts";
import { analyseRobots } from "../../lib/engines/visibility/robots.ts";
import { chooseSiteName } from "../../lib/engines/structured/site_name.ts";
import { normaliseTarget } from "../../lib/kit/net/target.ts";
import type { Result } from "../../lib/engines/visibility/record.ts";
import { scoreSite } from "../../lib/engines/visibility/score.ts";

/** A fixed clock: fixes must never depend on today's date. */
export const FIXED_NOW = new Date("2031-05-17T12:00:00Z");

/** An HTTP answer in memory: 200 text unless told otherwise; null for "404". */
export function answer(
  url: string,
  body: string | null,
  contentType = "text/plain",
): FetchOutcome {
  return {
    ok: true,
    result: {
      url,
      finalUrl: url,
      status: body === null ? 404 : 200,
      headers: { "content-type": body === null ? "text/html" : contentType },
      body: body ?? "<html><title>Not found</title></html>",
      bytes: (body ?? "").length,
      truncated: false,
      redirects: [],
      ttfbMs: 50,
      totalMs: 60,
      remoteAddress: "192.0.2.1",
    },
  };
}

/** What a fixture site serves. */
export interface FixtureSite {
  /** The home page URL, e.g. "https://example.com/". */
  url: string;
  html: string;
  /** robots.txt text; null for a 404. */
  robots?: string | null;
  /** sitemap.xml text; null for a 404. */
  sitemap?: string | null;
  llms?: string | null;
}

/** The ScanContext the pillars would see for this site. */
export function fixContext(site: FixtureSite): ScanContext {
  const target = normaliseTarget(site.url);
  const origin = new URL(site.url).origin;
  const facts = extractPageFacts(site.html, site.url);
  const home = answer(site.url, site.html, "text/html; charset=utf-8");
  const robots = answer(`${origin}/robots.txt`, site.robots ?? null);
  const nodes = flattenJsonLd(facts.jsonLd);
  return {
    snapshot: {
      target,
      home,
      facts,
      parseMs: 1,
      robots,
      sitemap: {
        url: `${origin}/sitemap.xml`,
        source: "default",
        outcome: answer(`${origin}/sitemap.xml`, site.sitemap ?? null, "application/xml"),
      },
      llms: answer(`${origin}/llms.txt`, site.llms ?? null),
      llmsFull: answer(`${origin}/llms-full.txt`, null),
      edge: { browser: home, crawlers: [] },
      elapsedMs: 100,
    },
    facts,
    robots: analyseRobots(robots, site.url),
    nodes,
    siteName: chooseSiteName(facts, nodes, target.domain),
    pageUrl: site.url,
    offSite: null,
    now: FIXED_NOW,
  };
}

/** The scored result (with topIssues and their fixes) for a fixture site. */
export function fixResult(site: FixtureSite): Result {
  return scoreSite(fixContext(site));
}
