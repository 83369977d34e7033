/**
 * The AI Visibility Checker, whole: its words, scanner, progress steps, home page, report page,
 * export bodies, badge and MCP adapter (lib/service.ts ServiceDef). The composition root
 * (lib/app/server.ts) registers it.
 */
import type { ServiceDef } from "../../service.ts";
import { type ScanRecord, ScanRecordSchema } from "../../engines/visibility/record.ts";
import type { VisibilityStep } from "../../engines/visibility/snapshot.ts";
import { run } from "./scanner.ts";
import { VISIBILITY_WORDS } from "./words.ts";
import { VisibilityHome } from "./home.tsx";
import { visibilityReport } from "./report.tsx";
import { visibilityMarkdown } from "./export_markdown.ts";
import { visibilityHtml } from "./export_html.tsx";
import { visibilitySarif } from "./sarif.ts";
import { visibilityBadge } from "./badge.ts";
import { visibilityMcp } from "./mcp.ts";

/** The AI Visibility Checker. */
export const visibilityService: ServiceDef<ScanRecord, VisibilityStep> = {
  name: "visibility",
  words: VISIBILITY_WORDS,
  title: VISIBILITY_WORDS.title,
  watchTarget: "site",
  keyPrefix: "uvk_",
  recordSchema: ScanRecordSchema,
  summary: "scores how visible a site is to AI search engines and assistants, with the fixes",
  failedRecordFields: () => ({ offSite: null }),
  // A scan that asks for the rendered view is not answered by a record without one.
  servesCached: (record, target) => !target.render || record.render !== undefined,
  wasRendered: (record) => record.render !== undefined,
  comparesSites: true,
  readsServerLogs: true,
  run,
  scanner: new URL("./scanner.ts", import.meta.url),
  // What a scan does, for the progress card: each row with the typed steps that put a scan on it
  // (lib/engines/visibility/snapshot.ts VisibilityStep; "starting" and "saving" are the worker's own).
  progress: [
    { label: "Waiting for a free scanner", steps: [] },
    {
      label: "Fetching the home page, robots.txt, the sitemap and llms.txt",
      steps: ["starting", "fetching", "parsing", "sitemaps", "sampling"],
    },
    { label: "Looking the site up on Wikidata, Wikipedia and Common Crawl", steps: ["offsite"] },
    { label: "Rendering the pages in a browser", steps: ["rendering"], rendering: true },
    { label: "Scoring every signal and writing the fixes", steps: ["scoring", "saving"] },
  ],
  home: VisibilityHome,
  report: visibilityReport,
  exports: { markdown: visibilityMarkdown, html: visibilityHtml, sarif: visibilitySarif },
  badge: visibilityBadge,
  mcp: visibilityMcp,
};
