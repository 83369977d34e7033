/**
 * First-party exports: what the engines themselves saw of a site, read from the CSV files their
 * webmaster tools export, shown per page beside answer presence. Two sources:
 *
 * - **Bing Webmaster Tools, AI Performance** (public preview since February 2026): citations of
 *   the site's pages in Microsoft Copilot, Bing's AI summaries and partner integrations, and the
 *   grounding queries that retrieved them. The report's metrics (Total Citations, Average Cited
 *   Pages, Grounding Queries, Page-level citation activity, and later Intent, Topic and Citation
 *   share) are named as the pages in `docs` describe them; Bing's own help page and the export's
 *   exact column titles were not readable through our search tool, so each column is matched by
 *   the names below, case and spacing aside, and any other column is kept as it is.
 * - **Google Search Console, Performance** (`Pages.csv` / `Queries.csv` of the export: "Top
 *   pages" or "Top queries", Clicks, Impressions, CTR, Position), and its Generative AI section
 *   (pages with impressions in AI Overviews and AI Mode, no clicks).
 *
 * A column that is none of these is kept and shown as it is ("unknown columns"). A file that is not
 * a CSV of one of these tables is refused with the reason, nothing stored. Parsing happens in the
 * scan threads (first_party_job.ts), never on the server's thread.
 */
import type { VendorDoc } from "./provider.ts";

/** Where an export comes from. */
export type FirstPartySource = "bing-ai" | "gsc" | "gsc-ai";

/** Which table of an export a file is. */
export type FirstPartyTable = "pages" | "queries";

/** One known column: its key, the titles it may have, whether it is a number. */
export interface KnownColumn {
  key: string;
  titles: string[];
  kind: "text" | "number" | "percent";
}

/** A source's documentation and the columns read. */
export interface SourceDef {
  id: FirstPartySource;
  label: string;
  docs: VendorDoc[];
  /** The first column of each table. */
  keys: Record<FirstPartyTable, KnownColumn>;
  /** The metrics (at least one must be present). */
  metrics: KnownColumn[];
}

const CHECKED = "2026-12-06";

/** The sources read, with the pages their columns follow and the day those were read. */
export const FIRST_PARTY_SOURCES: Record<FirstPartySource, SourceDef> = {
  "bing-ai": {
    id: "bing-ai",
    label: "Bing Webmaster Tools, AI Performance",
    docs: [
      {
        title: "AI Performance in Bing Webmaster Tools (the report's metrics, as Bing's help " +
          "words them)",
        url: "https://tranquocthanh.net/ai-performance-in-bing-webmaster-tools/",
        checked: CHECKED,
      },
      {
        title: "Bing's AI Performance Report Gets Better (intent, topic, citation share)",
        url: "https://www.practicalecommerce.com/?p=1564581",
        checked: CHECKED,
      },
    ],
    keys: {
      pages: {
        key: "page",
        titles: ["page", "pages", "url", "page url", "cited page"],
        kind: "text",
      },
      queries: {
        key: "query",
        titles: ["grounding query", "grounding queries", "query", "queries"],
        kind: "text",
      },
    },
    metrics: [
      { key: "citations", titles: ["citations", "total citations"], kind: "number" },
      {
        key: "averageCitedPages",
        titles: ["average cited pages", "avg cited pages", "cited pages"],
        kind: "number",
      },
      { key: "citationShare", titles: ["citation share"], kind: "percent" },
      { key: "intent", titles: ["intent", "query intent"], kind: "text" },
      { key: "topic", titles: ["topic", "query topic"], kind: "text" },
    ],
  },
  gsc: {
    id: "gsc",
    label: "Google Search Console, Performance",
    docs: [{
      title: "Search Console Help: Performance report (Search results): tabs and metrics",
      url: "https://support.google.com/webmasters/answer/6155685",
      checked: CHECKED,
    }],
    keys: {
      pages: { key: "page", titles: ["top pages", "page", "pages", "url"], kind: "text" },
      queries: { key: "query", titles: ["top queries", "query", "queries"], kind: "text" },
    },
    metrics: [
      { key: "clicks", titles: ["clicks"], kind: "number" },
      { key: "impressions", titles: ["impressions"], kind: "number" },
      { key: "ctr", titles: ["ctr"], kind: "percent" },
      { key: "position", titles: ["position", "average position"], kind: "number" },
    ],
  },
  "gsc-ai": {
    id: "gsc-ai",
    label: "Google Search Console, Generative AI (AI Overviews, AI Mode)",
    docs: [{
      title: "Search Console's Generative AI section (URLs with impressions in AI Overviews, " +
        "AI Mode and Discover; impressions only)",
      url: "https://expertlifetips.com/?p=107780",
      checked: CHECKED,
    }],
    keys: {
      pages: { key: "page", titles: ["top pages", "page", "pages", "url"], kind: "text" },
      queries: { key: "query", titles: ["top queries", "query", "queries"], kind: "text" },
    },
    metrics: [
      { key: "impressions", titles: ["impressions"], kind: "number" },
      { key: "clicks", titles: ["clicks"], kind: "number" },
      { key: "ctr", titles: ["ctr"], kind: "percent" },
      { key: "position", titles: ["position", "average position"], kind: "number" },
    ],
  },
};

/** Whether a string names a source. */
export function isFirstPartySource(value: string): value is FirstPartySource {
  return value in FIRST_PARTY_SOURCES;
}

/** The largest file read (GSC exports at most 1,000 rows a table; Bing's are of that order). */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
/** The most rows kept of one file. */
export const MAX_IMPORT_ROWS = 5000;
/** The most columns read, and the longest cell kept. */
export const MAX_IMPORT_COLUMNS = 40;
export const MAX_CELL_CHARS = 500;

/** One row as kept: the key (page URL or query), the known metrics, the other columns. */
export interface ImportedRow {
  key: string;
  metrics: Record<string, number | string | null>;
  extra: Record<string, string>;
}

/** A file read. */
export interface ImportedTable {
  source: FirstPartySource;
  table: FirstPartyTable;
  /** The header as the file has it. */
  columns: string[];
  /** The known metrics found (keys), and the columns kept as they are. */
  metrics: string[];
  unknownColumns: string[];
  rows: ImportedRow[];
  /** The dates a Date column spans, when the file has one. */
  dates: { from: string; to: string } | null;
}

/** What the thread job answers. */
export type ImportReading =
  | { ok: true; table: ImportedTable }
  | { ok: false; error: string };
