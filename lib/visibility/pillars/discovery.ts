/**
 * Pillar "AI discovery files": /llms.txt (the llmstxt.org format), /llms-full.txt, and a healthy
 * sitemap that robots.txt points to.
 */
import { type Check, type PillarDef, type ScanContext, scored, unscored } from "../check.ts";
import { llmsTxtSkeleton, sitemapSkeleton } from "../fixes.ts";
import { codeBlock, howText } from "../fix_text.ts";
import { sitemapExists } from "../skeletons.ts";
import { validateLlmsTxt } from "../llms_txt.ts";
import { readSitemap } from "../sitemap.ts";
import { isOk, looksLikeHtml } from "../snapshot.ts";

export const discoveryPillar: PillarDef = {
  id: "discovery",
  title: "AI discovery files",
  weight: 6,
  checks: (ctx) => [llmsTxt(ctx), llmsFull(ctx), sitemap(ctx), sitemapInRobots(ctx)],
};

function llmsTxt(ctx: ScanContext): Check {
  const out = ctx.snapshot.llms;
  const title = "llms.txt present and well-formed";
  const url = new URL("/llms.txt", ctx.pageUrl).href;
  if (!out.ok) {
    return unscored(
      "discovery.llms_txt",
      title,
      "unknown",
      `${url} could not be fetched (${out.error.kind}).`,
    );
  }
  const fix = {
    what: "Publish an llms.txt",
    why:
      "llms.txt gives AI assistants and coding agents a curated Markdown map of your most useful pages. It is cheap, but optional: no major AI search engine documents reading it, so it weighs little in the score.",
    how: llmsTxtSkeleton(ctx),
    effort: "S" as const,
  };
  const res = out.result;
  if (!isOk(out) || looksLikeHtml(res.headers["content-type"], res.body)) {
    return scored(
      "discovery.llms_txt",
      title,
      1,
      "fail",
      isOk(out)
        ? `${url} answers with an HTML page, not an llms.txt file.`
        : `${url} answered ${res.status}: there is no llms.txt.`,
      { fix, impact: "low" },
    );
  }
  const report = validateLlmsTxt(res.body, res.finalUrl);
  if (report.valid && !report.problems.length) {
    return scored(
      "discovery.llms_txt",
      title,
      1,
      "pass",
      `llms.txt "${report.title}" lists ${report.links} links in ${report.sections} sections.`,
      { evidence: [url] },
    );
  }
  return scored(
    "discovery.llms_txt",
    title,
    1,
    report.valid ? "warn" : "fail",
    `llms.txt exists but does not follow the format: ${report.problems.join("; ")}.`,
    {
      points: report.valid ? 0.5 : 0,
      evidence: [url, ...report.problems],
      fix: { ...fix, what: "Fix llms.txt to follow the llmstxt.org format" },
    },
  );
}

function llmsFull(ctx: ScanContext): Check {
  const out = ctx.snapshot.llmsFull;
  const title = "llms-full.txt (optional)";
  if (!out.ok) {
    return unscored("discovery.llms_full", title, "unknown", "llms-full.txt could not be fetched.");
  }
  const present = isOk(out) &&
    !looksLikeHtml(out.result.headers["content-type"], out.result.body) &&
    out.result.body.trim().length > 0;
  return present
    ? scored(
      "discovery.llms_full",
      title,
      1,
      "pass",
      "llms-full.txt offers the site's content as one Markdown file.",
    )
    : unscored(
      "discovery.llms_full",
      title,
      "info",
      "No llms-full.txt. It is optional: useful for documentation-style sites that want their full text in one file.",
    );
}

function sitemap(ctx: ScanContext): Check {
  const { url, source, outcome } = ctx.snapshot.sitemap;
  const title = "Sitemap healthy";
  if (!outcome.ok) {
    return unscored(
      "discovery.sitemap",
      title,
      "unknown",
      `${url} could not be fetched (${outcome.error.kind}).`,
    );
  }
  const fix = {
    what: source === "robots" ? "Repair the sitemap robots.txt points to" : "Publish a sitemap.xml",
    why:
      "The sitemap is how crawlers (and the AI indexes built on them) find and re-crawl your pages; lastmod tells them what changed.",
    how: howText(
      `Serve ${
        new URL("/sitemap.xml", ctx.pageUrl).href
      } (most CMSs and frameworks generate one). This skeleton lists your home page and the pages it links to that crawlers may read:`,
      codeBlock(sitemapSkeleton(ctx), "xml"),
      "Add a <lastmod> to an entry only from that page's real modification date (your CMS knows it); a made-up date teaches crawlers to ignore it.",
      "Then name it in robots.txt, on a line of its own outside any group:",
      codeBlock(`Sitemap: ${new URL("/sitemap.xml", ctx.pageUrl).href}`),
    ),
    effort: "S" as const,
  };
  if (!isOk(outcome)) {
    return scored(
      "discovery.sitemap",
      title,
      4,
      "fail",
      `${url} answered ${outcome.result.status}${
        source === "robots" ? " although robots.txt names it" : ""
      }.`,
      { fix },
    );
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
      return scored(
        "discovery.sitemap",
        title,
        4,
        "warn",
        `${url} is a sitemap index, but none of the ${childReports.length} child sitemaps read answers with a sitemap.`,
        { evidence, fix: { ...fix, what: "Repair the sitemap index's child sitemaps" } },
      );
    }
    for (const c of good) {
      report.lastmods += c.report!.lastmods;
      const n = c.report!.newest;
      if (n && (!report.newest || Date.parse(n) > Date.parse(report.newest))) report.newest = n;
    }
  }
  if (report.kind === "invalid" || report.locs === 0) {
    return scored(
      "discovery.sitemap",
      title,
      4,
      "fail",
      report.kind === "invalid"
        ? `${url} is not a sitemap (no <urlset> or <sitemapindex>).`
        : `${url} lists no URLs.`,
      { evidence, fix },
    );
  }
  const problems: string[] = [];
  if (outcome.result.truncated) {
    problems.push("it is larger than 5 MB (split it with a sitemap index)");
  }
  if (report.foreign > report.locs / 2) problems.push(`${report.foreign} URLs are on another host`);
  if (report.lastmods === 0) problems.push("no <lastmod> dates");
  else if (report.newest && ctx.now.getTime() - Date.parse(report.newest) > 365 * 86_400_000) {
    problems.push(`the newest <lastmod> is ${report.newest.slice(0, 10)}, over a year old`);
  }
  return scored(
    "discovery.sitemap",
    title,
    4,
    problems.length ? "warn" : "pass",
    problems.length
      ? `The sitemap lists ${report.locs} URLs, but ${problems.join("; ")}.`
      : `The ${report.kind} lists ${report.locs} URLs with lastmod dates.`,
    {
      evidence,
      fix: {
        ...fix,
        what: "Keep the sitemap accurate",
        how: `Fix: ${
          problems.join("; ")
        }. Generate <lastmod> from each page's real modification date.`,
      },
    },
  );
}

function sitemapInRobots(ctx: ScanContext): Check {
  const r = ctx.robots;
  const title = "robots.txt names the sitemap";
  if (r.state === "unreachable") {
    return unscored(
      "discovery.sitemap_in_robots",
      title,
      "unknown",
      "robots.txt could not be read.",
    );
  }
  const sitemapUrl = new URL("/sitemap.xml", ctx.pageUrl).href;
  return scored(
    "discovery.sitemap_in_robots",
    title,
    1,
    r.sitemaps.length ? "pass" : "warn",
    r.sitemaps.length
      ? `robots.txt names ${r.sitemaps.length} sitemap(s).`
      : "robots.txt has no Sitemap line.",
    {
      evidence: r.sitemaps.slice(0, 3),
      impact: "low",
      fix: {
        what: "Name the sitemap in robots.txt",
        why: "Crawlers read robots.txt first; a Sitemap line is how most of them find the sitemap.",
        how: howText(
          sitemapExists(ctx)
            ? "Add this line to robots.txt (anywhere, outside any group):"
            : "Once the sitemap is published (see the sitemap fix), add this line to robots.txt (anywhere, outside any group):",
          codeBlock(`Sitemap: ${sitemapUrl}`),
        ),
        effort: "S",
      },
    },
  );
}
