/**
 * One record, one format, one text: the export every surface (API, report page, CLI) serves.
 */
import { type ExportFormat, type ExportInput } from "./common.ts";
import { recordToMarkdown } from "./markdown.ts";
import { recordToHtml } from "./html.tsx";
import { recordToSarif } from "./sarif.ts";

export {
  attachment,
  EXPORT_FORMATS,
  EXPORT_MEDIA_TYPES,
  exportFilename,
  type ExportFormat,
  type ExportInput,
  isExportFormat,
} from "./common.ts";

/**
 * The record in `format`: pretty JSON (the ScanRecord, unchanged), the Markdown report, the
 * self-contained HTML report, or SARIF 2.1.0 (code scanning).
 */
export function renderExport(input: ExportInput, format: ExportFormat): string {
  switch (format) {
    case "json":
      return JSON.stringify(input.record, null, 2) + "\n";
    case "md":
      return recordToMarkdown(input);
    case "html":
      return recordToHtml(input);
    case "sarif":
      // The rules' help links go to this instance's learn pages when its address is known.
      return recordToSarif(input, { learnBase: input.reportUrl, ...input.sarif });
  }
}
