/**
 * Every fix generator over real material: the robots.txt files and saved home pages of the shared
 * corpus (../shared/corpus, read at test time and never copied here), asserting the properties
 * of tests/helpers/fix_checks.ts with the project's own parsers. When the corpus is absent the
 * corpus steps say so and are skipped; tests/fixes_robots_test.ts and tests/fixes_skeletons_test.ts
 * run the same properties on our own fixtures, which are always present.
 */
import assert from "node:assert/strict";
import { CRAWLERS } from "../lib/engines/visibility/crawlers.ts";
import { type RobotsFix, robotsVerdicts } from "../lib/engines/visibility/robots_fix.ts";
import { scoreSite } from "../lib/engines/visibility/score.ts";
import { fixContext } from "./helpers/fix_context.ts";
import {
  assertJsonLdFix,
  assertLlmsFix,
  assertRobotsFixProperty,
  assertSameAsFix,
  assertSitemapFix,
  assertWellFormedHow,
} from "./helpers/fix_checks.ts";

const CORPUS = new URL("../../shared/corpus/visibility/material/", import.meta.url);

function corpusPresent(): boolean {
  try {
    return Deno.statSync(CORPUS).isDirectory;
  } catch {
    return false;
  }
}

const SKIP_MESSAGE =
  `skipped: the shared corpus is not at ${CORPUS.pathname} (the same properties run on our own fixtures in tests/fixes_robots_test.ts and tests/fixes_skeletons_test.ts)`;

/** Every real robots.txt file of the corpus: [name, text]. */
function robotsFiles(): [string, string][] {
  const out: [string, string][] = [];
  const root = new URL("robots/", CORPUS);
  for (const dir of Deno.readDirSync(root)) {
    if (!dir.isDirectory) continue;
    for (const f of Deno.readDirSync(new URL(`${dir.name}/`, root))) {
      if (!f.name.endsWith(".txt")) continue;
      out.push([
        `${dir.name}/${f.name}`,
        Deno.readTextFileSync(new URL(`${dir.name}/${f.name}`, root)),
      ]);
    }
  }
  for (const dir of Deno.readDirSync(new URL("sites/", CORPUS))) {
    const p = new URL(`sites/${dir.name}/robots.txt`, CORPUS);
    try {
      out.push([`sites/${dir.name}/robots.txt`, Deno.readTextFileSync(p)]);
    } catch { /* a site without robots.txt */ }
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

Deno.test("[fixes corpus] robots.txt fixes change exactly the intended verdicts on every real file", async (t) => {
  if (!corpusPresent()) {
    console.warn(SKIP_MESSAGE);
    return;
  }
  const files = robotsFiles();
  assert.ok(files.length >= 60, `${files.length} robots.txt files`);
  let fixes = 0;
  const kinds = { add: 0, replace: 0, move: 0 };
  const count = (fix: RobotsFix | null) => {
    if (!fix) return;
    if (fix.edits.some((e) => e.kind === "delete")) kinds.move++;
    else if (fix.edits.some((e) => e.kind === "replace")) kinds.replace++;
    else kinds.add++;
  };
  for (const [name, text] of files) {
    await t.step(name, () => {
      const home = robotsVerdicts(text, "https://corpus.test/", ["/"]);
      const blocked = (role: string) =>
        CRAWLERS.filter((c) => c.role === role && home.get(`${c.token} /`) === false)
          .map((c) => c.token);
      // What the scan offers: the blocked search crawlers and assistants together...
      const scanSet = [...blocked("search"), ...blocked("user")];
      count(assertRobotsFixProperty(text, scanSet, `${name} [${scanSet.join(", ")}]`));
      if (scanSet.length) fixes++;
      // ...and one blocked crawler of each role alone (a training crawler too: the property
      // must hold whatever the fix names).
      for (const role of ["search", "user", "training"]) {
        const first = blocked(role)[0];
        if (first) count(assertRobotsFixProperty(text, [first], `${name} [${first}]`));
      }
    });
  }
  assert.ok(fixes >= 20, `${fixes} files needed a fix`);
  console.log(
    `info ${files.length} real robots.txt files, ${fixes} needed the scan's fix; ${
      kinds.add + kinds.replace + kinds.move
    } fixes checked on up to 100 paths each: ${kinds.add} add groups only, ${kinds.replace} correct a crawler's own group, ${kinds.move} move a crawler out of a shared group`,
  );
});

Deno.test("[fixes corpus] every fix of a real site's scan holds the properties", async (t) => {
  if (!corpusPresent()) {
    console.warn(SKIP_MESSAGE);
    return;
  }
  const sites = new URL("sites/", CORPUS);
  const read = (host: string, file: string) => {
    try {
      return Deno.readTextFileSync(new URL(`${host}/${file}`, sites));
    } catch {
      return null;
    }
  };
  let checked = 0;
  for (const dir of [...Deno.readDirSync(sites)].filter((d) => d.isDirectory)) {
    const host = dir.name;
    const html = read(host, "index.html");
    if (!html) continue;
    await t.step(host, () => {
      const ctx = fixContext({
        url: `https://${host}/`,
        html,
        robots: read(host, "robots.txt"),
        sitemap: read(host, "sitemap.xml"),
        llms: read(host, "llms.txt"),
      });
      const result = scoreSite(ctx);
      for (const issue of result.topIssues) {
        assertWellFormedHow(issue);
        if (issue.id === "discovery.sitemap" && issue.fix.how.includes("<urlset")) {
          assertSitemapFix(ctx, issue);
        }
        if (issue.id === "discovery.llms_txt") assertLlmsFix(ctx, issue);
        if (issue.id === "structured.same_as") assertSameAsFix(ctx, issue);
        if (issue.fix.how.includes("application/ld+json")) assertJsonLdFix(ctx, issue);
      }
      checked++;
    });
  }
  assert.ok(checked >= 10, `${checked} real sites checked`);
});
