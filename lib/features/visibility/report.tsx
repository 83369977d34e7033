/** The AI Visibility Checker's report page: its title, description and body for a stored record. */
import type { ReportProps, ReportView } from "../../service.ts";
import type { StoredScan } from "../../kit/storage/store.ts";
import type { ScanRecord } from "../../engines/visibility/record.ts";
import { describeRecord, FailedReport, VisibilityReport } from "./views/visibility_report.tsx";

/** The page of a stored visibility record: the report, or what went wrong. */
export function visibilityReport(
  stored: StoredScan,
  { now, rescan, origin, scanId, badge, inserts, observed }: ReportProps,
): ReportView {
  const record = stored.record as ScanRecord;
  const domain = record.domain;
  return {
    title: record.result
      ? `${domain}: ${Math.round(record.result.score)}/100, grade ${record.result.grade}`
      : `Scan of ${domain} failed`,
    description: describeRecord(record),
    body: record.result
      ? (
        <VisibilityReport
          record={record}
          now={now}
          rescan={rescan}
          origin={origin}
          scanId={scanId}
          badge={badge}
          inserts={inserts}
          observed={observed}
        />
      )
      : <FailedReport record={record} failure={stored.failure} now={now} rescan={rescan} />,
  };
}
