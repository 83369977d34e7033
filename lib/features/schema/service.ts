/**
 * The Schema Markup Generator, whole: its words, scanner (the page the URL names, lib/engines/schema/),
 * progress steps, home page, report page, export bodies, badge and MCP adapter (lib/service.ts
 * ServiceDef). The composition root (lib/app/server.ts) registers it.
 */
import type { ServiceDef } from "../../service.ts";
import { type SchemaScanRecord, SchemaScanRecordSchema } from "../../engines/structured/record.ts";
import { run, type SchemaStep } from "./scanner.ts";
import { SCHEMA_WORDS } from "./words.ts";
import { SchemaHome } from "./home.tsx";
import { schemaReport } from "./report.tsx";
import { schemaMarkdown } from "./export_markdown.ts";
import { schemaHtml } from "./export_html.tsx";
import { schemaSarif } from "./sarif.ts";
import { schemaBadge } from "./badge.ts";
import { schemaMcp } from "./mcp.ts";

/** The Schema Markup Generator. */
export const schemaService: ServiceDef<SchemaScanRecord, SchemaStep> = {
  name: "schema",
  words: SCHEMA_WORDS,
  title: SCHEMA_WORDS.title,
  rescanTarget: (record) => record.url ?? record.domain,
  watchTarget: "page",
  keyPrefix: "usk_",
  recordSchema: SchemaScanRecordSchema,
  run,
  scanner: new URL("./scanner.ts", import.meta.url),
  // What a scan does, for the progress card: each row with the typed steps that put a scan on it
  // (./scanner.ts SchemaStep; "starting" and "saving" are the worker's own).
  progress: [
    { label: "Waiting for a free scanner", steps: [] },
    { label: "Fetching the page and reading its structured data", steps: ["starting", "fetching"] },
    {
      label: "Rendering the page in a browser: the structured data scripts add",
      steps: ["rendering"],
      rendering: true,
    },
    {
      label: "Checking it against schema.org and Google's rules, writing the JSON-LD to paste",
      steps: ["validating", "saving"],
    },
  ],
  // Render where a browser is at hand, as Google's Rich Results Test does (render: false opts
  // out). A record answers only the same choice: a rendering request is not answered by a record
  // without the render, an opted-out one not by a rendered record.
  rendersByDefault: true,
  wasRendered: (record) => record.result?.rendered !== undefined,
  servesCached: (record, target) =>
    record.url === (target.pageUrl ?? target.url) &&
    (record.status === "failed" ||
      (target.render === true) === (record.result?.rendered !== undefined)),
  summary: "finds a page's structured data, validates it and generates JSON-LD to paste",
  failedRecordFields: (target) => ({ url: target.pageUrl ?? target.url }),
  validatesCode: true,
  home: SchemaHome,
  report: schemaReport,
  exports: { markdown: schemaMarkdown, html: schemaHtml, sarif: schemaSarif },
  badge: schemaBadge,
  mcp: schemaMcp,
};
