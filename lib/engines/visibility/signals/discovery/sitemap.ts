/**
 * `discovery.sitemap`: the sitemap robots.txt names (or /sitemap.xml) is a sitemap with URLs and
 * honest lastmod dates; an index is judged with its first child sitemaps read.
 */
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { readSitemap } from "../../sitemap.ts";
import { sitemapFix } from "../../sitemap_fix.ts";
import { isOk } from "../../snapshot.ts";

/** Which remedy the finding calls for. */
type Data =
  | { kind: "publish" }
  | { kind: "children" }
  | { kind: "accuracy"; problems: string[] };

const TITLE = "Sitemap healthy";

export const sitemap: SignalDef<Data> = {
  id: "discovery.sitemap",
  pillar: "discovery",
  title: TITLE,
  points: 4,
  scope: "page",
  learn: {
    what: "A sitemap is an XML list of the pages of a site, usually at /sitemap.xml.",
    why: "Crawlers use it to find every page and to see what changed recently.",
    how:
      "We fetch the sitemap that robots.txt names (or /sitemap.xml) and check that it is a valid sitemap or sitemap index with URLs.",
    sources: [SOURCES.sitemaps, SOURCES.buildSitemap],
  },
  check(ctx) {
    const { url, source, outcome } = ctx.snapshot.sitemap;
    if (!outcome.ok) {
      return { status: "unknown", detail: `${url} could not be fetched (${outcome.error.kind}).` };
    }
    if (!isOk(outcome)) {
      return {
        status: "fail",
        detail: `${url} answered ${outcome.result.status}${
          source === "robots" ? " although robots.txt names it" : ""
        }.`,
        data: { kind: "publish" },
      };
    }
    const host = new URL(ctx.pageUrl).hostname;
    const report = readSitemap(outcome.result.body, host);
    const { tried = [], children = [] } = ctx.snapshot.sitemap;
    const evidence = [
      `${url} (${source === "robots" ? "named in robots.txt" : "default location"}${
        /\.gz$/i.test(new URL(url).pathname) ? ", gzipped" : ""
      })`,
      `${report.kind}: ${report.locs} <loc>, ${report.lastmods} <lastmod>`,
      ...(report.newest ? [`newest lastmod ${report.newest.slice(0, 10)}`] : []),
      ...tried.map((t) => `also named in robots.txt, not a sitemap: ${t.url} (${t.status})`),
    ];
    // An index is judged with the child sitemaps read (within a bound): their URLs and dates count.
    if (report.kind === "sitemapindex" && children.length) {
      const childReports = children.map((c) => ({
        url: c.url,
        report: c.outcome.ok && isOk(c.outcome) ? readSitemap(c.outcome.result.body, host) : null,
        status: c.outcome.ok ? `HTTP ${c.outcome.result.status}` : c.outcome.error.kind,
      }));
      for (const c of childReports) {
        evidence.push(
          c.report
            ? `child ${c.url}: ${c.report.kind}, ${c.report.locs} <loc>, ${c.report.lastmods} <lastmod>`
            : `child ${c.url}: ${c.status}`,
        );
      }
      const good = childReports.filter((c) =>
        c.report && c.report.kind !== "invalid" && c.report.locs
      );
      if (!good.length) {
        return {
          status: "warn",
          detail:
            `${url} is a sitemap index, but none of the ${childReports.length} child sitemaps read answers with a sitemap.`,
          evidence,
          data: { kind: "children" },
        };
      }
      for (const c of good) {
        report.lastmods += c.report!.lastmods;
        const n = c.report!.newest;
        if (n && (!report.newest || Date.parse(n) > Date.parse(report.newest))) report.newest = n;
      }
    }
    if (report.kind === "invalid" || report.locs === 0) {
      return {
        status: "fail",
        detail: report.kind === "invalid"
          ? `${url} is not a sitemap (no <urlset> or <sitemapindex>).`
          : `${url} lists no URLs.`,
        evidence,
        data: { kind: "publish" },
      };
    }
    const problems: string[] = [];
    if (outcome.result.truncated) {
      problems.push("it is larger than 5 MB (split it with a sitemap index)");
    }
    if (report.foreign > report.locs / 2) {
      problems.push(`${report.foreign} URLs are on another host`);
    }
    if (report.lastmods === 0) problems.push("no <lastmod> dates");
    else if (report.newest && ctx.now.getTime() - Date.parse(report.newest) > 365 * 86_400_000) {
      problems.push(`the newest <lastmod> is ${report.newest.slice(0, 10)}, over a year old`);
    }
    return {
      status: problems.length ? "warn" : "pass",
      detail: problems.length
        ? `The sitemap lists ${report.locs} URLs, but ${problems.join("; ")}.`
        : `The ${report.kind} lists ${report.locs} URLs with lastmod dates.`,
      evidence,
      data: { kind: "accuracy", problems },
    };
  },
  fix(ctx, found) {
    const data = found.data!;
    const why =
      "The sitemap is how crawlers (and the AI indexes built on them) find and re-crawl your pages; lastmod tells them what changed.";
    if (data.kind === "children") {
      return {
        what: "Repair the sitemap index's child sitemaps",
        why,
        how: howText(
          byHand(
            `make each child sitemap your index at ${ctx.snapshot.sitemap.url} lists answer 200 with a <urlset> of your pages (your CMS or sitemap plugin writes them).`,
          ),
          checkAfterwards("that each child sitemap's address opens as XML in a browser."),
        ),
        effort: "S",
      };
    }
    if (data.kind === "accuracy") {
      return {
        what: "Keep the sitemap accurate",
        why,
        how: howText(
          byHand(
            `fix ${
              data.problems.join("; ")
            }: generate each <lastmod> from that page's real modification date.`,
          ),
          checkAfterwards(
            `that ${ctx.snapshot.sitemap.url} lists your pages, each with a <lastmod> of the day it last changed.`,
          ),
        ),
        effort: "S",
      };
    }
    return sitemapFix(ctx);
  },
};
