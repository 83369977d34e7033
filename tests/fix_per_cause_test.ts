/**
 * One fix per root cause on a real scan (issue 32), with the crawler signals of issue 28 in play
 * (the edge probes, the declared AI usage preferences): a news-style robots.txt whose `*` group
 * closes the article pages with path globs while named groups keep crawlers from the whole site,
 * behind a CDN that challenges AI crawlers. The report must offer one robots.txt fix for the AI
 * crawlers' access (what the search crawler, assistant and sampled-pages checks each ask), with
 * the pages in words and the globs only inside its code block; the CDN is a cause of its own.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { parseHow } from "../lib/engines/visibility/fix_text.ts";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { startEditableSite } from "./fixtures/editable_site.ts";
import { worthText } from "../lib/engines/visibility/report_texts.ts";

const NOW = new Date("2026-11-26T12:00:00Z");

/** robots.txt of a news site: named groups closed, article paths closed by globs for everyone. */
const NEWS_ROBOTS = [
  "User-agent: OAI-SearchBot",
  "User-agent: ChatGPT-User",
  "Disallow: /",
  "",
  "User-agent: *",
  "Content-signal: search=yes, ai-train=no",
  "Disallow: /articles/*/*/*",
  "Disallow: /search/*",
  "Allow: /",
  "",
  "Sitemap: https://payoff.test/sitemap.xml",
  "",
].join("\n");

function prose(how: string): string {
  return parseHow(how).filter((p) => p.kind === "prose").map((p) => p.text).join("\n");
}

function codes(how: string): string[] {
  return parseHow(how).flatMap((p) => p.kind === "code" ? [p.code] : []);
}

Deno.test({
  name: "[fix per cause] a news-style robots.txt behind a challenging CDN: one robots.txt fix",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const site = startEditableSite();
    site.files.set("/robots.txt", NEWS_ROBOTS);
    site.edge.blocksAi = true;
    try {
      const config = loadConfig({
        SCAN_RESOLVE: site.resolve,
        WIKIDATA_API_URL: "http://127.0.0.1:9/w/api.php",
        WIKIPEDIA_API_URL: "http://127.0.0.1:9/w/api.php",
        COMMONCRAWL_INDEX_URL: "http://127.0.0.1:9/collinfo.json",
        SCAN_TIMEOUT_MS: "20000",
        REQUEST_TIMEOUT_MS: "3000",
        OFFSITE_TIMEOUT_MS: "500",
      });
      const { record } = await scanSite(site.host, { config, now: () => NOW, pages: 6 });
      ScanRecordSchema.parse(record);
      const issues = record.result!.topIssues;
      const causes = issues.map((i) => i.fix.cause?.key ?? i.id);
      assert.equal(new Set(causes).size, issues.length, `one issue per cause: ${causes}`);

      // Exactly one fix edits robots.txt's groups, and it resolves every access check it serves.
      const editsGroups = issues.filter((i) =>
        codes(i.fix.how).some((c) => /User-agent:/i.test(c))
      );
      assert.equal(editsGroups.length, 1, editsGroups.map((i) => i.title).join(" | "));
      const [robots] = editsGroups;
      assert.equal(robots.fix.cause?.key, "robots.txt:ai-access");
      for (const id of ["access.search_crawlers", "access.user_fetchers", "access.site_pages"]) {
        assert.ok(robots.resolves!.some((r) => r.id === id), `${id} in ${robots.title}`);
      }
      // The pages in words; the globs only in the code to paste.
      // Who is kept from the whole site is let in on the site, the others on the pages named.
      assert.match(
        robots.title,
        /^Allow OAI-SearchBot, ChatGPT-User on the site and \d+ more AI crawlers on your article pages/,
        robots.title,
      );
      for (const i of issues) {
        assert.doesNotMatch(`${i.title}\n${prose(i.fix.how)}`, /\/\S*\*/, `glob in words: ${i.id}`);
      }
      // The CDN's challenge is a cause of its own (the file cannot lift it), capping the score;
      // the robots.txt fix says what it adds once that cap is lifted.
      const edge = issues.find((i) => i.id === "access.edge");
      assert.ok(edge, causes.join());
      assert.equal(codes(edge.fix.how).some((c) => /User-agent:/i.test(c)), false);
      assert.ok(robots.worth!.points > 0, JSON.stringify(robots.worth));
      // Two caps hold (the pages robots.txt closes, the CDN): lifting one says so; every other
      // fix adds its points once the caps are lifted, as the score would show them.
      const result = record.result!;
      assert.equal(worthText(robots, result), "Lifts a cap");
      for (const i of issues.filter((i) => !i.worth?.lifts.length)) {
        assert.match(worthText(i, result), /^\+\d+(\.\d)? points? once the cap is lifted$/, i.id);
      }
      // The declared usage preference is the owner's choice: reported, never a fix.
      assert.ok(!issues.some((i) => i.id === "access.ai_preferences"));
      // In the top three, no two fixes name the same crawlers' robots.txt groups.
      const top = issues.slice(0, 3);
      assert.ok(
        top.filter((i) => /robots\.txt/i.test(i.title)).length <= 1,
        top.map((i) => i.title).join(" | "),
      );
    } finally {
      await site.close();
    }
  },
});
