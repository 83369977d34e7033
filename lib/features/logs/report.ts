/**
 * The report of a site's logs as the owner sees it: the figures counted from its aggregates
 * (figures.ts) and the verified fetches of paths the site's robots.txt disallows for the crawler
 * that made them, with the rule (judged by lib/engines/visibility/robots.ts's linear matcher).
 * The robots.txt is the site's text, a stranger's: the server builds this report in a worker (the
 * "log-report" job, report_job.ts); the library and the CLI build it in their own process.
 */
import { parseRobotsTxt, robotsVerdict } from "../../engines/visibility/robots.ts";
import { type FiguresContext, logFigures, type LogReport } from "./figures.ts";
import type { Aggregates } from "./aggregate.ts";

export type { CrawlerFigures, LogReport } from "./figures.ts";

/** What the report joins the aggregates with (each optional). */
export interface ReportContext extends FiguresContext {
  /** The site's robots.txt as it is now. */
  robotsTxt?: string | null;
}

/** The report of a site's aggregates, joined with its robots.txt when one is given. */
export function logReport(agg: Aggregates, ctx: ReportContext = {}): LogReport {
  const { report, pages } = logFigures(agg, ctx);
  if (!ctx.robotsTxt) return report;
  const parsed = parseRobotsTxt(ctx.robotsTxt);
  for (const [token, paths] of pages) {
    for (const [path, pc] of paths) {
      const v = robotsVerdict(parsed, token, path);
      if (v.allowed || !v.rule) continue;
      report.disallowed.push({
        token,
        path,
        hits: pc.hits,
        status: pc.status,
        rule: { line: v.rule.line, pattern: `Disallow: ${v.rule.pattern}` },
      });
    }
  }
  report.disallowed.sort((a, b) => b.hits - a.hits || (a.path < b.path ? -1 : 1));
  return report;
}
