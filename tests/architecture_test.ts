/**
 * The shape of the code base, checked: the import graph of the program (main.ts, mod.ts, lib/,
 * routes/, islands/) has no cycle, route modules never import the server or each other, and the
 * two services' folders (lib/visibility, lib/schema) never import each other (shared code is in
 * lib/structured).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));
const ROOTS = ["main.ts", "mod.ts", "lib", "routes", "islands"];

/** Every .ts/.tsx file under the program's roots, relative to the repository. */
export async function programFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    const info = await Deno.stat(join(ROOT, rel));
    if (info.isFile) {
      if (/\.(ts|tsx)$/.test(rel)) out.push(rel);
      return;
    }
    for await (const e of Deno.readDir(join(ROOT, rel))) await walk(join(rel, e.name));
  };
  for (const r of ROOTS) await walk(r);
  return out.sort();
}

/**
 * The relative module specifiers of a source file: static `import ... from`, `export ... from`,
 * side-effect `import "..."` and dynamic `import("...")` with a literal (a worker's module URL too).
 * `import type` counts: a type-only cycle is still a tangle.
 */
export function relativeImports(source: string): string[] {
  const specs = new Set<string>();
  // Comments could mention imports; strip them (roughly: block comments and whole-line ones).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /new URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const re of patterns) {
    for (const m of code.matchAll(re)) if (m[1].startsWith(".")) specs.add(m[1]);
  }
  return [...specs];
}

/** The graph: file -> files it imports (only files inside the program's roots). */
export async function importGraph(): Promise<Map<string, string[]>> {
  const files = await programFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const source = await Deno.readTextFile(join(ROOT, f));
    const targets = relativeImports(source)
      .map((s) => relative(ROOT, join(ROOT, dirname(f), s)))
      .filter((t) => known.has(t));
    graph.set(f, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by a depth-first search (each reported once, from its first file). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next);
      if (s === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!s) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

Deno.test("architecture - the cycle finder finds a cycle and passes a tree", () => {
  const cyclic = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
  assertEquals(findCycles(cyclic), [["a", "b", "c", "a"]]);
  assertEquals(findCycles(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]])), []);
  assertEquals(
    relativeImports(
      `import { x } from "./x.ts";\nimport type {\n  Y,\n} from "../y.ts";\nexport * from "./z.ts";\n` +
        `import "./side.ts";\nconst m = await import("./lazy.ts");\nimport { h } from "hono";`,
    ).sort(),
    ["../y.ts", "./lazy.ts", "./side.ts", "./x.ts", "./z.ts"],
  );
});

Deno.test("architecture - the program's import graph has no cycle", async () => {
  const cycles = await importGraph().then(findCycles);
  assertEquals(cycles.map((c) => c.join(" -> ")), []);
});

Deno.test("architecture - routes import neither the server nor another route", async () => {
  const graph = await importGraph();
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith("routes/")) continue;
    for (const t of targets) {
      if (t.startsWith("routes/") || t === "lib/server.ts" || t === "lib/app.ts") {
        bad.push(`${file} -> ${t}`);
      }
    }
  }
  assertEquals(bad, []);
});

/**
 * The two services' folders never import each other: what both use (structured-data extraction,
 * validation and generation, the page's JSON-LD graph and site name) lives in lib/structured/,
 * which imports neither service.
 */
Deno.test("architecture - lib/visibility and lib/schema never import each other; lib/structured imports neither", async () => {
  const graph = await importGraph();
  const forbidden: Record<string, string[]> = {
    "lib/visibility/": ["lib/schema/"],
    "lib/schema/": ["lib/visibility/"],
    "lib/structured/": ["lib/visibility/", "lib/schema/"],
  };
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    const from = Object.keys(forbidden).find((dir) => file.startsWith(dir));
    if (!from) continue;
    for (const t of targets) {
      if (forbidden[from].some((dir) => t.startsWith(dir))) bad.push(`${file} -> ${t}`);
    }
  }
  assertEquals(bad, []);
});

/** The longest a source file under lib/, routes/ or islands/ may be. */
const MAX_LINES = 400;

/**
 * Files allowed over {@link MAX_LINES} (none today). A file not listed that grows past the limit
 * fails; a listed file that is back under the limit fails too, so the list only shrinks.
 */
const OVER_LIMIT = new Set<string>([]);

/** Lines of a text (as `wc -l` counts them, plus a last line without a newline). */
export function lineCount(text: string): number {
  if (!text) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

Deno.test("architecture - the line counter counts lines, a last one without a newline too", () => {
  assertEquals([lineCount(""), lineCount("a\n"), lineCount("a\nb"), lineCount("a\nb\n")], [
    0,
    1,
    2,
    2,
  ]);
});

Deno.test(`architecture - no source file under lib/, routes/, islands/ is over ${MAX_LINES} lines`, async () => {
  const over: string[] = [];
  const back: string[] = [];
  for (const f of await programFiles()) {
    if (!/^(lib|routes|islands)\//.test(f)) continue;
    const lines = lineCount(await Deno.readTextFile(join(ROOT, f)));
    if (lines > MAX_LINES && !OVER_LIMIT.has(f)) over.push(`${f}: ${lines} lines`);
    if (lines <= MAX_LINES && OVER_LIMIT.has(f)) back.push(`${f}: ${lines} lines`);
  }
  assertEquals(over, [], "split the file along its seams");
  assertEquals(back, [], "now under the limit: remove it from OVER_LIMIT");
});

/**
 * A KV key written out in a source file: a literal array given to a KV call or an atomic
 * operation, a `prefix: [...]` listing, or a `Deno.KvKey` constant.
 */
const KV_KEY_LITERAL = [
  /\b(?:kv|op)\.(?:get|getMany|set|delete|list|check|sum|min|max)\(\s*(?:\{\s*key:\s*)?\[\s*["'`]/,
  /\bprefix:\s*\[\s*["'`]/,
  /:\s*Deno\.KvKey\s*=\s*\[/,
];

/** Whether a source text writes out a KV key (see {@link KV_KEY_LITERAL}). */
export function writesKvKey(source: string): boolean {
  return KV_KEY_LITERAL.some((re) => re.test(source));
}

Deno.test("architecture - the KV key finder finds keys written out", () => {
  assertEquals(
    [
      `await kv.get(["health"]);`,
      `op.set(["jobs", id], job);`,
      `for await (const e of kv.list({ prefix: ["secrets"] })) {}`,
      `const K: Deno.KvKey = ["kv_opened_by"];`,
      `await kv.get(secretKey(name));`,
      `const words = ["a", "b"];`,
    ].map(writesKvKey),
    [true, true, true, true, false, false],
  );
});

Deno.test("architecture - KV keys are laid out only in lib/storage/ (one module per store)", async () => {
  const bad: string[] = [];
  for (const f of await programFiles()) {
    if (f.startsWith("lib/storage/")) continue;
    if (writesKvKey(await Deno.readTextFile(join(ROOT, f)))) bad.push(f);
  }
  assertEquals(bad, []);
});

Deno.test("architecture - no module branches on a service's name (what differs lives in the service definition)", async () => {
  // lib/service.ts and lib/service_words.ts define the services; every other module reads
  // `service.words`, a ServiceDef field, or a table keyed by the name.
  const branch =
    /[!=]==?\s*["'](?:schema|visibility)["']|["'](?:schema|visibility)["']\s*[!=]==?|case\s+["'](?:schema|visibility)["']\s*:/;
  const found: string[] = [];
  for (const f of await programFiles()) {
    if (f === "lib/service.ts" || f === "lib/service_words.ts") continue;
    const lines = (await Deno.readTextFile(join(ROOT, f))).split("\n");
    lines.forEach((line, i) => {
      if (branch.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assertEquals(found, []);
});
