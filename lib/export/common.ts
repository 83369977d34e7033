/**
 * What the export formats share: their input, names, media types and file names. The renderers
 * are lib/export/markdown.ts and lib/export/html.tsx; {@link renderExport} picks one, so the API,
 * the report page's links and the CLI all produce the same bytes from the same record.
 */
import type { BaseRecord } from "../service.ts";
import { SERVICE_WORDS, type ServiceName } from "../service_words.ts";

/** The formats a record can be exported in. */
export const EXPORT_FORMATS = ["json", "md", "html", "sarif"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** How a SARIF export places its results (lib/export/sarif.ts). */
export interface SarifOptions {
  /** Where this service is reached, for the rules' helpUri ("https://checker.example.org"). */
  learnBase?: string;
  /** Prepended to every result's path: the folder the site's files live in ("public/"). */
  pathPrefix?: string;
}

/** A stored record to export, and what the export needs to know about it. */
export interface ExportInput {
  /** Which service made the record (its shape differs). */
  service: ServiceName;
  record: BaseRecord;
  /** Why the scan failed, for a failed record (what the report page says). */
  failure: string | null;
  /** The absolute URL of the live report page, linked from the export when known. */
  reportUrl?: string;
  /** Where SARIF results point and their rules' help links (lib/export/sarif.ts). */
  sarif?: SarifOptions;
}

/** The media type each format is served with. */
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  json: "application/json",
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  sarif: "application/sarif+json",
};

/** Whether a string names an export format. */
export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

/** The report's title: "AI visibility report: example.com" or "Structured data report: ...". */
export function reportTitle(input: Pick<ExportInput, "service" | "record">): string {
  const kind = SERVICE_WORDS[input.service].reportKind;
  return `${kind}: ${input.record.domain}`;
}

/**
 * The file name a download of this record gets: the domain, the service, the scan's UTC date and
 * time, e.g. `example.com-ai-visibility-2026-11-21-1000.md`. Only `[a-z0-9.-]` survive, so the name
 * is safe in a Content-Disposition header and on every file system.
 */
export function exportFilename(
  input: Pick<ExportInput, "service" | "record">,
  format: ExportFormat,
): string {
  const domain = input.record.domain.toLowerCase().replace(/[^a-z0-9.-]+/g, "_")
    .replace(/^[.-]+/, "").slice(0, 200) || "report";
  const kind = SERVICE_WORDS[input.service].fileKind;
  const m = input.record.scannedAt.match(/^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/);
  const when = m ? `-${m[1]}-${m[2]}${m[3]}` : "";
  return `${domain}-${kind}${when}.${format}`;
}

/** `attachment; filename="..."`: the browser saves the answer under that name. */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/["\\\r\n]/g, "_")}"`;
}
