/**
 * Every file the docs and the code's own comments name exists: a path in README.md, BENCHMARKS.md
 * and docs/ (written as code, or as a link), a file named in docs/architecture.md's layout (looked
 * up in the folder its line describes), and a path in a comment of main.ts, mod.ts, lib/, routes/,
 * islands/ or tests/. A file moved or deleted without its docs fails here, naming the line.
 * CHANGELOG.md is history: it may name what no longer exists.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const FOLDERS = ["lib/", "routes/", "islands/", "tests/", "docs/", "static/", ".ci/"];

/** A path a check may name that is made when something runs, not kept in the repository. */
const made = (path: string) => path.startsWith("tests/output/") || path.startsWith("static/build/");

async function exists(path: string): Promise<boolean> {
  return (await Deno.stat(join(ROOT, path)).catch(() => null)) !== null;
}

/** The repository paths a text names: words starting with one of its folders, not patterns. */
export function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (
    const m of text.matchAll(
      /(?<![\w./:-])(?:lib|routes|islands|tests|docs|static|\.ci)\/[\w./-]*/g,
    )
  ) {
    const path = m[0].replace(/[.,;:]+$/, "").replace(/\/$/, "");
    if (/[<>*{}]/.test(text.slice(m.index!, m.index! + m[0].length + 1))) continue;
    if (FOLDERS.some((f) => path.startsWith(f)) && !made(path)) out.push(path);
  }
  return out;
}

async function markdownFiles(): Promise<string[]> {
  const files = ["README.md", "BENCHMARKS.md"];
  for await (const e of Deno.readDir(join(ROOT, "docs"))) {
    if (e.name.endsWith(".md")) files.push(`docs/${e.name}`);
  }
  return files.sort();
}

Deno.test("[docs] every path README.md, BENCHMARKS.md and docs/ write as code exists", async () => {
  const missing: string[] = [];
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(join(ROOT, file));
    for (const code of text.matchAll(/`([^`\n]+)`/g)) {
      for (const path of namedPaths(code[1])) {
        if (!(await exists(path))) missing.push(`${file}: ${path}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("[docs] every relative link of README.md, BENCHMARKS.md and docs/ reaches a file", async () => {
  const missing: string[] = [];
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(join(ROOT, file));
    for (const link of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
      if (/^[a-z]+:/i.test(link[1])) continue;
      const path = normalize(join(dirname(file), link[1]));
      if (!(await exists(path))) missing.push(`${file}: ${link[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

/** Whether a file of this name is in `folder` or below it. */
async function inFolder(folder: string, name: string): Promise<boolean> {
  for await (const e of Deno.readDir(join(ROOT, folder))) {
    if (e.isFile && e.name === name) return true;
    if (e.isDirectory && await inFolder(join(folder, e.name), name)) return true;
  }
  return false;
}

Deno.test("[docs] every file docs/architecture.md's layout names is in the folder its line describes", async () => {
  const text = await Deno.readTextFile(join(ROOT, "docs/architecture.md"));
  const layout = text.slice(text.indexOf("## Layout"));
  const block = layout.slice(
    layout.indexOf("```") + 3,
    layout.indexOf("```", layout.indexOf("```") + 3),
  );
  const missing: string[] = [];
  let top = ".";
  let folder = ".";
  for (const line of block.split("\n")) {
    // "lib/features/    ..." names a folder; "  history/       ..." one inside it.
    const head = line.match(/^(\S+)\s/)?.[1];
    const sub = line.match(/^ {2}(\S+)\s/)?.[1];
    if (head) top = folder = head.endsWith("/") && (await exists(head)) ? head : ".";
    else if (sub) {
      folder = sub.endsWith("/") && (await exists(join(top, sub))) ? join(top, sub) : top;
    }
    for (const m of line.matchAll(/(?<![\w/*])([\w/-]+\.tsx?)\b/g)) {
      const name = m[1];
      const found = name.includes("/")
        ? (await exists(name)) || (await exists(join(folder, name)))
        : await inFolder(folder, name);
      if (!found) missing.push(`${folder}: ${name}`);
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("[docs] every path a comment of the code names exists", async () => {
  const missing: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      const path = join(dir, e.name);
      if (e.isDirectory && !["node_modules", "fixtures", "output"].includes(e.name)) {
        await walk(path);
      }
      if (!e.isFile || !/\.tsx?$/.test(e.name)) continue;
      const source = await Deno.readTextFile(join(ROOT, path));
      for (const comment of source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) {
        // A file the comment's own commands write (`git show ... > lib/x_old.ts`) is not kept.
        const written = new Set([...comment[0].matchAll(/>\s*([\w./-]+)/g)].map((m) => m[1]));
        for (const named of namedPaths(comment[0])) {
          if (/\.(tsx?|md|json)$/.test(named) && !written.has(named) && !(await exists(named))) {
            missing.push(`${path}: ${named}`);
          }
        }
      }
    }
  };
  for (const dir of ["lib", "routes", "islands", "tests"]) await walk(dir);
  for (const file of ["main.ts", "mod.ts"]) {
    for (const named of namedPaths(await Deno.readTextFile(join(ROOT, file)))) {
      if (/\.(tsx?|md|json)$/.test(named) && !(await exists(named))) {
        missing.push(`${file}: ${named}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("[docs] the path finder skips patterns and sees what is named", () => {
  assert.deepEqual(namedPaths("see lib/visibility/crawlers.ts, and tests/<name>_test.ts"), [
    "lib/visibility/crawlers.ts",
  ]);
  assert.deepEqual(namedPaths("lib/structured/google/features/*.ts and tests/output/x.json"), []);
  assert.deepEqual(namedPaths("the folder lib/watch/."), ["lib/watch"]);
  // A path in another commit (`git show abc123:lib/x.ts`) is not one of this checkout.
  assert.deepEqual(namedPaths("git show c06b93e:lib/structured/rdfa.ts"), []);
});
