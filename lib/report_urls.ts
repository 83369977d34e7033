/**
 * The paths of a domain's report, written once: the page, its JSON, and its badge. No imports, so
 * the browser islands use it too. A domain in its normal spelling (lib/net/target.ts) is already
 * URL-safe; anything else is percent-encoded.
 */

/** GET this path for the report page (`/report/example.com`). */
export function reportPagePath(domain: string): string {
  return `/report/${encodeURIComponent(domain)}`;
}

/** GET this path for the record as JSON (`/api/report/example.com.json`). */
export function reportJsonPath(domain: string): string {
  return `/api/report/${encodeURIComponent(domain)}.json`;
}

/** GET this path for the SVG badge (`/badge/example.com.svg`). */
export function badgePath(domain: string): string {
  return `/badge/${encodeURIComponent(domain)}.svg`;
}

/** GET this path for one kept scan's page (`/report/example.com/scans/<id>`): never changes. */
export function scanPagePath(domain: string, id: string): string {
  return `${reportPagePath(domain)}/scans/${encodeURIComponent(id)}`;
}

/** GET this path for one kept scan's record as JSON (`/api/report/example.com/scans/<id>.json`). */
export function scanJsonPath(domain: string, id: string): string {
  return `/api/report/${encodeURIComponent(domain)}/scans/${encodeURIComponent(id)}.json`;
}

/** GET this path for a domain's kept scans, newest first (`/api/report/example.com/history.json`). */
export function historyJsonPath(domain: string): string {
  return `/api/report/${encodeURIComponent(domain)}/history.json`;
}

/**
 * GET this path for what changed between two kept scans (`/api/report/example.com/changes.json`):
 * the latest against the one before it, or `?from=<id>&to=<id>`.
 */
export function changesJsonPath(domain: string, from?: string, to?: string): string {
  const base = `/api/report/${encodeURIComponent(domain)}/changes.json`;
  if (!from && !to) return base;
  const q = new URLSearchParams();
  if (from) q.set("from", from);
  if (to) q.set("to", to);
  return `${base}?${q}`;
}

/** GET this path to follow a scan (`/api/scans/<id>`): queued, running, done or failed. */
export function scanStatusPath(id: string): string {
  return `/api/scans/${encodeURIComponent(id)}`;
}

/**
 * GET this path to download the record: the JSON as stored (`/api/report/example.com.json?download=1`,
 * the JSON report plus a Content-Disposition), or the Markdown or HTML report
 * (`/api/report/example.com.md`, `.html`).
 */
export function reportDownloadPath(domain: string, format: "json" | "md" | "html"): string {
  const base = `/api/report/${encodeURIComponent(domain)}`;
  return format === "json" ? `${base}.json?download=1` : `${base}.${format}`;
}

/** GET this path for the comparison page of these domains (`/compare?d=a.com&d=b.com`). */
export function comparePagePath(domains: string[]): string {
  return domains.length ? `/compare?${compareQuery(domains)}` : "/compare";
}

/** GET this path for the comparison as JSON (`/api/compare.json?d=a.com&d=b.com`). */
export function compareJsonPath(domains: string[]): string {
  return `/api/compare.json?${compareQuery(domains)}`;
}

function compareQuery(domains: string[]): string {
  return domains.map((d) => `d=${encodeURIComponent(d)}`).join("&");
}

/** GET this path for the index of every check explained (`/learn`). */
export const LEARN_INDEX_PATH = "/learn";

/** GET this path for the explanation of one check (`/learn/access.edge`). */
export function learnPath(signalId: string): string {
  return `${LEARN_INDEX_PATH}/${encodeURIComponent(signalId)}`;
}
