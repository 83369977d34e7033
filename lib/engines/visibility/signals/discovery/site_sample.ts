/**
 * `discovery.site_sample`: how the site audit's sample was read, carrying the sampled-pages table
 * in its `pages` field (not scored). With the home page alone sampled, it is the only site signal.
 */
import { noFix, type SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { pathShape } from "../../audit/sample.ts";
import type { AuditPage } from "../../audit/types.ts";
import { examples, SAMPLE_HOW, siteView } from "../../audit/site_view.ts";

export const siteSample: SignalDef = {
  id: "discovery.site_sample",
  pillar: "discovery",
  title: "Pages sampled for the site audit",
  points: 0,
  scope: "site",
  learn: {
    what:
      "The list of pages this report sampled beyond the home page, with each page's type, status and the checks it fails.",
    why:
      "Problems that hide a site are often on its article, product or documentation templates, not on the home page.",
    how:
      `${SAMPLE_HOW}, within one time budget; the report says how many pages it read and why it read fewer when it did.`,
    sources: [SOURCES.sitemaps, SOURCES.rfc9309],
  },
  check(ctx) {
    const site = siteView(ctx);
    if (!site) return null;
    const { audit, pages } = site;
    const read = pages.filter((p) => p.state === "read").length;
    const notes: string[] = [];
    if (audit.delayLimited) {
      notes.push(
        `robots.txt asks for a Crawl-delay of ${audit.crawlDelaySec} s, above the bound we wait, so only the home page was read`,
      );
    } else if (audit.crawlDelaySec) {
      notes.push(
        `pages were read ${audit.crawlDelaySec} s apart, as robots.txt's Crawl-delay asks`,
      );
    }
    if (audit.budgetHit) {
      notes.push(
        `the audit's time budget (${
          (audit.budgetMs / 1000).toFixed(1)
        } s) ran out: the report describes the ${read} pages that arrived`,
      );
    }
    const robots = pages.filter((p) => p.state === "robots");
    if (robots.length) notes.push(`robots.txt keeps our crawler from ${examples(robots)}`);
    const detail = pages.length < 2
      ? "Only the home page was sampled" +
        (audit.candidates ? "." : ": no other page of the site was found in its sitemap or links.")
      : `Read ${read} of ${pages.length} sampled pages (home page included), chosen from ${audit.candidates} candidate URLs across ${
        new Set(pages.slice(1).map((p) => pathShape(p.url))).size
      } templates${notes.length ? `; ${notes.join("; ")}` : ""}.`;
    const rows: AuditPage[] = pages.map((p) => ({
      url: p.url,
      type: p.type,
      source: p.source,
      state: p.state,
      httpStatus: p.httpStatus,
      fails: p.fails,
    }));
    return {
      status: "info",
      detail: pages.length < 2 && notes.length ? `${detail} (${notes.join("; ")})` : detail,
      // The table itself is the `pages` field (no copy of it in the evidence).
      evidence: [],
      pages: rows,
    };
  },
  fix: noFix,
};
