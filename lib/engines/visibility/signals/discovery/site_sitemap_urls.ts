/**
 * `discovery.site_sitemap_urls`: the sampled URLs that came from the sitemap answer 200, are
 * indexable and are open to AI search crawlers.
 */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { searchOpenOnHome } from "../../crawlers_matrix.ts";
import { crawlersByRole } from "../../crawlers.ts";
import { SOURCES } from "../../sources.ts";
import type { PageReport } from "../../audit/types.ts";
import { examples, pointsFor, SAMPLE_HOW, sampledSite, share } from "../../audit/site_view.ts";

/** The sitemap URLs that do not answer 200. */
interface Data {
  notOk: PageReport[];
}

export const siteSitemapUrls: SignalDef<Data> = {
  id: "discovery.site_sitemap_urls",
  pillar: "discovery",
  title: "Sitemap URLs answer 200, are indexable and not blocked",
  points: 3,
  scope: "site",
  learn: {
    what:
      "A sitemap lists the pages a site wants found. Every URL in it should be a live page that crawlers may read and index.",
    why:
      "Sitemap URLs that redirect, fail, say noindex or are blocked by robots.txt waste crawlers' time and make the sitemap less trusted.",
    how:
      `${SAMPLE_HOW}; for the sampled URLs that came from the sitemap we check the status, the noindex directives and robots.txt.`,
    sources: [SOURCES.sitemaps, SOURCES.buildSitemap],
  },
  check(ctx) {
    const site = sampledSite(ctx, 0);
    if (!site) return null;
    // Pages our crawler may not fetch (robots.txt) are judged by their robots rules only; a page
    // that did not answer in time was not observed (our budget, not proof it is down): left out.
    const timedOut = (p: PageReport) => p.state === "error" && p.fails.includes("timeout");
    const listed = site.pages.filter((p) => p.inSitemap && p.state !== "budget" && !timedOut(p));
    if (!listed.length) return null;
    const notOk = listed.filter((p) =>
      p.state === "error" ||
      (p.httpStatus !== null && (p.httpStatus < 200 || p.httpStatus >= 300))
    );
    const noindex = listed.filter((p) => p.noindex);
    // Blocked for a crawler the home page lets in: a section closed by path rules. A crawler turned
    // away from the whole site is a choice the access checks count once, not a sitemap fault.
    const open = searchOpenOnHome(ctx);
    const blocked = listed.filter((p) => p.blockedFor.some((t) => open.has(t)) && !p.noindex);
    const bad = new Set([...notOk, ...noindex, ...blocked]);
    const n = listed.length;
    const parts = [
      notOk.length &&
      `${share(notOk.length, n, "sitemap URLs")} sampled do not answer 200: ${examples(notOk)}`,
      noindex.length &&
      `${share(noindex.length, n, "sitemap URLs")} are noindex: ${examples(noindex)}`,
      blocked.length &&
      `${
        share(blocked.length, n, "sitemap URLs")
      } are blocked for AI search crawlers by robots.txt: ${examples(blocked)}`,
    ].filter((x): x is string => !!x);
    return {
      status: !bad.size ? "pass" : bad.size * 2 >= n ? "fail" : "warn",
      detail: parts.length
        ? `${parts.join("; ")}.`
        : `All ${n} sitemap URLs sampled answer 200, are indexable and open to ${
          open.size === crawlersByRole("search").length
            ? "AI search crawlers"
            : "the AI search crawlers the home page lets in"
        }.`,
      points: pointsFor(3, n - bad.size, n),
      evidence: [...bad].map((p) =>
        `${p.path}: ${p.httpStatus ?? p.state}${p.noindex ? ", noindex" : ""}`
      ),
      data: { notOk },
    };
  },
  fix: (_ctx, found) => ({
    what: "List only live, indexable pages in the sitemap",
    why:
      "A sitemap is a promise of pages worth crawling: redirects, errors and noindex pages in it waste crawl budget and lower trust in the rest.",
    how: howText(
      byHand(
        `generate the sitemap from published, indexable pages only: drop URLs that redirect or fail (${
          examples(found.data!.notOk)
        }), noindex pages and paths robots.txt disallows, or change those pages so they qualify.`,
      ),
      checkAfterwards("that every URL the sitemap lists answers 200 and carries no noindex."),
    ),
    effort: "S",
  }),
};
