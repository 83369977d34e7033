/**
 * The site audit's discovery signals: the sampled sitemap URLs (answer 200, indexable, open to AI
 * search crawlers) and the llms.txt links (resolve).
 */
import { type Check, scored } from "../check.ts";
import { examples } from "./site_sample.ts";
import type { AuditResult, PageReport } from "./types.ts";

/** "3 of 10 pages". */
function share(n: number, of: number, noun = "pages"): string {
  return `${n} of ${of} ${noun}`;
}

/** Points for the share of pages that pass. */
function pointsFor(max: number, good: number, total: number): number {
  return total ? (max * good) / total : max;
}

export function sitemapUrls(all: PageReport[]): Check | null {
  // Pages our crawler may not fetch (robots.txt) are judged by their robots rules only; a page
  // that did not answer in time was not observed (our budget, not proof it is down): left out.
  const timedOut = (p: PageReport) => p.state === "error" && p.fails.includes("timeout");
  const listed = all.filter((p) => !timedOut(p));
  if (!listed.length) return null;
  const notOk = listed.filter((p) =>
    p.state === "error" ||
    (p.httpStatus !== null && (p.httpStatus < 200 || p.httpStatus >= 300))
  );

  const noindex = listed.filter((p) => p.noindex);
  const blocked = listed.filter((p) => p.blockedFor.length > 0 && !p.noindex);
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
  return scored(
    "discovery.site_sitemap_urls",
    "Sitemap URLs answer 200, are indexable and not blocked",
    3,
    !bad.size ? "pass" : bad.size * 2 >= n ? "fail" : "warn",
    parts.length
      ? `${parts.join("; ")}.`
      : `All ${n} sitemap URLs sampled answer 200, are indexable and open to AI search crawlers.`,
    {
      points: pointsFor(3, n - bad.size, n),
      evidence: [...bad].map((p) =>
        `${p.path}: ${p.httpStatus ?? p.state}${p.noindex ? ", noindex" : ""}`
      ),
      fix: {
        what: "List only live, indexable pages in the sitemap",
        why:
          "A sitemap is a promise of pages worth crawling: redirects, errors and noindex pages in it waste crawl budget and lower trust in the rest.",
        how:
          `Generate the sitemap from published, indexable pages only: drop URLs that redirect or fail (${
            examples([...notOk])
          }), noindex pages and paths robots.txt disallows, or change those pages so they qualify.`,
        effort: "S",
      },
    },
  );
}

export function llmsLinks(audit: AuditResult): Check {
  const l = audit.llmsLinks!;
  const status = !l.broken.length ? "pass" : l.broken.length * 2 >= l.checked ? "fail" : "warn";
  return scored(
    "discovery.site_llms_links",
    "llms.txt links resolve",
    // As much as llms.txt itself is worth (discovery.llms_txt): an optional file's dead links
    // must not cost more than not having the file.
    1,
    status,
    l.broken.length
      ? `${l.broken.length} of ${l.checked} llms.txt links checked (of ${l.total}) do not answer 2xx: ${
        l.broken.slice(0, 3).join(", ")
      }.`
      : `All ${l.checked} llms.txt links checked (of ${l.total}) answer 2xx.`,
    {
      points: pointsFor(1, l.checked - l.broken.length, l.checked),
      evidence: l.broken,
      fix: {
        what: "Fix the broken links in llms.txt",
        why:
          "llms.txt is the reading list you hand to AI systems: a dead link there is a dead end.",
        how: `Update or remove these links in /llms.txt: ${l.broken.join(", ")}.`,
        effort: "S",
      },
    },
  );
}
