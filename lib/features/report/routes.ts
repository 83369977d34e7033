/**
 * The scan and its report, for both services: POST /api/scan, the scan's status, the stored report
 * as JSON, Markdown, HTML and SARIF, the badge, and the report pages. lib/app/routes.ts lists it.
 */
import type { RouteDef } from "../../kit/web/route.ts";
import { scanRoute } from "./routes/api/scan.ts";
import { reportJsonRoute } from "./routes/api/report/[domain].ts";
import { scanStatusRoute } from "./routes/api/scans/[id].ts";
import {
  reportHtmlRoute,
  reportMarkdownRoute,
  reportSarifRoute,
} from "./routes/api/report/[domain]_export.ts";
import { badgeRoute } from "./routes/badge/[domain].svg.ts";
import {
  keptScanPageRoute,
  pageReportRoute,
  reportFormRoute,
  reportPageRoute,
} from "./routes/report/[domain].tsx";
import { pageReportJsonRoute } from "./routes/api/report/[domain]/page.json.ts";

/** The report feature's routes. */
export const REPORT_ROUTES: readonly RouteDef[] = [
  scanRoute,
  reportJsonRoute,
  scanStatusRoute,
  reportMarkdownRoute,
  reportHtmlRoute,
  reportSarifRoute,
  badgeRoute,
  reportFormRoute,
  reportPageRoute,
  pageReportRoute,
  keptScanPageRoute,
  pageReportJsonRoute,
];
