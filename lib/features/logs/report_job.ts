/**
 * The "log-report" job: a site's logs report joined with its robots.txt, built in a worker
 * (registered in jobs.ts). The robots.txt is the site's text, fetched by the server (up to
 * 512 KiB) and parsed only here, with the linear matcher of lib/engines/visibility/robots.ts.
 */
import type { Aggregates } from "./aggregate.ts";
import type { LogReport } from "./figures.ts";
import { logReport, type ReportContext } from "./report.ts";

/** A report to build. */
export interface LogReportJob {
  kind: "log-report";
  aggregates: Aggregates;
  context: ReportContext;
}

/** Time a "log-report" job is given. */
export const LOG_REPORT_TIMEOUT_MS = 30_000;

/** The worker's entry point (lib/kit/isolate/protocol.ts ThreadJobModule). */
export function runJob(job: LogReportJob): LogReport {
  return logReport(job.aggregates, job.context);
}
