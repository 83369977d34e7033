/**
 * The paths of a domain's report, written once: the page, its JSON, and its badge. No imports, so
 * the browser islands use it too. A domain in its normal spelling (lib/scan/domain.ts) is already
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

/** GET this path for the index of every check explained (`/learn`). */
export const LEARN_INDEX_PATH = "/learn";

/** GET this path for the explanation of one check (`/learn/access.edge`). */
export function learnPath(signalId: string): string {
  return `${LEARN_INDEX_PATH}/${encodeURIComponent(signalId)}`;
}
