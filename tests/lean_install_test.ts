/**
 * The start task installs only what serving needs: deno.json maps the packages that main.ts,
 * mod.ts, lib/, routes/ and islands/ import (Deno installs every package of the lock file, so a
 * test tool mapped there would be installed before the first page is served); the test and
 * benchmark tools are in tests/import_map.json with their own lock (tests/deno.lock), which the
 * test, check and bench tasks name. The figures (the start task on a fresh clone and a fresh
 * cache) are measured by tests/tools/measure_install.ts and written in docs/running.md.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;

/** Every .ts/.tsx file that serving loads: main.ts, mod.ts, lib/, routes/, islands/. */
async function programFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    if ((await Deno.stat(join(ROOT, rel))).isFile) {
      if (/\.tsx?$/.test(rel)) out.push(rel);
      return;
    }
    for await (const e of Deno.readDir(join(ROOT, rel))) await walk(join(rel, e.name));
  };
  for (const r of ["main.ts", "mod.ts", "lib", "routes", "islands"]) await walk(r);
  return out;
}
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(join(ROOT, path)));

/** The package a bare specifier names: `hono/cookie` -> `hono`, `@a/b/c` -> `@a/b`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The bare (package) specifiers a source file imports, statically or by a literal import(). */
export function bareImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specs = new Set<string>();
  for (
    const re of [
      /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*["']([^"']+)["']/g,
      /\bimport\s*["']([^"']+)["']/g,
      /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    ]
  ) {
    for (const m of code.matchAll(re)) {
      if (!/^(\.|\/|node:|npm:|https?:|file:|data:)/.test(m[1])) specs.add(m[1]);
    }
  }
  return [...specs];
}

/** The package name of a lock file key (`@a/b@1.0.0_peer@2` -> `@a/b`). */
const lockName = (key: string) => key.slice(0, key.indexOf("@", 1));

/**
 * The lock file's packages reached from `roots` (package names) through their dependencies; a
 * dependency is written `name` or `name@version` in the lock.
 */
function closure(lock: { npm: Record<string, { dependencies?: string[] }> }, roots: string[]) {
  const byName = new Map<string, string[]>();
  for (const key of Object.keys(lock.npm)) {
    byName.set(lockName(key), [...byName.get(lockName(key)) ?? [], key]);
  }
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of lock.npm[key]?.dependencies ?? []) {
      const name = dep.includes("@", 1) ? lockName(dep) : dep;
      const keys = byName.get(name) ?? [];
      const exact = keys.filter((k) => k === dep || k.startsWith(`${dep}_`));
      for (const k of dep.includes("@", 1) ? exact : keys.slice(0, 1)) visit(k);
    }
  };
  for (const r of roots) for (const k of byName.get(r) ?? []) visit(k);
  return new Set([...seen].map(lockName));
}

Deno.test("[lean install] serving code imports only packages deno.json maps", async () => {
  const imports: Record<string, string> = (await readJson("deno.json")).imports;
  const missing: string[] = [];
  for (const file of await programFiles()) {
    for (const spec of bareImports(await Deno.readTextFile(join(ROOT, file)))) {
      if (!(packageOf(spec) in imports)) missing.push(`${file}: ${spec}`);
    }
  }
  assert.deepEqual(missing, [], "add these to deno.json (serving needs them)");
});

Deno.test("[lean install] deno.json maps nothing serving would not install anyway", async () => {
  const imports: Record<string, string> = (await readJson("deno.json")).imports;
  const used = new Set<string>();
  for (const file of await programFiles()) {
    for (const spec of bareImports(await Deno.readTextFile(join(ROOT, file)))) {
      used.add(packageOf(spec));
    }
  }
  const reached = closure(await readJson("deno.lock"), [...used]);
  const extra = Object.keys(imports).filter((k) => !k.endsWith("/"))
    .filter((k) => !used.has(k) && !reached.has(k));
  // A test or benchmark tool belongs in tests/import_map.json: mapped here, the start task would
  // install it (and everything it depends on) before serving the first page.
  assert.deepEqual(extra, [], "move these to tests/import_map.json");
});

Deno.test("[lean install] the tests run the serving packages deno.json and deno.lock pin", async () => {
  const served: Record<string, string> = (await readJson("deno.json")).imports;
  const tests: Record<string, string> = (await readJson("tests/import_map.json")).imports;
  for (const [name, target] of Object.entries(served)) {
    assert.equal(tests[name], target, `tests/import_map.json: ${name}`);
    // A plain import map (unlike deno.json) resolves a package's subpaths only through an entry
    // ending in "/".
    if (!name.endsWith("/") && target.startsWith("npm:")) {
      assert.equal(
        tests[`${name}/`],
        `npm:/${target.slice(4)}/`,
        `tests/import_map.json: ${name}/`,
      );
    }
  }
  const lock = await readJson("deno.lock");
  const testLock = await readJson("tests/deno.lock");
  // Deno re-resolves a lock whose "workspace" list differs from deno.json's imports, and may
  // then pick newer versions: after changing deno.json, run `deno install`, copy deno.lock's
  // "workspace" section into tests/deno.lock, then `deno task install:tests`.
  for (const [key, entry] of Object.entries(lock.npm) as [string, { integrity: string }][]) {
    assert.equal(
      testLock.npm[key]?.integrity,
      entry.integrity,
      `tests/deno.lock resolves ${key} otherwise than deno.lock`,
    );
  }
  assert.deepEqual(testLock.workspace, lock.workspace, "tests/deno.lock's workspace section");
});

/** Disk use of a folder's files in bytes, each rounded up to 4 KiB blocks as `du` counts them. */
async function diskUse(dir: string): Promise<number> {
  let bytes = 0;
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isSymlink) continue;
    if (e.isDirectory) bytes += 4096 + await diskUse(path);
    else bytes += Math.ceil((await Deno.lstat(path)).size / 4096) * 4096;
  }
  return bytes;
}

Deno.test("[lean install] the packages deno.lock installs take under 80 MB", async () => {
  const lock = await readJson("deno.lock");
  const store = join(ROOT, "node_modules/.deno");
  let bytes = 0;
  let found = 0;
  for (const key of Object.keys(lock.npm)) {
    // node_modules/.deno/<name with / as +>@<version>: the lock key without its peers (_...).
    const folder = key.replace(/_.*$/, "").replace("/", "+");
    const info = await Deno.stat(join(store, folder)).catch(() => null);
    if (!info) continue; // an optional package for another platform, never installed here
    found++;
    bytes += await diskUse(join(store, folder));
  }
  assert.ok(found > 0, "node_modules is not installed: run deno install");
  const mb = bytes / 2 ** 20;
  assert.ok(mb < 80, `the start task would install ${mb.toFixed(1)} MB of packages`);
});
