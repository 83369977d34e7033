/**
 * Where the CLI (`deno task scan`, lib/app/cli.ts) sends the record: `--format json|md|html` prints
 * it in that format instead of the readable report (`--json` is `--format json`); each `--out FILE`
 * writes it to a file, in the format its extension names (`.json`, `.md`, `.html`), or in
 * `--format` when a single file is named. With files, stdout keeps the readable report for the log.
 */
import {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportInput,
  isExportFormat,
  renderExport,
} from "./export.ts";

/** What to print and which files to write. */
export interface ExportPlan {
  /** The format printed on stdout; null: the readable report. */
  stdout: ExportFormat | null;
  files: { path: string; format: ExportFormat }[];
}

/** The plan for these options, or a usage error (a sentence for stderr). */
export function exportPlan(
  format: string | undefined,
  json: boolean,
  outs: string[],
): ExportPlan | string {
  if (format !== undefined && !isExportFormat(format)) {
    return `--format takes one of ${EXPORT_FORMATS.join(", ")}`;
  }
  if (json && format !== undefined && format !== "json") return "--json and --format differ";
  const chosen: ExportFormat | null = format ?? (json ? "json" : null);
  if (outs.length === 0) return { stdout: chosen, files: [] };
  const files: ExportPlan["files"] = [];
  for (const path of outs) {
    if (path === "") return "--out takes a file name";
    const ext = path.match(/\.(json|md|html|sarif)$/i)?.[1].toLowerCase() ?? null;
    const fileFormat = outs.length === 1 && chosen
      ? chosen
      : ext && isExportFormat(ext)
      ? ext
      : chosen;
    if (!fileFormat) {
      return `--out ${path}: add --format json|md|html|sarif, or end the file name in .json, .md, .html or .sarif`;
    }
    files.push({ path, format: fileFormat });
  }
  return { stdout: null, files };
}

/** Writes the plan's files; returns an error sentence for the first that cannot be written. */
export async function writeExports(plan: ExportPlan, input: ExportInput): Promise<string | null> {
  for (const f of plan.files) {
    try {
      await Deno.writeTextFile(f.path, renderExport(input, f.format));
    } catch (e) {
      return `Cannot write ${f.path}: ${(e as Error).message}`;
    }
    console.error(`Wrote the ${f.format} report to ${f.path}`);
  }
  return null;
}
