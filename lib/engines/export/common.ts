/**
 * What the export formats share: their input, names, media types and file names. The renderers
 * are lib/engines/export/markdown.ts and lib/engines/export/html.tsx; {@link renderExport} picks one, so the API,
 * the report page's links and the CLI all produce the same bytes from the same record.
 */
import type { BaseRecord, ExportInput, SarifOptions, ServiceWords } from "../../service.ts";

export type { ExportInput, SarifOptions };

/** The formats a record can be exported in. */
export const EXPORT_FORMATS = ["json", "md", "html", "sarif"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A record and the words of the service that made it (what titles and file names need). */
export interface NamedRecord {
  service: { words: Pick<ServiceWords, "reportKind" | "fileKind"> };
  record: BaseRecord;
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
export function reportTitle(input: NamedRecord): string {
  const kind = input.service.words.reportKind;
  return `${kind}: ${input.record.domain}`;
}

/**
 * The file name a download of this record gets: the domain, the service, the scan's UTC date and
 * time, e.g. `example.com-ai-visibility-2026-11-21-1000.md`. Only `[a-z0-9.-]` survive, so the name
 * is safe in a Content-Disposition header and on every file system.
 */
export function exportFilename(
  input: NamedRecord,
  format: ExportFormat,
): string {
  const domain = input.record.domain.toLowerCase().replace(/[^a-z0-9.-]+/g, "_")
    .replace(/^[.-]+/, "").slice(0, 200) || "report";
  const kind = input.service.words.fileKind;
  const m = input.record.scannedAt.match(/^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/);
  const when = m ? `-${m[1]}-${m[2]}${m[3]}` : "";
  return `${domain}-${kind}${when}.${format}`;
}

/** `attachment; filename="..."`: the browser saves the answer under that name. */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/["\\\r\n]/g, "_")}"`;
}
