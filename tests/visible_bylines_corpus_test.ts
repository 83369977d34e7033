/**
 * Visible bylines on real article pages: the shared corpus's readability pages (read in place
 * from ../shared/corpus, never copied here; skipped with a message when the corpus is absent).
 * The oracle is the corpus's own `expected.json` beside each page (readability's byline and
 * published time), read at test time:
 *
 * - where readability's byline names people and the page shows those names in its text, the
 *   visible byline reader finds them, and both services' checks report them (the schema
 *   service's article facts, the visibility checker's trust.author_dates);
 * - where readability finds no byline, no author is reported, and anywhere, an author reported is
 *   a name the page's visible text holds (nothing invented);
 * - a published date read from the page agrees with readability's published day when both exist.
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { extractPageFacts } from "../lib/engines/html/page_facts.ts";
import { isPersonName } from "../lib/engines/html/visible_bylines.ts";
import { datesIn } from "../lib/engines/html/visible_dates.ts";
import { extractPage } from "../lib/engines/structured/extract.ts";
import { authorDates } from "../lib/engines/visibility/signals/trust/author_dates.ts";
import { pageCtx } from "./helpers/signal_ctx.ts";

const PAGES = new URL("../../shared/corpus/schema/material/pages/", import.meta.url);
const SITES = new URL("../../shared/corpus/visibility/material/sites/", import.meta.url);

function present(dir: URL): boolean {
  try {
    return Deno.statSync(dir).isDirectory;
  } catch {
    return false;
  }
}

/** The page's text outside scripts, styles and tags (entities of names left as they are). */
function visibleText(html: string): string {
  return html.replace(/<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ").replace(/&nbsp;|&#160;/g, " ").replace(/\s+/g, " ");
}

/** The people readability's byline names: its parts that are people's names. */
function oraclePeople(byline: string | null): string[] {
  if (!byline) return [];
  let text = byline.replace(/\([^)]*\)/g, " ").replace(/\s+/g, " ").replace(/^by\s+/i, "");
  const date = datesIn(text, 1)[0];
  if (date) text = text.slice(0, date.start);
  return text.split(/\s*[,;]\s*|\s+(?:and|&|y|et|e)\s+/i).map((p) => p.trim()).filter(
    isPersonName,
  );
}

const pages = present(PAGES)
  ? [...Deno.readDirSync(PAGES)].map((e) => e.name).filter((n) =>
    n.startsWith("readability-") && n.endsWith(".html.gz")
  ).sort()
  : [];

Deno.test({
  name:
    "[visible bylines] the corpus's article pages: authors and dates where shown, none invented",
  ignore: pages.length === 0,
  fn: async (t) => {
    let found = 0;
    let withoutByline = 0;
    for (const name of pages) {
      await t.step(name, async () => {
        const html = new TextDecoder().decode(
          gunzipSync(await Deno.readFile(new URL(name, PAGES))),
        );
        const expected = JSON.parse(
          await Deno.readTextFile(new URL(name.replace(".html.gz", ".expected.json"), PAGES)),
        ) as { byline: string | null; publishedTime: string | null };
        const url = "https://corpus.test/articles/page";
        const facts = extractPageFacts(html, url);
        const text = visibleText(html);
        const shown = facts.bylines.authors.map((a) => a.name);
        // Nothing invented: every name reported is in the page's text as readers see it.
        for (const n of shown) assert.ok(text.includes(n), `${n} is not in the page's text`);
        const people = oraclePeople(expected.byline).filter((p) => text.includes(p));
        for (const person of people) {
          assert.ok(shown.includes(person), `${person} shown, found ${JSON.stringify(shown)}`);
          // Both services' author checks report the person.
          const article = extractPage(html, url, "corpus.test").facts.article;
          assert.ok(
            article?.authors?.some((a) => a.name === person) || article?.author === person,
            `schema facts: ${JSON.stringify(article?.authors)}`,
          );
          const check = authorDates.check(pageCtx({ html, homeUrl: url }))!;
          assert.ok(
            (check.evidence ?? []).includes(`author: ${person}`),
            `trust.author_dates: ${(check.evidence ?? []).join("; ")}`,
          );
          found++;
        }
        if (expected.byline === null) {
          assert.deepEqual(shown, [], "readability finds no byline here, nor do we");
          withoutByline++;
        }
        // A published day read from the page is readability's published day.
        if (facts.bylines.published && expected.publishedTime) {
          assert.equal(
            facts.bylines.published.slice(0, 10),
            expected.publishedTime.slice(0, 10),
            "published",
          );
        }
      });
    }
    // The corpus holds pages of both kinds: the checks above ran on each.
    assert.ok(found >= 6, `${found} shown bylines checked`);
    assert.ok(withoutByline >= 2, `${withoutByline} pages without a byline checked`);
  },
});

Deno.test({
  name:
    "[visible bylines] the visibility corpus's real home pages: no author the page does not show",
  ignore: !present(SITES),
  fn: async () => {
    for (const site of [...Deno.readDirSync(SITES)].filter((e) => e.isDirectory)) {
      let html: string;
      try {
        html = await Deno.readTextFile(new URL(`${site.name}/index.html`, SITES));
      } catch {
        continue;
      }
      const facts = extractPageFacts(html, `https://${site.name}/`);
      const text = visibleText(html);
      for (const a of facts.bylines.authors) {
        assert.ok(text.includes(a.name), `${site.name}: ${a.name} is not in the page's text`);
      }
    }
  },
});
