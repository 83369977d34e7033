/**
 * The URL templates of the routes that other code links to, written once, and the builders that
 * fill them. A route module takes its `path` from {@link PATHS} (lib/kit/web/route.ts RouteDef), so
 * the path it is mounted on, its OpenAPI key and the links built here are one string. No imports,
 * so the browser islands use it too. A domain in its normal spelling (lib/kit/net/target.ts) is already
 * URL-safe; anything else is percent-encoded.
 */

/** The templates, as OpenAPI writes paths (`{name}` is a parameter). */
export const PATHS = {
  /** The report page of a domain's latest record. */
  reportPage: "/report/{domain}",
  /** One kept scan's page, forever. */
  keptScanPage: "/report/{domain}/scans/{id}",
  /** The report of one page of a domain (its latest scan; `?url=` names the page). */
  pageReport: "/report/{domain}/page",
  /** A domain's latest record as JSON. */
  reportJson: "/api/report/{domain}.json",
  /** The latest record as a Markdown report. */
  reportMarkdown: "/api/report/{domain}.md",
  /** The latest record as a self-contained HTML report. */
  reportHtml: "/api/report/{domain}.html",
  /** A domain's kept scans, newest first. */
  history: "/api/report/{domain}/history.json",
  /** What changed between two kept scans. */
  changes: "/api/report/{domain}/changes.json",
  /** The latest record as SARIF 2.1.0 (code scanning). */
  reportSarif: "/api/report/{domain}.sarif",
  /** The public Atom feed of a domain's changes. */
  changesFeed: "/api/report/{domain}/changes.atom",
  /** One kept scan's record as JSON, forever. */
  keptScanJson: "/api/report/{domain}/scans/{id}.json",
  /** The latest record of one page of a domain as JSON (`?url=` names the page). */
  pageReportJson: "/api/report/{domain}/page.json",
  /** Where a scan is: queued, running, done or failed. */
  scanStatus: "/api/scans/{id}",
  /** The SVG badge of a domain's latest result. */
  badge: "/badge/{domain}.svg",
  /** The comparison page. */
  compare: "/compare",
  /** The comparison as JSON. */
  compareJson: "/api/compare.json",
  /** The index of every check explained. */
  learnIndex: "/learn",
  /** The explanation of one check. */
  learn: "/learn/{id}",
  /** The account's server logs: the sites with logs and the upload form. */
  accountLogs: "/account/logs",
  /** The report of one site's server logs, for the account whose logs they are. */
  accountSiteLogs: "/account/logs/{domain}",
} as const;

/** A template with its parameters filled in, each percent-encoded. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`fillPath: no value for {${name}} of ${template}`);
    return encodeURIComponent(value);
  });
}

/** GET this path for the report page (`/report/example.com`). */
export function reportPagePath(domain: string): string {
  return fillPath(PATHS.reportPage, { domain });
}

/** GET this path for the record as JSON (`/api/report/example.com.json`). */
export function reportJsonPath(domain: string): string {
  return fillPath(PATHS.reportJson, { domain });
}

/** GET this path for the SVG badge (`/badge/example.com.svg`). */
export function badgePath(domain: string): string {
  return fillPath(PATHS.badge, { domain });
}

/**
 * GET this path for the report of one page (`/report/example.com/page?url=https%3A%2F%2F...`):
 * the latest scan of that page, whatever page of the domain was scanned last.
 */
export function pageReportPath(domain: string, url: string): string {
  return `${fillPath(PATHS.pageReport, { domain })}?url=${encodeURIComponent(url)}`;
}

/** GET this path for the latest record of one page as JSON. */
export function pageReportJsonPath(domain: string, url: string): string {
  return `${fillPath(PATHS.pageReportJson, { domain })}?url=${encodeURIComponent(url)}`;
}

/** GET this path for one kept scan's page (`/report/example.com/scans/<id>`): never changes. */
export function scanPagePath(domain: string, id: string): string {
  return fillPath(PATHS.keptScanPage, { domain, id });
}

/** GET this path for one kept scan's record as JSON (`/api/report/example.com/scans/<id>.json`). */
export function scanJsonPath(domain: string, id: string): string {
  return fillPath(PATHS.keptScanJson, { domain, id });
}

/** GET this path for a domain's kept scans, newest first (`/api/report/example.com/history.json`). */
export function historyJsonPath(domain: string): string {
  return fillPath(PATHS.history, { domain });
}

/**
 * GET this path for what changed between two kept scans (`/api/report/example.com/changes.json`):
 * the latest against the one before it, or `?from=<id>&to=<id>`.
 */
export function changesJsonPath(domain: string, from?: string, to?: string): string {
  const base = fillPath(PATHS.changes, { domain });
  if (!from && !to) return base;
  const q = new URLSearchParams();
  if (from) q.set("from", from);
  if (to) q.set("to", to);
  return `${base}?${q}`;
}

/** GET this path for a domain's Atom feed of changes (`/api/report/example.com/changes.atom`). */
export function changesFeedPath(domain: string): string {
  return fillPath(PATHS.changesFeed, { domain });
}

/** GET this path to follow a scan (`/api/scans/<id>`): queued, running, done or failed. */
export function scanStatusPath(id: string): string {
  return fillPath(PATHS.scanStatus, { id });
}

/**
 * GET this path to download the record: the JSON as stored (`/api/report/example.com.json?download=1`,
 * the JSON report plus a Content-Disposition), or the Markdown or HTML report
 * (`/api/report/example.com.md`, `.html`).
 */
export function reportDownloadPath(domain: string, format: "json" | "md" | "html"): string {
  if (format === "json") return `${fillPath(PATHS.reportJson, { domain })}?download=1`;
  return fillPath(format === "md" ? PATHS.reportMarkdown : PATHS.reportHtml, { domain });
}

/** GET this path for the comparison page of these domains (`/compare?d=a.com&d=b.com`). */
export function comparePagePath(domains: string[]): string {
  return domains.length ? `${PATHS.compare}?${compareQuery(domains)}` : PATHS.compare;
}

/** GET this path for the comparison as JSON (`/api/compare.json?d=a.com&d=b.com`). */
export function compareJsonPath(domains: string[]): string {
  return `${PATHS.compareJson}?${compareQuery(domains)}`;
}

function compareQuery(domains: string[]): string {
  return domains.map((d) => `d=${encodeURIComponent(d)}`).join("&");
}

/** GET this path for the index of every check explained (`/learn`). */
export const LEARN_INDEX_PATH: string = PATHS.learnIndex;

/** GET this path for the explanation of one check (`/learn/access.edge`). */
export function learnPath(signalId: string): string {
  return fillPath(PATHS.learn, { id: signalId });
}

/** GET this path for the account's report of a site's server logs (`/account/logs/example.com`). */
export function accountSiteLogsPath(domain: string): string {
  return fillPath(PATHS.accountSiteLogs, { domain });
}
