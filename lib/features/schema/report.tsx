/** The Schema Markup Generator's report page: its title, description and body for a stored record. */
import type { ReportProps, ReportView } from "../../service.ts";
import type { StoredScan } from "../../kit/storage/store.ts";
import type { SchemaScanRecord } from "../../engines/structured/record.ts";
import { describeSchemaRecord, FailedSchemaReport, SchemaReport } from "./views/schema_report.tsx";

/** The page of a stored schema record: the page's structured data, or what went wrong. */
export function schemaReport(
  stored: StoredScan,
  { now, rescan, origin, scanId, badge, inserts, pageReport }: ReportProps,
): ReportView {
  const record = stored.record as SchemaScanRecord;
  const domain = record.domain;
  return {
    title: record.result ? `Structured data of ${domain}` : `Scan of ${domain} failed`,
    description: describeSchemaRecord(record),
    body: record.result
      ? (
        <SchemaReport
          record={record}
          now={now}
          rescan={rescan}
          origin={origin}
          scanId={scanId}
          badge={badge}
          inserts={inserts}
          pageReport={pageReport}
        />
      )
      : <FailedSchemaReport record={record} failure={stored.failure} now={now} rescan={rescan} />,
  };
}
