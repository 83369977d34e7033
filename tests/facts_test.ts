/**
 * What README.md, docs/ and the home page's example record say that the code knows is what the
 * code says now (`deno task facts` writes it: tests/tools/facts.ts). The check is real: in a
 * temporary copy of the repository, a crawler added as docs/architecture.md's recipe says makes it
 * fail, naming the files, and `deno task facts` makes it pass.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { markdownFiles, staleFacts } from "./tools/facts.ts";
import { FactMarkerError, factNames, fillFacts } from "./tools/facts/markers.ts";
import { knownFacts } from "./tools/facts/known_facts.ts";
import { EXAMPLE_RECORD_FILE } from "./tools/facts/example_record.ts";
import { copyRepository } from "./helpers/repo_copy.ts";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test({
  name: "[facts] README.md, docs/ and the example record hold what the code says now",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const stale = (await staleFacts()).map((s) => s.file);
    assert.deepEqual(stale, [], "stale: run deno task facts");
  },
});

Deno.test("[facts] every marker in the docs names a fact the code knows", async () => {
  const known = await knownFacts();
  const { blocks, inline } = factNames(await Deno.readTextFile(join(ROOT, "README.md")));
  assert.ok(inline.includes("crawlers"), "README.md prints the crawler count as a fact");
  for (const name of blocks) assert.ok(name in known.blocks, name);
  for (const name of inline) assert.ok(name in known.inline, name);
});

Deno.test("[facts] every inline fact stays inside its paragraph once rendered", async () => {
  // A line that starts with "<!--" is an HTML block to Markdown: the paragraph would break there.
  const md = new MarkdownIt({ html: true });
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(join(ROOT, file));
    if (!text.includes("<!--fact:")) continue;
    for (const token of md.parse(text, {})) {
      if (token.type === "html_block") {
        assert.ok(!token.content.includes("<!--fact:"), `${file}: ${token.content.slice(0, 80)}`);
      }
    }
  }
  const broken = md.parse("A paragraph of\n<!--fact:n-->6<!--/fact--> words.", {});
  assert.ok(broken.some((t) => t.type === "html_block"), "the check sees the broken form");
});

Deno.test("[facts] markers are filled in place, and a wrong one is an error, never skipped", () => {
  const source = { blocks: { table: () => "| a |\n| - |\n| 1 |" }, inline: { n: "7" } };
  assert.equal(
    fillFacts("We have<!--fact:n--> 6<!--/fact--> of\nthem.", source),
    "We have<!--fact:n--> 7<!--/fact--> of\nthem.",
  );
  assert.equal(
    fillFacts("a<!--fact:n-->\nsix,\nsplit by fmt<!--/fact--> b", source),
    "a<!--fact:n--> 7<!--/fact--> b",
  );
  assert.equal(fillFacts("(<!--fact:n-->6<!--/fact-->)", source), "(<!--fact:n-->7<!--/fact-->)");
  // A marker after a space could start a line, where Markdown reads it as an HTML block.
  assert.throws(() => fillFacts("We have <!--fact:n-->6<!--/fact-->", source), /glue/);
  assert.throws(() => fillFacts("<!--fact:n-->6<!--/fact-->", source), /glue/);
  assert.equal(
    fillFacts("| a | <!--fact:n-->6<!--/fact--> per hour |", source),
    "| a | <!--fact:n-->7<!--/fact--> per hour |",
  );
  assert.equal(
    fillFacts("x\n<!-- facts:table -->\nold\n<!-- /facts:table -->\ny", source),
    "x\n<!-- facts:table -->\n\n| a |\n| - |\n| 1 |\n\n<!-- /facts:table -->\ny",
  );
  assert.throws(() => fillFacts("a<!--fact:m-->1<!--/fact-->", source), FactMarkerError);
  assert.throws(() => fillFacts("a<!--fact:n-->1 and on", source), FactMarkerError);
  assert.throws(
    () => fillFacts("a<!--fact:n-->1 b<!--fact:n-->2<!--/fact-->", source),
    FactMarkerError,
  );
  assert.throws(() => fillFacts("<!-- facts:table -->\nno end", source), FactMarkerError);
  // Markers written as code are text about markers: left alone.
  const about =
    "Write `<!-- facts:NAME -->` or `a<!--fact:x--> 1<!--/fact-->`.\n```\na<!--fact:n-->1\n```";
  assert.equal(fillFacts(about, source), about);
  assert.throws(() => fillFacts("<!-- facts:other -->\n<!-- /facts:other -->", source), /other/);
});

/** Runs `deno task facts` with `args` in `dir`; its exit code and output. */
async function factsTask(dir: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "facts", ...args],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

/** The crawler count README.md prints. */
async function readmeCrawlers(dir: string): Promise<number> {
  const text = await Deno.readTextFile(join(dir, "README.md"));
  return Number(text.match(/<!--fact:crawlers-->(\d+)<!--\/fact-->/)?.[1]);
}

Deno.test({
  name: "[facts] a crawler added without deno task facts fails the check; the one command fixes it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const copy = await copyRepository("facts_copy_");
    try {
      // The recipe names the registry file: "**A crawler**: one entry in `<file>`".
      const recipe = await Deno.readTextFile(join(copy, "docs/architecture.md"));
      const file = recipe.match(/\*\*A crawler\*\*: one entry in `([^`]+)`/)?.[1];
      assert.ok(file, "docs/architecture.md has the add-a-crawler recipe");
      const before = await readmeCrawlers(copy);
      const source = await Deno.readTextFile(join(copy, file));
      const start = source.indexOf("export const REGISTRY");
      const bracket = source.indexOf("= [", start);
      assert.ok(start >= 0 && bracket > start, `${file} exports REGISTRY`);
      const entry = `
  {
    token: "ExampleSearchBot",
    vendor: "Example",
    operator: "Example Search, an answer engine",
    purpose: "search",
    robotsTxt: "yes",
    userAgent: "Mozilla/5.0 (compatible; ExampleSearchBot/1.0; +https://example.org/bot)",
    url: "https://example.org/bot",
    checked: "2026-12-01",
  },`;
      await Deno.writeTextFile(
        join(copy, file),
        source.slice(0, bracket + 3) + entry + source.slice(bracket + 3),
      );

      const stale = await factsTask(copy, "--check");
      assert.equal(stale.code, 1, stale.text);
      for (const f of ["README.md", "docs/scoring.md", EXAMPLE_RECORD_FILE]) {
        assert.match(stale.text, new RegExp(`stale: ${f}`), stale.text);
      }

      const fixed = await factsTask(copy);
      assert.equal(fixed.code, 0, fixed.text);
      const again = await factsTask(copy, "--check");
      assert.equal(again.code, 0, again.text);
      assert.match(again.text, /every generated fact is up to date/);
      assert.equal(await readmeCrawlers(copy), before + 1);
      const scoring = await Deno.readTextFile(join(copy, "docs/scoring.md"));
      assert.match(scoring, /\| `ExampleSearchBot` +\| Example +\| search/);
      const record = await Deno.readTextFile(join(copy, EXAMPLE_RECORD_FILE));
      assert.match(record, /ExampleSearchBot: allowed/);
    } finally {
      await Deno.remove(copy, { recursive: true });
    }
  },
});
