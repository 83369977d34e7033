/**
 * `deno task facts`: writes every fact the code knows into the files that print it, from the code
 * as it is now: the facts and tables of README.md and docs/*.md (between the markers of
 * facts/markers.ts, values from facts/known_facts.ts; each file then formatted as `deno fmt`
 * leaves it) and the home page's example record, a fresh scan of its fixture site
 * (facts/example_record.ts). Run it after changing a registry, the scoring, a limit or a service;
 * tests/facts_test.ts fails until you do.
 *
 * ```sh
 * deno task facts            # rewrite what is stale, print what changed
 * deno task facts --check    # write nothing; exit 1 and name each stale file
 * ```
 */
import { join } from "node:path";
import { fillFacts } from "./facts/markers.ts";
import { knownFacts } from "./facts/known_facts.ts";
import { EXAMPLE_RECORD_FILE, freshExampleRecord, sameExample } from "./facts/example_record.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The Markdown files that may hold facts: README.md and the other top-level ones, and docs/. */
export async function markdownFiles(root = ROOT): Promise<string[]> {
  const files: string[] = [];
  for (const dir of ["", "docs"]) {
    for await (const e of Deno.readDir(join(root, dir))) {
      if (e.isFile && e.name.endsWith(".md")) files.push(join(dir, e.name));
    }
  }
  return files.sort();
}

/** Markdown as `deno fmt` (with this repository's settings) leaves it. */
export async function formatMarkdown(text: string, root = ROOT): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`deno fmt: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** One file whose facts are stale, and its text with them filled in. */
export interface StaleFile {
  file: string;
  fresh: string;
}

/** The Markdown files whose generated facts differ from what the code says now. */
export async function staleMarkdown(root = ROOT): Promise<StaleFile[]> {
  const source = await knownFacts();
  const stale: StaleFile[] = [];
  for (const file of await markdownFiles(root)) {
    const text = await Deno.readTextFile(join(root, file));
    const filled = fillFacts(text, source, file);
    if (filled === text) continue;
    const fresh = await formatMarkdown(filled, root);
    if (fresh !== text) stale.push({ file, fresh });
  }
  return stale;
}

/** The example record, when it is stale. */
export async function staleExampleRecord(root = ROOT): Promise<StaleFile | null> {
  const text = await Deno.readTextFile(join(root, EXAMPLE_RECORD_FILE)).catch(() => "{}");
  const fresh = await freshExampleRecord();
  return sameExample(text, fresh) ? null : { file: EXAMPLE_RECORD_FILE, fresh };
}

/** Every stale file: the Markdown ones, then the example record. */
export async function staleFacts(root = ROOT): Promise<StaleFile[]> {
  const record = await staleExampleRecord(root);
  return [...await staleMarkdown(root), ...(record ? [record] : [])];
}

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  const stale = await staleFacts();
  for (const { file, fresh } of stale) {
    if (check) console.log(`stale: ${file}`);
    else {
      await Deno.writeTextFile(join(ROOT, file), fresh);
      console.log(`written: ${file}`);
    }
  }
  if (stale.length === 0) console.log("every generated fact is up to date");
  else if (check) {
    console.log(`${stale.length} stale: run deno task facts`);
    Deno.exit(1);
  }
}
