/**
 * No export of the program (main.ts, mod.ts, lib/, routes/, islands/) is used nowhere: a name
 * exported and written only where it is defined, in no other file of the repository (tests and
 * tools included), is dead code (three were: `capText`, `ADDED_BY_JAVASCRIPT` and `PageState`).
 * Names are counted as words, once per file, so a name another module imports, re-exports, or
 * only mentions is kept; what the check reports is certain, what it misses is not.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * Exports waiting for the change that uses them, each with why; the test fails when one is used
 * (take it off the list) or no longer exported.
 */
const WAITING: Record<string, string> = {};

async function sources(dirs: string[], files: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      const path = join(dir, e.name);
      if (e.isDirectory && !["node_modules", "build", "output"].includes(e.name)) await walk(path);
      else if (e.isFile && /\.tsx?$/.test(e.name)) {
        out.set(path, await Deno.readTextFile(join(ROOT, path)));
      }
    }
  };
  for (const d of dirs) await walk(d);
  for (const f of files) out.set(f, await Deno.readTextFile(join(ROOT, f)));
  return out;
}

/** The names a module exports by declaration or by an `export { ... }` list of its own. */
export function exportedNames(source: string): string[] {
  const names: string[] = [];
  const declared =
    /^export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|function\*?|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm;
  for (const m of source.matchAll(declared)) names.push(m[1]);
  for (const m of source.matchAll(/^export\s*(?:type\s*)?\{([^}]*)\}\s*;/gm)) {
    for (const part of m[1].split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

/** How often each word occurs in a text. */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  return counts;
}

Deno.test("[exports] every export of the program is used somewhere", async () => {
  const program = await sources(["lib", "routes", "islands"], ["main.ts", "mod.ts"]);
  const all = new Map([...program, ...await sources(["tests"], [])]);
  all.delete("tests/unused_exports_test.ts"); // it names the waiting ones
  const files = new Map<string, number>(); // word -> number of files that hold it
  const counts = new Map<string, Map<string, number>>();
  for (const [path, text] of all) {
    const words = wordCounts(text);
    counts.set(path, words);
    for (const w of words.keys()) files.set(w, (files.get(w) ?? 0) + 1);
  }
  const unused: string[] = [];
  for (const [path, text] of program) {
    for (const name of exportedNames(text)) {
      const inOwn = counts.get(path)!.get(name) ?? 0;
      if (files.get(name) === 1 && inOwn === 1) unused.push(`${path} ${name}`);
    }
  }
  for (const [entry, why] of Object.entries(WAITING)) {
    assert.ok(unused.includes(entry), `${entry} is used now (${why}): take it off WAITING`);
  }
  assert.deepEqual(unused.filter((u) => !(u in WAITING)), [], "exported and used nowhere");
});

Deno.test("[exports] the finder reads declarations and export lists", () => {
  const names = exportedNames(
    [
      "export const A = 1;",
      "export async function b() {}",
      "export type C = string;",
      "export interface D {}",
      "const e = 1, f = 2;",
      "export { e, f as g };",
      'export { h } from "./x.ts";',
    ].join("\n"),
  );
  assert.deepEqual(names, ["A", "b", "C", "D", "e", "g"]);
});
