/**
 * The shape of the code base, checked on the import graph of the program (main.ts, mod.ts, lib/,
 * routes/, islands/). lib/ shows its tiers: the app and its composition roots (lib/app/, with
 * main.ts, mod.ts and routes/), the features (lib/features/<name>/), the engines (lib/engines/), the
 * kit (lib/kit/) and the service contract (lib/service.ts). A feature is a folder: it imports the
 * kit, the engines and the contract, never another feature's files, and nothing but the app imports
 * a feature (no exception: features meet through the app's lists and sections). The kit imports no
 * engine, feature or app (but the config reads the features' settings slices), an engine no
 * feature or app. No cycle, not even between folders; route modules never import the server, a route list or each
 * other; the scanners' engines (visibility, schema) never import each other (shared code is in
 * lib/engines/structured); views are pure (they import neither lib/kit/web nor hono); stores build
 * no limit and lib/kit/limits imports no store; small shared helpers live with what they describe;
 * KV keys are laid out in lib/kit/storage or a feature's own store.ts only; no module branches on a
 * service's name; feature tests mirror their folders; and no file is named as a half of another.
 * (A line cap is not a rule: it split files by size, not by concept.)
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { programFiles } from "./helpers/program_files.ts";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));

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

/** What the top of lib/ holds: one folder per tier, and the service contract. */
const LIB_TOP = ["app", "engines", "features", "kit", "service.ts"];

Deno.test("architecture - the top of lib/ is its tiers: app, features, engines, kit and the contract", async () => {
  const top: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, "lib"))) top.push(e.name);
  assertEquals(top.sort(), LIB_TOP);
});

/**
 * The tier of a file: the app (main.ts, mod.ts, lib/app/ and the routes of no feature, routes/),
 * a feature, an engine, the kit (with islands/, the views the browser hydrates) or the contract.
 */
export function tierOf(file: string): "app" | "feature" | "engine" | "kit" | "contract" {
  const p = file.split("/");
  if (p[0] === "islands") return "kit";
  if (p[0] !== "lib" || p[1] === "app") return "app";
  if (p[1] === "features") return "feature";
  if (p[1] === "engines") return "engine";
  if (p[1] === "kit") return "kit";
  return "contract";
}

/** The folder of the feature a file belongs to (`lib/features/<name>`), or null. */
export function featureOf(file: string): string | null {
  const p = file.split("/");
  return p[0] === "lib" && p[1] === "features" && p.length > 3 ? p.slice(0, 3).join("/") : null;
}

/** A feature's settings slice (`lib/features/<name>/config.ts`), which lib/kit/config.ts reads. */
const SETTINGS_SLICE = /^lib\/features\/[^/]+\/config\.ts$/;
/** The modules of the one typed config, the only reader of the environment. */
const CONFIG_MODULES = /^lib\/kit\/config(?:_[a-z]+)?\.ts$/;

/**
 * The imports that break the feature rule, as "from -> to". There is no exception: features meet
 * through the app (the route and tool lists, the sections the account and report pages render,
 * lib/app/deps.ts), the kit and the service contract.
 */
export function featureRuleBreaks(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    for (const t of targets) {
      const into = featureOf(t);
      const fromApp = tierOf(file) === "app";
      if (tierOf(t) === "app" && !fromApp) out.push(`${file} -> ${t}`);
      if (!into || fromApp || featureOf(file) === into) continue;
      if (CONFIG_MODULES.test(file) && SETTINGS_SLICE.test(t)) continue;
      out.push(`${file} -> ${t}`);
    }
  }
  return out.sort();
}

Deno.test("architecture - the feature rule finder: a feature may import the kit, an engine, itself; the app anything", () => {
  const graph = new Map([
    ["lib/features/a/x.ts", ["lib/kit/k.ts", "lib/engines/e/y.ts", "lib/features/a/z.ts"]],
    ["lib/features/a/w.ts", ["lib/features/b/y.ts", "lib/app/server.ts"]],
    ["lib/kit/c.ts", ["lib/features/b/y.ts"]],
    ["lib/kit/config.ts", ["lib/features/b/config.ts"]],
    ["lib/app/server.ts", ["lib/features/a/x.ts", "lib/features/b/y.ts"]],
    ["routes/index.tsx", ["lib/features/a/x.ts"]],
  ]);
  assertEquals(featureRuleBreaks(graph), [
    "lib/features/a/w.ts -> lib/app/server.ts",
    "lib/features/a/w.ts -> lib/features/b/y.ts",
    "lib/kit/c.ts -> lib/features/b/y.ts",
  ]);
});

Deno.test("architecture - a feature imports the kit, the engines and the contract, never another feature's files; only the app imports the app", async () => {
  assertEquals(featureRuleBreaks(await importGraph()), []);
});

/**
 * The imports that break the tiers' order, as "from -> to": the kit (with islands/) imports only
 * the kit and the contract, except the config's reads of the features' settings slices; an engine
 * imports the kit, the contract and the engines, never a feature or the app.
 */
export function tierBreaks(graph: Map<string, string[]>): string[] {
  const allowed: Record<string, string[]> = {
    kit: ["kit", "contract"],
    engine: ["kit", "contract", "engine"],
  };
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const may = allowed[tierOf(file)];
    if (!may) continue;
    for (const t of targets) {
      if (may.includes(tierOf(t))) continue;
      if (CONFIG_MODULES.test(file) && SETTINGS_SLICE.test(t)) continue;
      out.push(`${file} -> ${t}`);
    }
  }
  return out.sort();
}

Deno.test("architecture - the tier finder: the kit imports the kit and the contract; an engine the kit, the contract, the engines", () => {
  const graph = new Map([
    ["lib/kit/net/f.ts", ["lib/kit/x.ts", "lib/service.ts", "lib/engines/html/d.ts"]],
    ["lib/kit/ui/v.tsx", ["lib/engines/render/view.ts", "lib/features/a/x.ts"]],
    ["islands/I.tsx", ["lib/kit/ui/v.tsx", "lib/app/server.ts"]],
    ["lib/kit/config.ts", ["lib/features/a/config.ts"]],
    ["lib/engines/e/x.ts", ["lib/kit/k.ts", "lib/engines/f/y.ts", "lib/features/a/x.ts"]],
    ["lib/features/a/x.ts", ["lib/engines/e/x.ts", "lib/kit/k.ts"]],
  ]);
  assertEquals(tierBreaks(graph), [
    "islands/I.tsx -> lib/app/server.ts",
    "lib/engines/e/x.ts -> lib/features/a/x.ts",
    "lib/kit/net/f.ts -> lib/engines/html/d.ts",
    "lib/kit/ui/v.tsx -> lib/engines/render/view.ts",
    "lib/kit/ui/v.tsx -> lib/features/a/x.ts",
  ]);
});

Deno.test("architecture - the kit imports no engine, feature or app; an engine no feature or app", async () => {
  assertEquals(tierBreaks(await importGraph()), []);
});

Deno.test("architecture - feature tests mirror their folders (tests/features/<name>/ for lib/features/<name>/)", async () => {
  const names = async (dir: string) => {
    const out: string[] = [];
    for await (const e of Deno.readDir(join(ROOT, dir))) if (e.isDirectory) out.push(e.name);
    return out.sort();
  };
  assertEquals(await names("tests/features"), await names("lib/features"));
});

/** Whether a file is a route module: under routes/ or a feature's routes/ folder. */
export function isRouteModule(file: string): boolean {
  return file.startsWith("routes/") || /^lib\/features\/[^/]+\/routes\//.test(file);
}

/** The route lists: the app's (lib/app/routes.ts) and each feature's own (its routes.ts). */
function isRouteList(file: string): boolean {
  return file === "lib/app/routes.ts" || /^lib\/features\/[^/]+\/routes\.ts$/.test(file);
}

Deno.test("architecture - routes import neither the server, a route list nor another route; only the lists and the app import routes", async () => {
  const graph = await importGraph();
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    for (const t of targets) {
      if (isRouteModule(file)) {
        if (
          isRouteModule(t) || isRouteList(t) || t === "lib/app/server.ts" || t === "lib/app/app.ts"
        ) {
          bad.push(`${file} -> ${t}`);
        }
      } else if (isRouteModule(t)) {
        // The app's list takes routes/ (no feature's); a feature's list takes its own folder's.
        const own = featureOf(t) === null
          ? file === "lib/app/routes.ts"
          : isRouteList(file) && featureOf(file) === featureOf(t);
        // The app's handler answers POST /api/scan on its fast path.
        if (!own && file !== "lib/app/app.ts") bad.push(`${file} -> ${t}`);
      }
    }
  }
  assertEquals(bad, []);
});

/**
 * The two scanners' engines never import each other: what both use (structured-data extraction,
 * validation and generation, the page's JSON-LD graph and site name) lives in
 * lib/engines/structured/, which imports neither.
 */
Deno.test("architecture - the visibility and schema engines never import each other; lib/engines/structured imports neither", async () => {
  const graph = await importGraph();
  const forbidden: Record<string, string[]> = {
    "lib/engines/visibility/": ["lib/engines/schema/"],
    "lib/engines/schema/": ["lib/engines/visibility/"],
    "lib/engines/structured/": ["lib/engines/visibility/", "lib/engines/schema/"],
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

/** A store module: one of the kit's (lib/kit/storage/) or a feature's own (its store.ts). */
export function isStoreModule(file: string): boolean {
  return file.startsWith("lib/kit/storage/") || /^lib\/features\/[^/]+\/store\.ts$/.test(file);
}

Deno.test("architecture - KV keys are laid out only in store modules (lib/kit/storage/, a feature's store.ts)", async () => {
  const bad: string[] = [];
  for (const f of await programFiles()) {
    if (isStoreModule(f)) continue;
    if (writesKvKey(await Deno.readTextFile(join(ROOT, f)))) bad.push(f);
  }
  assertEquals(bad, []);
});

Deno.test("architecture - no module branches on a service's name (what differs lives in the service definition)", async () => {
  // A service's folder (lib/features/<name>/, SERVICE_FOLDERS) defines it; every other module reads
  // `service.words`, a ServiceDef field, or a table keyed by the name.
  const branch =
    /[!=]==?\s*["'](?:schema|visibility)["']|["'](?:schema|visibility)["']\s*[!=]==?|case\s+["'](?:schema|visibility)["']\s*:/;
  const found: string[] = [];
  for (const f of await programFiles()) {
    if (SERVICE_FOLDERS.some((dir) => f.startsWith(dir))) continue;
    const lines = (await Deno.readTextFile(join(ROOT, f))).split("\n");
    lines.forEach((line, i) => {
      if (branch.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assertEquals(found, []);
});

/**
 * The unit of layering a file belongs to: each feature's folder, each engine's and each kit
 * folder (a loose file of the kit on its own), the app (lib/app/ and routes/, one unit), and the
 * kit's views (lib/kit/ui/ and islands/, one layer: pages render islands, islands reuse small view
 * pieces). main.ts, mod.ts and the contract are units of their own.
 */
export function unitOf(file: string): string {
  const p = file.split("/");
  if (p[0] === "islands" || (p[0] === "lib" && p[1] === "kit" && p[2] === "ui")) return "views";
  if (p[0] === "routes" || (p[0] === "lib" && p[1] === "app")) return "app";
  if (p[0] !== "lib") return p[0];
  if (["features", "engines", "kit"].includes(p[1]) && p.length > 3) return p.slice(0, 3).join("/");
  return file;
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
    [
      "lib/kit/ui/layout.tsx",
      "islands/ScanForm.tsx",
      "lib/features/schema/views/schema_report.tsx",
      "lib/app/app.ts",
      "lib/kit/errors.ts",
      "routes/api/challenge.ts",
    ].map(unitOf),
    ["views", "views", "lib/features/schema", "app", "lib/kit/errors.ts", "app"],
  );
  const graph = new Map([
    ["lib/kit/a/x.ts", ["lib/kit/b/y.ts"]],
    ["lib/kit/b/y.ts", []],
    ["lib/kit/b/z.ts", ["lib/kit/a/w.ts"]],
    ["lib/kit/a/w.ts", []],
  ]);
  assertEquals([...mutualUnits(graph).keys()], ["lib/kit/a <-> lib/kit/b"]);
});

/**
 * The graph without the config's reads of the features' settings slices: a slice imports nothing
 * of the config, and it is how a feature's settings reach the one reader of the environment, which
 * the feature reads.
 */
async function graphWithoutSettingsSlices(): Promise<Map<string, string[]>> {
  const graph = await importGraph();
  for (const [file, targets] of graph) {
    graph.set(file, targets.filter((t) => !(CONFIG_MODULES.test(file) && SETTINGS_SLICE.test(t))));
  }
  return graph;
}

Deno.test("architecture - no two units import each other", async () => {
  const mutual = mutualUnits(await graphWithoutSettingsSlices());
  assertEquals([...mutual].map(([pair, files]) => `${pair}: ${files.join(" / ")}`), []);
});

/** Whether a file is a view: the kit's (lib/kit/ui/, islands/) or a feature's (its views/). */
function isView(file: string): boolean {
  return unitOf(file) === "views" || /^lib\/features\/[^/]+\/views\//.test(file);
}

Deno.test("architecture - views are pure: the kit's and the features' views import neither lib/kit/web nor hono", async () => {
  const bad: string[] = [];
  const graph = await importGraph();
  for (const [file, targets] of graph) {
    if (!isView(file)) continue;
    for (const t of targets) if (t.startsWith("lib/kit/web/")) bad.push(`${file} -> ${t}`);
    const source = await Deno.readTextFile(join(ROOT, file));
    if (/\bfrom\s+["']hono(?:\/[^"']*)?["']/.test(source)) bad.push(`${file} -> hono`);
  }
  assertEquals(bad, []);
});

Deno.test("architecture - stores build no limit, and lib/kit/limits imports no store", async () => {
  const bad: string[] = [];
  const graph = await importGraph();
  for (const [file, targets] of graph) {
    if (file.startsWith("lib/kit/limits/")) {
      for (const t of targets) if (isStoreModule(t)) bad.push(`${file} -> ${t}`);
    }
    if (!isStoreModule(file)) continue;
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
  ipv6Prefix48: "lib/kit/net/client_ip.ts",
  clientIp: "lib/kit/net/client_ip.ts",
  // The sign-in attempt window: a limit, beside LIMITS and CAPS.
  AUTH_ATTEMPTS: "lib/kit/limits/limits.ts",
  // What a user typed -> the site a scan is of (used by both scanners, the API, MCP, the CLI).
  normaliseTarget: "lib/kit/net/target.ts",
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

/** The service folders: each a feature whose service.ts exports a ServiceDef (lib/service.ts). */
const SERVICE_FOLDERS = ["lib/features/visibility/", "lib/features/schema/"];

/**
 * The composition roots: the only modules that may import a service folder (lib/app/server.ts
 * builds the registry; the CLI is the visibility service's command line and takes its words and
 * exports).
 */
const SERVICE_IMPORTERS = new Set(["lib/app/server.ts", "lib/app/cli.ts"]);

Deno.test("architecture - only the composition roots import a service folder; a service folder imports no other; the contract imports types only", async () => {
  const graph = await importGraph();
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    for (const t of targets) {
      const folder = SERVICE_FOLDERS.find((dir) => t.startsWith(dir));
      if (!folder || file.startsWith(folder)) continue;
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
