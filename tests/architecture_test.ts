/**
 * The shape of the code base, checked on the import graph of the program (main.ts, mod.ts, lib/,
 * routes/, islands/): no cycle, not even between folders; route modules never import the server,
 * the route list or each other; the scanners' folders (lib/visibility, lib/schema) never import
 * each other (shared code is in lib/structured); views are pure (lib/ui imports neither lib/web nor
 * hono); lib/storage builds no limit and lib/limits imports nothing of lib/storage; small shared
 * helpers live with what they describe; only the composition roots import a service folder; KV keys
 * are laid out in lib/storage only; no module branches on a service's name; and no file is named
 * as a half of another. (A line cap is not a rule: it split files by size, not by concept.)
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

/** The modules that put the program together: the only ones that may import route modules. */
const ROUTE_IMPORTERS = new Set(["lib/routes.ts", "lib/app.ts"]);

Deno.test("architecture - routes import neither the server, the route list nor another route; only the list and the app import routes", async () => {
  const graph = await importGraph();
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    for (const t of targets) {
      if (file.startsWith("routes/")) {
        if (t.startsWith("routes/") || t === "lib/server.ts" || ROUTE_IMPORTERS.has(t)) {
          bad.push(`${file} -> ${t}`);
        }
      } else if (t.startsWith("routes/") && !ROUTE_IMPORTERS.has(file)) {
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
    // A feature folder owns its store (issue 45's layout: lib/features/<name>/<name>_store.ts, the
    // key layout at its top), like lib/storage/'s modules.
    if (/^lib\/features\/[^/]+\/[^/]+_store\.ts$/.test(f)) continue;
    if (writesKvKey(await Deno.readTextFile(join(ROOT, f)))) bad.push(f);
  }
  assertEquals(bad, []);
});

Deno.test("architecture - no module branches on a service's name (what differs lives in the service definition)", async () => {
  // A service's folder (lib/services/<name>/) defines it; every other module reads
  // `service.words`, a ServiceDef field, or a table keyed by the name.
  const branch =
    /[!=]==?\s*["'](?:schema|visibility)["']|["'](?:schema|visibility)["']\s*[!=]==?|case\s+["'](?:schema|visibility)["']\s*:/;
  const found: string[] = [];
  for (const f of await programFiles()) {
    if (f.startsWith("lib/services/")) continue;
    const lines = (await Deno.readTextFile(join(ROOT, f))).split("\n");
    lines.forEach((line, i) => {
      if (branch.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assertEquals(found, []);
});

/**
 * The unit of layering a file belongs to: a folder of lib/ (each service folder,
 * lib/services/<name>/, on its own), a loose file of lib/, routes/, and the views (lib/ui/ and
 * islands/, one layer: pages render islands, islands reuse small view pieces).
 */
export function unitOf(file: string): string {
  const p = file.split("/");
  if (p[0] === "islands" || (p[0] === "lib" && p[1] === "ui")) return "views";
  if (p[0] !== "lib") return p[0];
  if (p[1] === "services" && p.length > 3) return p.slice(0, 3).join("/");
  return p.length > 2 ? p.slice(0, 2).join("/") : file;
}

/** Pairs of units that import each other: "a <-> b" with one file import each way. */
export function mutualUnits(graph: Map<string, string[]>): Map<string, string[]> {
  const edges = new Map<string, string>();
  for (const [file, targets] of graph) {
    for (const t of targets) {
      const [a, b] = [unitOf(file), unitOf(t)];
      if (a !== b && !edges.has(`${a}|${b}`)) edges.set(`${a}|${b}`, `${file} -> ${t}`);
    }
  }
  const out = new Map<string, string[]>();
  for (const [key, example] of edges) {
    const [a, b] = key.split("|");
    const back = edges.get(`${b}|${a}`);
    if (back && a < b) out.set(`${a} <-> ${b}`, [example, back]);
  }
  return out;
}

Deno.test("architecture - the unit finder groups files and finds two units importing each other", () => {
  assertEquals(
    ["lib/ui/layout.tsx", "islands/ScanForm.tsx", "lib/services/schema/home.tsx", "lib/app.ts"]
      .map(unitOf),
    ["views", "views", "lib/services/schema", "lib/app.ts"],
  );
  const graph = new Map([
    ["lib/a/x.ts", ["lib/b/y.ts"]],
    ["lib/b/y.ts", []],
    ["lib/b/z.ts", ["lib/a/w.ts"]],
    ["lib/a/w.ts", []],
  ]);
  assertEquals([...mutualUnits(graph).keys()], ["lib/a <-> lib/b"]);
});

/**
 * Units that still import each other, each with the slice that owns the fix (remove a line when it
 * is done; the test fails if a listed pair no longer imports both ways, so the list only shrinks).
 * None is left.
 */
const MUTUAL_ALLOWED: Record<string, string> = {};

Deno.test("architecture - no two units import each other (layering without exceptions)", async () => {
  const mutual = mutualUnits(await importGraph());
  const bad = [...mutual].filter(([pair]) => !(pair in MUTUAL_ALLOWED))
    .map(([pair, files]) => `${pair}: ${files.join(" / ")}`);
  assertEquals(bad, []);
  const fixed = Object.keys(MUTUAL_ALLOWED).filter((pair) => !mutual.has(pair));
  assertEquals(fixed, [], "no longer mutual: remove it from MUTUAL_ALLOWED");
});

Deno.test("architecture - views are pure: lib/ui and islands import neither lib/web nor hono", async () => {
  const bad: string[] = [];
  const graph = await importGraph();
  for (const [file, targets] of graph) {
    if (unitOf(file) !== "views") continue;
    for (const t of targets) if (t.startsWith("lib/web/")) bad.push(`${file} -> ${t}`);
    const source = await Deno.readTextFile(join(ROOT, file));
    if (/\bfrom\s+["']hono(?:\/[^"']*)?["']/.test(source)) bad.push(`${file} -> hono`);
  }
  assertEquals(bad, []);
});

Deno.test("architecture - lib/storage builds no limit, and lib/limits imports nothing of lib/storage", async () => {
  const bad: string[] = [];
  const graph = await importGraph();
  for (const [file, targets] of graph) {
    if (file.startsWith("lib/limits/")) {
      for (const t of targets) if (t.startsWith("lib/storage/")) bad.push(`${file} -> ${t}`);
    }
    if (!file.startsWith("lib/storage/")) continue;
    const code = (await Deno.readTextFile(join(ROOT, file))).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const m of code.matchAll(/new\s+(?:KvLimiter|RedisLimiter)\s*\(|\badmissionFor\s*\(/g)) {
      bad.push(`${file}: ${m[0]}`);
    }
  }
  assertEquals(bad, []);
});

/** Small helpers shared across layers, and the one module each lives in: what it describes. */
const HELPER_HOMES: Record<string, string> = {
  // An IPv6 client's /48: the client address (used by the limits, accounts and /mcp).
  ipv6Prefix48: "lib/net/client_ip.ts",
  clientIp: "lib/net/client_ip.ts",
  // The sign-in attempt window: a limit, beside LIMITS and CAPS.
  AUTH_ATTEMPTS: "lib/limits/limits.ts",
  // What a user typed -> the site a scan is of (used by both scanners, the API, MCP, the CLI).
  normaliseTarget: "lib/net/target.ts",
};

Deno.test("architecture - small shared helpers live with what they describe, defined once", async () => {
  const found: Record<string, string[]> = {};
  for (const f of await programFiles()) {
    const source = await Deno.readTextFile(join(ROOT, f));
    for (const name of Object.keys(HELPER_HOMES)) {
      const re = new RegExp(`\\bexport\\s+(?:const|function|let|class)\\s+${name}\\b`);
      if (re.test(source)) (found[name] ??= []).push(f);
    }
  }
  assertEquals(
    found,
    Object.fromEntries(Object.entries(HELPER_HOMES).map(([name, home]) => [name, [home]])),
  );
});

/**
 * The composition roots: the only modules that may import a service folder (lib/server.ts builds
 * the registry; the CLI is the visibility service's command line and takes its words and exports).
 */
const SERVICE_IMPORTERS = new Set(["lib/server.ts", "lib/cli.ts"]);

Deno.test("architecture - only the composition roots import a service folder; a service folder imports no other; the contract imports types only", async () => {
  const graph = await importGraph();
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    for (const t of targets) {
      const folder = unitOf(t);
      if (!folder.startsWith("lib/services/") || unitOf(file) === folder) continue;
      if (!SERVICE_IMPORTERS.has(file)) bad.push(`${file} -> ${t}`);
    }
  }
  const contract = await Deno.readTextFile(join(ROOT, "lib/service.ts"));
  for (const line of contract.split("\n")) {
    if (/^import\s/.test(line) && !/^import\s+type\s/.test(line)) {
      bad.push(`lib/service.ts: ${line}`);
    }
  }
  assertEquals(bad, []);
});

/** A file named as a piece of something: "_parts", "_finish", "_rest", "_extras", "_2"... */
const PIECE_NAME = /_(?:parts?|finish|rest|more|extras?|misc|continued|\d+)$/;

/**
 * The files named as halves of another: a name of a piece (see {@link PIECE_NAME}), or two or more
 * siblings `S_x` of a module `S` that nothing but `S` (and each other) imports, the way one table
 * cut in two by topic reads (`google_rules_commerce` / `google_rules_content`). A module loaded as
 * a thread or worker entry (`new URL("./x.ts", import.meta.url)`) is a whole of its own.
 */
export function halfFiles(graph: Map<string, string[]>, entries: Set<string>): string[] {
  const importers = new Map<string, string[]>();
  for (const [file, targets] of graph) {
    for (const t of targets) importers.set(t, [...(importers.get(t) ?? []), file]);
  }
  const stem = (f: string) => f.replace(/\.tsx?$/, "");
  const out = new Set<string>();
  for (const f of graph.keys()) if (PIECE_NAME.test(stem(f))) out.add(f);
  for (const s of graph.keys()) {
    const pieces = [...graph.keys()].filter((f) =>
      stem(f).startsWith(`${stem(s)}_`) && !stem(f).slice(stem(s).length + 1).includes("/") &&
      !entries.has(f) &&
      (importers.get(f) ?? []).every((i) => i === s || stem(i).startsWith(`${stem(s)}_`))
    );
    if (pieces.length >= 2) { for (const f of pieces) out.add(f); }
  }
  return [...out].sort();
}

Deno.test("architecture - the half finder finds piece names and a table cut in two", () => {
  const graph = new Map([
    ["lib/a/rules.ts", ["lib/a/rules_one.ts", "lib/a/rules_two.ts"]],
    ["lib/a/rules_one.ts", []],
    ["lib/a/rules_two.ts", []],
    ["lib/a/store.ts", ["lib/a/store_keys.ts"]],
    ["lib/a/store_keys.ts", []],
    ["lib/a/other.ts", ["lib/a/store_keys.ts"]],
    ["lib/a/gen_finish.ts", []],
    ["lib/a/pool.ts", ["lib/a/pool_thread.ts", "lib/a/pool_wasm.ts"]],
    ["lib/a/pool_thread.ts", ["lib/a/pool_wasm.ts"]],
    ["lib/a/pool_wasm.ts", []],
  ]);
  assertEquals(halfFiles(graph, new Set(["lib/a/pool_thread.ts"])), [
    "lib/a/gen_finish.ts",
    "lib/a/rules_one.ts",
    "lib/a/rules_two.ts",
  ]);
});

/**
 * Files still named as halves, each with the slice that owns it (it renames or merges them; remove
 * the line then: the test fails if a listed file is no longer a half, so the list only shrinks).
 */
const HALVES_ALLOWED: Record<string, string> = {};

Deno.test("architecture - no file is named as a half of another", async () => {
  const graph = await importGraph();
  const entries = new Set<string>();
  for (const f of graph.keys()) {
    const source = await Deno.readTextFile(join(ROOT, f));
    for (
      const m of source.matchAll(
        /new URL\(\s*["'](\.{1,2}\/[^"']+\.tsx?)["']\s*,\s*import\.meta\.url/g,
      )
    ) {
      entries.add(relative(ROOT, join(ROOT, dirname(f), m[1])));
    }
  }
  const halves = halfFiles(graph, entries);
  assertEquals(halves.filter((f) => !(f in HALVES_ALLOWED)), [], "name the file for its concept");
  assertEquals(
    Object.keys(HALVES_ALLOWED).filter((f) => !halves.includes(f)),
    [],
    "no longer a half: remove it from HALVES_ALLOWED",
  );
});
