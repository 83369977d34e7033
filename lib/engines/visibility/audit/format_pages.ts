/**
 * The sampled-pages table as text, for the CLI and MCP (the web report renders the same rows in
 * lib/features/visibility/views/pages_table.tsx). The rows come from the record's `discovery.site_sample` signal.
 */
import type { ScanRecord } from "../record.ts";
import type { AuditPage } from "./types.ts";

/** The sampled pages a record carries, home page first, or null (older records, failed scans). */
export function sampledPages(record: ScanRecord): AuditPage[] | null {
  for (const pillar of record.result?.pillars ?? []) {
    for (const signal of pillar.signals) {
      if (signal.id === "discovery.site_sample" && signal.pages) return signal.pages;
    }
  }
  return null;
}

/** How a page's fetch reads in the table: its HTTP status, or why it was not read. */
export function pageStatus(p: AuditPage): string {
  switch (p.state) {
    case "robots":
      return "not fetched (robots.txt)";
    case "budget":
      return "not fetched (time budget)";
    case "error":
      return "no answer";
    case "not_html":
      return `${p.httpStatus ?? "?"} (not HTML)`;
    default:
      return String(p.httpStatus ?? "?");
  }
}

/** The path and query of a page's URL. */
export function pagePath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** A plain-text table: path, type, status, the checks each page fails. */
export function formatPagesTable(pages: AuditPage[], maxPathChars = 48): string {
  const rows = pages.map((p) => {
    const path = pagePath(p.url);
    return [
      path.length > maxPathChars ? `${path.slice(0, maxPathChars - 1)}…` : path,
      p.type,
      pageStatus(p),
      p.fails.length ? p.fails.join("; ") : "ok",
    ];
  });
  const head = ["Page", "Type", "Status", "Fails"];
  const widths = [0, 1, 2].map((i) => Math.max(head[i].length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    [r[0].padEnd(widths[0]), r[1].padEnd(widths[1]), r[2].padEnd(widths[2]), r[3]].join("  ");
  return [line(head), ...rows.map(line)].join("\n");
}
