/**
 * The site's paths, written once: every route's path template (lib/kit/web/route.ts RouteDef takes
 * its `path` from here, so the path it is mounted on, its OpenAPI key and the links built here are
 * one string), the assets pages link to, and the builders that fill the templates. Pages, views,
 * routes, redirects and islands link through this table; tests/paths_test.ts fails on a site path
 * written anywhere else. No imports, so the browser islands use it too. A domain in its normal
 * spelling (lib/kit/net/target.ts) is already URL-safe; anything else is percent-encoded.
 */

/** The templates, as OpenAPI writes paths (`{name}` is a parameter). */
export const PATHS = {
  /** The home page: what the service does and the scan form. */
  home: "/",
  /** The API, keys and MCP, for scripts and agents. */
  docs: "/docs",
  /** The OpenAPI document of the API. */
  openApi: "/openapi.json",
  /** The Model Context Protocol endpoint. */
  mcp: "/mcp",
  /** Liveness and readiness. */
  healthz: "/healthz",
  /** Static files: styles, images, the browser bundles. */
  static: "/static/*",
  /** A new browser challenge (ALTCHA). */
  challenge: "/api/challenge",
  /** Ask for a scan. */
  scan: "/api/scan",
  /** The scan form's no-JavaScript path (`?url=`), to the report of that site. */
  reportForm: "/report",
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
  /** Validate code in hand: the page. */
  validate: "/validate",
  /** Validate code in hand: the API. */
  validateApi: "/api/validate",
  /** A signed-in account's page: its keys and what other features add. */
  account: "/account",
  /** Sign in. */
  accountLogin: "/account/login",
  /** Create an account. */
  accountSignup: "/account/signup",
  /** Sign out. */
  accountLogout: "/account/logout",
  /** Create an API key (the account page's form). */
  accountKeys: "/account/keys",
  /** Revoke one of the account's keys. */
  accountKeyRevoke: "/account/keys/{id}/revoke",
  /** Add a watch (the account page's form). */
  accountWatches: "/account/watches",
  /** Remove one of the account's watches. */
  accountWatchDelete: "/account/watches/{id}/delete",
  /** Run one of the account's watches now. */
  accountWatchRun: "/account/watches/{id}/run",
  /** Set the account's own key of an AI vendor. */
  accountAnswerKey: "/account/answer-keys/{provider}",
  /** Remove it. */
  accountAnswerKeyDelete: "/account/answer-keys/{provider}/delete",
  /** Start an answer-presence run of a watched site (the report page's form). */
  accountAnswerRun: "/account/answers/{domain}/run",
  /** Set the questions asked about a watched site. */
  accountAnswerQuestions: "/account/answers/{domain}/questions",
  /** Import a first-party export (Bing, Search Console) of a watched site (the report's form). */
  accountAnswerImports: "/account/answers/{domain}/imports",
  /** The administrator's page. */
  admin: "/admin",
  /** The administrator signs in. */
  adminLogin: "/admin/login",
  /** The administrator signs out. */
  adminLogout: "/admin/logout",
  /** The administrator revokes a key. */
  adminKeyRevoke: "/admin/keys/{id}/revoke",
  /** The account's own AI vendor keys (API). */
  answerKeys: "/api/answers/keys",
  /** One of them. */
  answerKey: "/api/answers/keys/{provider}",
  /** Answer presence of a watched site: the plan and the last runs. */
  siteAnswers: "/api/answers/{domain}",
  /** The questions asked about it. */
  answerQuestions: "/api/answers/{domain}/questions",
  /** Its runs (POST starts one). */
  answerRuns: "/api/answers/{domain}/runs",
  /** One run. */
  answerRun: "/api/answers/{domain}/runs/{id}",
  /** Import a first-party export of a watched site. */
  answerImports: "/api/answers/{domain}/imports",
  /** A watched site's pages: the answers citing each, the exports' figures, the logs' hits. */
  answerPages: "/api/answers/{domain}/pages",
  /** The account's watches (API). */
  watches: "/api/watches",
  /** One watch. */
  watch: "/api/watches/{id}",
  /** A test delivery of a watch's webhook. */
  watchTest: "/api/watches/{id}/test",
  /** Run a watch now. */
  watchRun: "/api/watches/{id}/run",
  /** An e-mail alert's link: confirm the address. */
  watchEmailConfirm: "/watch/email/confirm",
  /** An e-mail alert's link: stop the e-mails. */
  watchEmailUnsubscribe: "/watch/email/unsubscribe",
  /** A site's server logs: POST one, GET the report. */
  logs: "/api/logs/{domain}",
  /** The account's server logs: the sites with logs and the upload form. */
  accountLogs: "/account/logs",
  /** The report of one site's server logs, for the account whose logs they are. */
  accountSiteLogs: "/account/logs/{domain}",
  /** How far an upload of the account's has been read (lines). */
  accountLogUpload: "/account/log-uploads/{id}",
} as const;

/** The files under /static/ that pages link to by name (the browser bundles' names are built). */
export const ASSETS = {
  /** The site's stylesheet. */
  appCss: "/static/app.css",
  /** The report pages' stylesheet (reports, docs, learn, compare, validate). */
  reportCss: "/static/report.css",
  /** The account and administrator pages' stylesheet. */
  accountsCss: "/static/accounts.css",
  favicon: "/static/favicon.svg",
} as const;

/** The path of a file under /static/ (`/static/og-visibility.png`, `/static/build/islands.js`). */
export function staticPath(file: string): string {
  return `${PATHS.static.slice(0, -1)}${file}`;
}

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
