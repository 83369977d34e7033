/**
 * The server's thread parses nothing untrusted (issue 39; docs/security.md, "What runs where"):
 * the text of a scanned page, a robots.txt, a sitemap, an llms.txt, a header, a vendor's answer or
 * pasted code is parsed in a worker (lib/kit/isolate/process_pool.ts), where its time and memory
 * are bounded for certain, never on the thread that answers every request.
 *
 * Enforced on the import graph, as tests/security/outbound_test.ts enforces the one fetcher:
 * - **the worker roots** are the modules workers load by URL: each registered service's scanner
 *   and each registered job kind's module (lib/app/server.ts SERVICES and JOB_KINDS), read here
 *   from the registries themselves, so a job a feature adds is a root at once;
 * - **the parsers** are the modules that read such text ({@link PARSERS}: the HTML and structured
 *   data engines, the scan flows, the visibility parsers, the rendering, the off-site readers, and
 *   the worker roots themselves);
 * - **the server's own modules** are those main.ts reaches by value imports (a Web Worker started
 *   on a module counts as importing it: the thread runs in the server's process, where Deno cannot
 *   stop it) that no worker root reaches: what only the server's thread runs (routes, the web edge, stores, the features' route
 *   handlers, answer presence's plans and calls, watches, MCP);
 * - **the rule**: no server module imports a value (a function, a class, an object) from a
 *   parser, except the few uses listed in {@link ALLOWED}, each with why it parses nothing a
 *   stranger sent. Type imports are free: they are erased.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { JOB_KINDS, SERVICES } from "../../lib/app/server.ts";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), "..", ".."));

/** Modules (prefixes of paths) that read untrusted text, and what they read. */
const PARSERS: Record<string, string> = {
  "lib/engines/html/": "a page's HTML",
  "lib/engines/structured/": "JSON-LD, microdata, RDFa; validation and generation from them",
  "lib/engines/schema/": "the schema service's scan of a page",
  "lib/engines/render/": "rendered pages and what their scripts request",
  "lib/engines/offsite/": "Wikidata, Wikipedia and Common Crawl answers",
  "lib/engines/visibility/robots": "robots.txt",
  "lib/engines/visibility/llms_txt.ts": "llms.txt",
  "lib/engines/visibility/sitemap.ts": "sitemaps",
  "lib/engines/visibility/directives.ts": "X-Robots-Tag and robots meta directives",
  "lib/engines/visibility/link_header.ts": "Link headers",
  "lib/engines/visibility/usage_prefs.ts": "Content-Signal and Content-Usage",
  "lib/engines/visibility/snapshot.ts": "everything a scan fetches",
  "lib/engines/visibility/scan.ts": "the visibility scan",
  "lib/engines/visibility/audit/": "the site audit's pages",
  "lib/engines/visibility/edge_probe.ts": "the edge's answers to crawlers",
  "lib/features/answers/site_facts.ts": "a watched site's home page",
  "lib/features/answers/vendor_answer.ts": "a vendor's answer",
  "lib/features/answers/presence.ts": "the text of a vendor's answer",
  "lib/features/validate/validate_job.ts": "pasted code",
  "lib/features/logs/read_log.ts": "an access log (an upload, the MCP tool's text)",
  "lib/features/logs/formats": "an access log's lines, in each format",
  "lib/features/logs/detect.ts": "a log's first lines",
  "lib/features/logs/text_scan.ts": "a log's text",
  "lib/features/logs/crawler_match.ts": "a log line's User-Agent",
  "lib/features/logs/judge.ts": "a crawler hit's address and signature",
  "lib/features/logs/web_bot_auth.ts": "Web Bot Auth signature headers",
  "lib/features/logs/key_directory.ts": "a signing agent's key directory",
  "lib/features/logs/ip_ranges.ts": "the vendors' published address lists",
  "lib/features/logs/ip_trie.ts": "addresses and address ranges",
  "lib/features/logs/report.ts": "a site's robots.txt, joined with its crawlers' fetches",
  "lib/features/logs/analyse.ts": "a log and a robots.txt (the library's one call, the CLI's)",
};

/** Files under a parser's prefix that read no stranger's text, and what they do instead. */
const NOT_PARSERS: Record<string, string> = {
  "lib/engines/structured/record.ts": "the record's shapes (zod): our own stored records, the API",
  "lib/engines/structured/finding_log.ts": "counts and words of a finding list (numbers)",
  "lib/engines/structured/page_view.ts":
    "the words and counts of a page's merged view, from a scan's result (nothing is parsed)",
  "lib/engines/visibility/audit/format_pages.ts": "a stored record's sampled pages as text",
};

/**
 * Value imports from parsers that the server's own modules make, and why each parses nothing a
 * stranger sent. Key: "importer -> parser"; value: the names, and the reason. Constants
 * (SCREAMING_CASE names: caps, time limits) are never a parse and need no entry.
 */
const ALLOWED: Record<string, { names: string[]; why: string }> = {
  "lib/app/server.ts -> lib/kit/limits/record_budget.ts": {
    names: ["setStoredRecordSummariser"],
    why:
      "wiring: hands over where oversized records are summarised (the workers' bound-record job)",
  },
  "lib/features/visibility/service.ts -> lib/features/visibility/scanner.ts": {
    names: ["run"],
    why: "ServiceDef.run: the inline runner's scans (Deno Deploy, SCAN_ISOLATION=inline, tests); " +
      "with workers the scan worker calls runner.run (lib/engines/scan/worker.ts), never this",
  },
  "lib/features/schema/service.ts -> lib/features/schema/scanner.ts": {
    names: ["run"],
    why: "as the visibility service's run: inline scans only",
  },
  "lib/kit/storage/store.ts -> lib/kit/limits/record_budget.ts": {
    names: ["parseStoredRecord", "storedSummary"],
    why: "our own stored records, at most 1 MiB (JSON.parse, linear); one over it is summarised " +
      "by the workers' bound-record job",
  },
  "lib/kit/storage/history.ts -> lib/kit/limits/record_budget.ts": {
    names: ["parseStoredRecord"],
    why: "as the store: our own kept records, bounded",
  },
  "lib/features/validate/validate_request.ts -> lib/features/validate/validate_job.ts": {
    names: ["ValidateRequestSchema", "ValidateResponseSchema"],
    why: "the OpenAPI document's request and response shapes (zod), re-exported for the route; " +
      "the validation itself runs in a worker (the validate-code job)",
  },
  "lib/features/answers/plan.ts -> lib/features/answers/site_facts.ts": {
    names: ["bare"],
    why: "the facts of a page that could not be read: the domain and a reason, nothing parsed",
  },
  "lib/features/answers/plan.ts -> lib/features/answers/presence.ts": {
    names: ["siteOf"],
    why: "the registrable domain of the domain the owner typed (a host name, 253 characters)",
  },
  "lib/features/answers/cited_pages.ts -> lib/features/answers/presence.ts": {
    names: ["siteOf"],
    why: "the registrable domain of the site and of stored sources' hosts (our own samples; a " +
      "source's URL is at most 500 characters)",
  },
  "lib/features/answers/ask.ts -> lib/features/answers/presence.ts": {
    names: ["siteOf"],
    why: "as the plan: the site's own domain",
  },
  "lib/features/answers/questions.ts -> lib/features/answers/presence.ts": {
    names: ["namesSite", "siteOf"],
    why: "whether a question names the site: the owner's questions (QUESTION_CHARS) and the " +
      "defaults built from facts clipped to 80 characters, searched for the brand and the " +
      "domain as plain text (lib/kit/text/occurrences.ts, linear)",
  },
};

/**
 * Parses of untrusted text on the server's thread that are known and still to move into a worker
 * job, each with whose work moves it and what it costs until then. Not allowed: listed, so that
 * nothing new joins them unseen. The list only shrinks.
 */
const PENDING: Record<string, { names: string[]; owner: string; why: string }> = {};

/** Every program file (main.ts, mod.ts, lib/, routes/, islands/), relative to the root. */
async function programFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    const info = await Deno.stat(join(ROOT, rel));
    if (info.isFile) {
      if (/\.(ts|tsx)$/.test(rel)) out.push(rel);
      return;
    }
    for await (const e of Deno.readDir(join(ROOT, rel))) await walk(join(rel, e.name));
  };
  for (const r of ["main.ts", "mod.ts", "lib", "routes", "islands"]) await walk(r);
  return out.sort();
}

/** One import of a module: the file it names and the values it takes ("*": all of them). */
export interface ValueImport {
  from: string;
  names: string[];
}

/**
 * The value imports of a source file (relative specifiers only): `import { a, b as c }`,
 * `import X`, `import * as ns`, `export { a } from`, `export * from`, side-effect imports,
 * literal dynamic imports, and the module of a Web Worker it starts (`new Worker(new URL(...))`).
 * Type-only imports (`import type`, `export type`, `{ type T }`) are left out: they are erased.
 */
export function valueImports(source: string): { spec: string; names: string[] }[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: { spec: string; names: string[] }[] = [];
  const clause = /\b(import|export)\s+(type\s+)?([^'";]*?)\s*\bfrom\s*["']([^"']+)["']/g;
  for (const m of code.matchAll(clause)) {
    if (m[2] || !m[4].startsWith(".")) continue;
    const what = m[3].trim();
    const names: string[] = [];
    const braces = what.match(/\{([\s\S]*)\}/);
    if (braces) {
      for (const part of braces[1].split(",")) {
        const p = part.trim();
        if (!p || p.startsWith("type ")) continue;
        names.push(p.split(/\s+as\s+/)[0].trim());
      }
    }
    const outside = what.replace(/\{[\s\S]*\}/, "").replace(/,/g, " ").trim();
    if (outside === "*" || /\*\s+as\s+\w+/.test(outside)) names.push("*");
    else if (outside && m[1] === "import") names.push("default");
    if (names.length) out.push({ spec: m[4], names });
  }
  for (const m of code.matchAll(/\bimport\s*["']([^"']+)["']/g)) {
    if (m[1].startsWith(".")) out.push({ spec: m[1], names: ["*"] });
  }
  for (const m of code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) {
    if (m[1].startsWith(".")) out.push({ spec: m[1], names: ["*"] });
  }
  for (const m of code.matchAll(/\bnew\s+Worker\s*\(\s*new\s+URL\s*\(\s*["']([^"']+)["']/g)) {
    if (m[1].startsWith(".")) out.push({ spec: m[1], names: ["*"] });
  }
  return out;
}

/** The graph of value imports: file -> what it imports from each program file. */
async function valueGraph(): Promise<Map<string, ValueImport[]>> {
  const files = await programFiles();
  const known = new Set(files);
  const graph = new Map<string, ValueImport[]>();
  for (const f of files) {
    const source = await Deno.readTextFile(join(ROOT, f));
    graph.set(
      f,
      valueImports(source)
        .map(({ spec, names }) => ({ from: relative(ROOT, join(ROOT, dirname(f), spec)), names }))
        .filter((i) => known.has(i.from)),
    );
  }
  return graph;
}

/** Every file reachable from `roots` by value imports. */
function reach(graph: Map<string, ValueImport[]>, roots: string[]): Set<string> {
  const seen = new Set(roots);
  const todo = [...roots];
  while (todo.length) {
    for (const i of graph.get(todo.pop()!) ?? []) {
      if (!seen.has(i.from)) {
        seen.add(i.from);
        todo.push(i.from);
      }
    }
  }
  return seen;
}

/** The worker roots: the registered services' scanners and job kinds' modules. */
function workerRoots(): string[] {
  const urls = [
    ...Object.values(SERVICES).map((s) => s.scanner),
    ...JOB_KINDS.map((k) => k.module),
  ];
  return urls.map((u) => relative(ROOT, fileURLToPath(u)));
}

const isParser = (file: string, roots: Set<string>) =>
  roots.has(file) || (!NOT_PARSERS[file] && Object.keys(PARSERS).some((p) => file.startsWith(p)));

/** A constant's name (a cap, a time limit): importing it runs nothing. */
const CONSTANT = /^[A-Z][A-Z0-9_]*$/;

Deno.test("[security/server thread] the import reader sees value imports and leaves types out", () => {
  const seen = valueImports(`
import { a, b as c, type T } from "./x.ts";
import type { U } from "./types.ts";
import D from "./d.ts";
import * as ns from "./ns.ts";
export { e } from "./e.ts";
export type { F } from "./f.ts";
import "./side.ts";
const m = await import("./lazy.ts");
const w = new Worker(new URL("./thread.ts", import.meta.url), { type: "module" });
import { h } from "hono";
/** import { z } from "./comment.ts"; */
`);
  assert.deepEqual(seen, [
    { spec: "./x.ts", names: ["a", "b"] },
    { spec: "./d.ts", names: ["default"] },
    { spec: "./ns.ts", names: ["*"] },
    { spec: "./e.ts", names: ["e"] },
    { spec: "./side.ts", names: ["*"] },
    { spec: "./lazy.ts", names: ["*"] },
    { spec: "./thread.ts", names: ["*"] },
  ]);
});

Deno.test("[security/server thread] the server's own modules import no parser of untrusted text", async () => {
  const graph = await valueGraph();
  const roots = workerRoots();
  for (const r of roots) assert.ok(graph.has(r), `worker root ${r} is a program file`);
  const rootSet = new Set(roots);
  // What workers run, and what only the server's thread runs.
  const workers = reach(graph, roots);
  const server = [...reach(graph, ["main.ts"])].filter((f) => !workers.has(f));
  assert.ok(server.length > 100, `${server.length} server modules`);
  // Each parser prefix names real files.
  const files = [...graph.keys()];
  for (const p of Object.keys(PARSERS)) {
    assert.ok(files.some((f) => f.startsWith(p)), `${p} names no file`);
  }
  for (const f of Object.keys(NOT_PARSERS)) assert.ok(graph.has(f), `${f} is no file`);
  const bad: string[] = [];
  const used = new Set<string>();
  for (const file of server) {
    for (const i of graph.get(file)!) {
      if (!isParser(i.from, rootSet)) continue;
      const key = `${file} -> ${i.from}`;
      const allowed = ALLOWED[key] ?? PENDING[key];
      const extra = i.names.filter((n) => !CONSTANT.test(n) && !allowed?.names.includes(n));
      if (extra.length) bad.push(`${key}: ${extra.join(", ")}`);
      else used.add(key);
    }
  }
  assert.deepEqual(bad, []);
  // The allowed and pending uses are still there (a stale entry is removed: the lists only shrink).
  assert.deepEqual(Object.keys({ ...ALLOWED, ...PENDING }).filter((k) => !used.has(k)), []);
  for (const [key, p] of Object.entries(PENDING)) {
    console.log(`pending: ${key} (${p.names.join(", ")}): ${p.why}; moves with ${p.owner}`);
  }
});
