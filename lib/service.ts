/**
 * What a service is: the contract every service folder (lib/features/<name>/) fulfils. A service is
 * what differs between the AI Visibility Checker and the Schema Markup Generator: its name (which
 * prefixes its KV keys), its API key prefix, its record schema and scanner, the words its pages
 * use, its home page, its report view, its export bodies, its badge, its MCP tools and prompts, and
 * the steps its progress card shows. Everything else (API, limits, cache, queue, accounts, the MCP
 * server) is shared and takes a ServiceDef.
 *
 * This module holds types only, so every layer may name a service without importing one. The
 * registry of services is built in the composition root (lib/app/server.ts SERVICES); no other module
 * imports a service folder (tests/architecture_test.ts).
 */
import type { VNode } from "preact";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import type { ChallengeWidget } from "./kit/auth/challenge.ts";
import type { Config } from "./kit/config.ts";
import type { Target } from "./kit/net/target.ts";
import type { BaseRecord, StoredScan } from "./kit/storage/store_types.ts";

export type { BaseRecord };

/** What a scan run produces: the public record and, when it failed, why. */
export interface RunOutcome<R extends BaseRecord = BaseRecord> {
  record: R;
  failure: string | null;
}

/** The steps the worker itself reports around any service's scan (lib/engines/scan/worker.ts). */
export type WorkerStepId = "starting" | "saving";

/**
 * A step a scan reports as it starts it: `id` is one of the service's typed step ids (the progress
 * card places the scan by it), `text` what the status URL shows people ("fetching ... robots.txt").
 */
export interface ScanStep<Id extends string = string> {
  id: Id;
  text: string;
}

/** One row of the progress card: its label, and the step ids that put the scan on it. */
export interface ProgressRow<Id extends string = string> {
  label: string;
  /** Empty for the first row: the scan is queued, waiting for a free scanner. */
  steps: (Id | WorkerStepId)[];
  /** Only a scan that renders its pages in a browser (Target.render) shows this row. */
  rendering?: boolean;
}

/** What a scan needs besides its target. */
export interface RunDeps<Id extends string = string> {
  config: Config;
  now: () => Date;
  signal?: AbortSignal;
  /** Told each step the scan starts (the scan's status URL and progress card show it). */
  onProgress?: (step: ScanStep<Id>) => void;
}

/**
 * The module a scan thread loads to run a service's scans (lib/kit/isolate/scan_thread.ts): it exports
 * `run`, and nothing that renders pages, so a thread loads the scanner only.
 */
export interface ScannerModule {
  run(target: Target, deps: RunDeps): Promise<RunOutcome>;
}

/** What one service calls its things. */
export interface ServiceWords {
  /** The service's name for people: "AI Visibility Checker". */
  title: string;
  /** The report's kind, as a page eyebrow and export title: "AI visibility report". */
  reportKind: string;
  /** The same in a file name: "ai-visibility". */
  fileKind: string;
  /** The badge's left-hand label: "AI visibility". */
  badgeLabel: string;
  /** The badge's alt text start: "AI visibility" (of example.com). */
  badgeAlt: string;
  /** The home page's description (meta and previews). */
  homeDescription: string;
  /** What the service does, as the other service's home page introduces it. */
  sisterPitch: string;
  /** The other service (its name in the registry). */
  sister: string;
  /** An example target for the docs' curl lines. */
  exampleTarget: string;
  /** The jq filter the docs' polling loop prints the result with. */
  resultJq: string;
  /** The MCP server's name in client configurations: "ai-visibility". */
  mcpName: string;
  /** What `url` of POST /api/scan names, for the docs: "a domain or a URL". */
  targetWords: string;
  /** What a stored record holds, for the docs. */
  recordWords: string;
  /**
   * The scan form's field texts; `render`, the label of its "render in a browser" checkbox (a
   * service without it offers none; docs/rendering.md).
   */
  form: { label: string; hint: string; placeholder: string; button: string; render?: string };
}

/** What a home page is rendered with (plain props: lib/ui views never see a request). */
export interface HomeProps {
  /** The browser challenge of the scan form. */
  widget: ChallengeWidget;
  /** The sister service, when its home page is known (SISTER_URL or the local default). */
  sister: { name: string; what: string; url: string } | null;
  /** Where the source code is published, if the operator says (SOURCE_URL). */
  sourceUrl?: string;
  /**
   * This server can render pages in a browser (a remote browser, or a local Chromium the memory
   * plan lets run: lib/kit/config_memory.ts), so the scan form offers it.
   */
  canRender: boolean;
  /**
   * The form to validate code in hand (lib/features/validate/), where the service validates code:
   * the app hands it in, the home page places it.
   */
  validateForm?: VNode;
}

/** What a stored record's page is rendered with. */
export interface ReportProps {
  /** Milliseconds since the epoch (for "scanned 5 minutes ago"). */
  now: number;
  /** The "Scan again" form. */
  rescan: VNode;
  /** This site's origin, for absolute links (badge snippets). */
  origin: string;
  /** Set when the page shows one kept scan, not the latest. */
  scanId?: string;
  /** The badge's alt text and size, for its snippet. */
  badge: { alt: string; width: number; height: number };
  /**
   * What other features show on this page (lib/kit/web/report_sections.ts: what changed since the
   * last scan and the kept scans, answer presence for the account watching the site), by place.
   */
  inserts?: ReportInserts;
  /** A service that scans pages (the schema service): the permanent path of this page's report. */
  pageReport?: string;
  /**
   * The crawler matrix's "observed in logs" column, for the reader whose account holds server-log
   * aggregates of the site (lib/features/logs/): never shown to anyone else.
   */
  observed?: ObservedColumn;
}

/**
 * What a site's own access logs showed of each crawler (lib/features/logs/ observedColumn): the
 * matrix's third view beside what the site declares and what its edge answered our probe.
 */
export interface ObservedColumn {
  /** The days the logs cover (YYYY-MM-DD, UTC). */
  period: { from: string; to: string };
  /** Per crawler token: verified hits with their status mix, spoofed and unverifiable hits. */
  cells: Record<string, string>;
  /** Where the account's logs report is. */
  href: string;
}

/**
 * The places a report page gives other features' sections, each a list in the order the app lists
 * the sections (lib/app/sections.ts): a service's report view puts each where it belongs.
 */
export interface ReportInserts {
  /** Beside the summary, the first thing read (what changed since the last scan). */
  lead: VNode[];
  /** Right after the summary (what changed in full; answer presence). */
  top: VNode[];
  /** At the end of the page (the kept scans). */
  end: VNode[];
}

/** What a stored record's page says: its title, description and body. */
export interface ReportView {
  title: string;
  description: string;
  body: VNode;
}

/** How a SARIF export places its results (lib/engines/export/sarif.ts). */
export interface SarifOptions {
  /** Where this service is reached, for the rules' helpUri ("https://checker.example.org"). */
  learnBase?: string;
  /** Prepended to every result's path: the folder the site's files live in ("public/"). */
  pathPrefix?: string;
}

/** A SARIF 2.1.0 level: `error` fails a code-scanning gate, `warning` warns, `note` informs. */
export type SarifLevel = "error" | "warning" | "note";

/** A SARIF 2.1.0 reportingDescriptor: one check, with its help text. */
export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: SarifLevel };
  properties: Record<string, unknown>;
}

/** A SARIF 2.1.0 result: one failing or warning check at the place it concerns. */
export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: unknown[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}

/** What a service contributes to a SARIF log: its rules and its results. */
export interface SarifParts {
  rules: SarifRule[];
  results: SarifResult[];
}

/** A stored record to export, and what the export needs to know about it. */
export interface ExportInput {
  /** The service that made the record (its name, words and export bodies). */
  service: Pick<ServiceDef, "name" | "words" | "exports">;
  record: BaseRecord;
  /** Why the scan failed, for a failed record (what the report page says). */
  failure: string | null;
  /** The absolute URL of the live report page, linked from the export when known. */
  reportUrl?: string;
  /** Where SARIF results point and their rules' help links (lib/engines/export/sarif.ts). */
  sarif?: SarifOptions;
}

/** A service's export bodies (lib/engines/export/ adds the frame: title, styles, footer). */
export interface ServiceExports {
  /** The Markdown report as blocks (lib/engines/export/markdown.ts joins them). */
  markdown(input: ExportInput): string[];
  /** The HTML report's body (lib/engines/export/html.tsx wraps it in a self-contained document). */
  html(input: ExportInput): VNode;
  /** The SARIF rules and results (lib/engines/export/sarif.ts adds the log around them). */
  sarif(input: ExportInput, options: SarifOptions): SarifParts;
}

/** What a badge says of a scanned record (lib/kit/ui/badge.ts adds the label and draws it). */
export interface BadgeMessage {
  message: string;
  /** A colour of lib/kit/ui/badge.ts COLOURS. */
  colour: string;
}

/**
 * A service over MCP (lib/app/mcp_server.ts builds the server from it). `Ctx` is the MCP request's
 * context (lib/kit/mcp/context.ts McpContext) and `Tool` a tool as the features list them
 * (McpTool there); the contract leaves both open so that this module imports nothing of lib/kit/mcp.
 */
export interface ServiceMcp<Ctx = unknown, Tool = unknown> {
  /** The server name agents see: "ai-visibility-checker". */
  serverName: string;
  /** A short, readable summary of a stored record (the text beside the structured content). */
  summarise(record: BaseRecord): string;
  /** Service-specific lines for the server instructions. */
  instructions: string;
  /** The tools only this service has (lib/app/mcp_server.ts lists them after the history tools). */
  tools: readonly Tool[];
  /** Registers the service's prompts, if it has any. */
  registerPrompts?(server: McpServer, ctx: Ctx): void;
}

/** One service: everything that differs, in one definition (lib/features/<name>/service.ts). */
export interface ServiceDef<R extends BaseRecord = BaseRecord, Id extends string = string> {
  /** Its name: the registry key, the SERVICE setting, the prefix of its KV keys. */
  name: string;
  /** What pages, exports, badges, the form and the docs call this service's things. */
  words: ServiceWords;
  /** Human name, for logs and pages. */
  title: string;
  /** API keys of this service start with it ("uvk_"). */
  keyPrefix: string;
  recordSchema: z.ZodType<R>;
  /**
   * Runs one scan; must not throw for anything the scanned site does. Its record is within the
   * record budget (lib/kit/limits/record_budget.ts boundOutcome: summarised past it), made where the
   * scan runs, so nothing larger ever leaves the scan's thread.
   */
  run(target: Target, deps: RunDeps<Id>): Promise<RunOutcome<R>>;
  /** The module exporting the same `run`, for scan threads ({@link ScannerModule}). */
  scanner: URL;
  /** The progress card's rows, in order (the worker's steps and the scanner's typed steps). */
  progress: ProgressRow<Id>[];
  /**
   * Whether a fresh stored record answers a request for `target` (default: always). The schema
   * service stores one page per domain, so a record of another page of the domain does not.
   */
  servesCached?(record: R, target: Target): boolean;
  /**
   * A scan that does not say whether to render renders where this server can (a browser is
   * configured and allowed), as Google's Rich Results Test does; `render: false` opts out. The
   * request flow resolves it before the cache is read, so `servesCached` sees the choice.
   */
  rendersByDefault?: boolean;
  /** Whether a stored record asked for the rendered view ("Scan again" keeps the choice). */
  wasRendered?(record: R): boolean;
  /** What the service does, after its title ("The <title> <summary>."): the OpenAPI summary. */
  summary?: string;
  /** The fields of a failed record of `target` beyond domain, status, scannedAt and result. */
  failedRecordFields?(target: Target): Record<string, unknown>;
  /** What a watch of this service rescans (lib/features/watch/): the whole site, or the one page named. */
  watchTarget: "site" | "page";
  /** What "Scan again" on a record's page scans (default: the record's domain). */
  rescanTarget?(record: R): string;
  /** Serves POST /api/validate and /validate (validate JSON-LD code in hand). */
  validatesCode?: boolean;
  /**
   * Serves GET /compare and /api/compare.json (lib/features/compare/): sites side by side. The schema
   * service does not: its record is one page of a site, so two records are not two sites.
   */
  comparesSites?: boolean;
  /**
   * Reads a site's server access logs (lib/features/logs/: POST and GET /api/logs/{domain}, the
   * analyse_server_log tool, the account's upload form, the report's observed column). The
   * visibility service does: its report is about AI crawlers reading a site. The schema service
   * does not: its record is one page's structured data, which no crawler's visit changes.
   */
  readsServerLogs?: boolean;
  /** The home page's body. */
  home(props: HomeProps): VNode;
  /** A stored record's page: its title, description and body. */
  report(stored: StoredScan, props: ReportProps): ReportView;
  exports: ServiceExports;
  /** What its badge says of a scanned record. */
  badge(record: R): BadgeMessage;
  mcp: ServiceMcp;
}

/** A service definition of any record type, as the registry holds it. */
// deno-lint-ignore no-explicit-any
export type AnyServiceDef = ServiceDef<any, string>;
