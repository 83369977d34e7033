/**
 * The payoff of a rescan, as a site owner lives it (issue 32), in a real browser (Debian's
 * Chromium through npm:playwright-core) against the app on 127.0.0.1: scan the editable fixture
 * site from the home page's form, apply the report's suggested fixes to the site (the robots.txt
 * change, the home page's JSON-LD, the article template), press "Scan again", and check that
 * - the first screen leads with the change (checks fixed since the previous scan, how the score
 *   moved) and the full comparison follows;
 * - the top fixes are one per cause, each with its worth in points, the paths in words;
 * - the Markdown and HTML exports keep the plain words and the code blocks;
 * - neither the rescanned report (with its change table) nor the compare page scrolls sideways at
 *   1280, 390 or 320 px; compare's "Scan it" opens the scan form filled with that site.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, DESKTOP, NARROW, PHONE } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { startEditableSite } from "../fixtures/editable_site.ts";
import { applyRobotsHow, pasteIntoHead } from "../helpers/apply_fix.ts";
import { parseHow } from "../../lib/engines/visibility/fix_text.ts";
import type { Issue, ScanRecord } from "../../lib/engines/visibility/record.ts";
import { comparePagePath } from "../../lib/kit/report_urls.ts";

/** The page scrolls sideways when its document is wider than the viewport. */
function sideways(page: Page): Promise<number> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

/** The top fixes the first screen shows: their cause (data-cause), title and worth badge. */
function topFixes(page: Page) {
  return page.locator(".top-fix").evaluateAll((items) =>
    items.map((li) => ({
      cause: li.getAttribute("data-cause") ?? "",
      title: li.querySelector("h3")?.textContent?.trim() ?? "",
      worth: li.querySelector(".badge.worth")?.textContent?.trim() ?? "",
    }))
  );
}

/** What the prose of a fix says, its code blocks left out (globs belong in the code only). */
function proseOf(how: string): string {
  return parseHow(how).filter((p) => p.kind === "prose").map((p) => p.text).join("\n");
}

browserTest("scan, apply the fixes, scan again: the change leads the first screen", async (b) => {
  const site = startEditableSite();
  const s = await startWebServer({ extraResolve: [site.resolve] });
  try {
    const context = await b.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${s.url}/`);
    await page.locator("#url").fill(site.host);
    await page.locator("#url").press("Enter");
    await page.waitForURL(`**/report/${site.host}`, { timeout: 60_000 });
    await page.locator(".summary .score-gauge").waitFor({ timeout: 60_000 });
    assert.equal(await page.locator("#change-lead").count(), 0, "nothing to compare yet");

    // One fix per cause, each with its worth; robots.txt's groups are one fix, its pages in words.
    const first = await topFixes(page);
    assert.ok(first.length >= 3, `${first.length} top fixes`);
    assert.equal(new Set(first.map((f) => f.cause)).size, first.length, "one fix per cause");
    for (const f of first) assert.match(f.worth, /^\+\d+(\.\d)? points?|^Lifts/, f.title);
    const record = await (await page.request.get(`${s.url}/api/report/${site.host}.json`))
      .json() as ScanRecord;
    const issues = record.result!.topIssues;
    const byCause = (key: string): Issue => {
      const found = issues.find((i) => i.fix.cause?.key === key);
      assert.ok(found, `a fix for ${key}: ${issues.map((i) => i.fix.cause?.key ?? i.id)}`);
      return found;
    };
    const robots = byCause("robots.txt:ai-access");
    assert.deepEqual(robots.resolves!.map((r) => r.id).sort(), [
      "access.search_crawlers",
      "access.site_pages",
      "access.user_fetchers",
    ]);
    assert.equal(
      issues.filter((i) => /robots\.txt/.test(i.title)).length,
      1,
      "no second robots.txt fix for the same crawlers",
    );
    assert.match(robots.title, /your article pages/);
    for (const i of issues) {
      assert.doesNotMatch(`${i.title}\n${proseOf(i.fix.how)}`, /\/\S*\*/, `glob in words: ${i.id}`);
    }

    // The owner applies the three changes the report asks for.
    site.files.set("/robots.txt", applyRobotsHow(site.files.get("/robots.txt")!, robots.fix.how));
    site.files.set("/", pasteIntoHead(site.files.get("/")!, byCause("home:json-ld").fix.how));
    byCause("template:article");
    site.articleTemplate.fixed = true;

    // An hour later (a rescan within minutes would answer the same report), "Scan again".
    s.env.clock.now = Date.now() + 3_600_000;
    await page.reload();
    await page.locator(".rescan-form button[type=submit]").click();
    await page.locator("#change-lead").waitFor({ timeout: 90_000 });

    // The first screen (900 px at 1280) leads with the change: checks fixed since, and the score.
    const lead = (await page.locator("#change-lead").boundingBox())!;
    assert.ok(lead.y + lead.height <= DESKTOP.height, `the change ends at ${lead.y + lead.height}`);
    const headline = await page.locator(".change-headline").textContent() ?? "";
    assert.match(headline, /^\d+ checks? fixed since /);
    const fixed = Number(headline.match(/^(\d+)/)![1]);
    assert.ok(fixed >= 5, `${fixed} checks fixed (robots.txt, JSON-LD, template)`);
    const moved = await page.locator(".change-score").textContent() ?? "";
    const [, from, to] = moved.match(/score moved (\d+) → (\d+)/) ?? [];
    assert.ok(from && to && Number(to) > Number(from), moved);
    assert.equal(Number(from), Math.round(record.result!.score));
    // The top fixes come right after the change, the full comparison below them.
    const fixesTop = (await page.locator("#top-fixes").boundingBox())!.y;
    const changes = (await page.locator("#changes-title").boundingBox())!.y;
    assert.ok(lead.y < fixesTop && fixesTop < changes, "change, then fixes, then the full diff");
    const after = await topFixes(page);
    assert.equal(new Set(after.map((f) => f.cause)).size, after.length);
    assert.ok(!after.some((f) => f.cause.startsWith("robots.txt")), "the robots.txt fix is done");

    // The exports read like the page: words for effort and results, code blocks stay code.
    const md = await (await page.request.get(`${s.url}/api/report/${site.host}.md`)).text();
    assert.doesNotMatch(md, /Effort: [SML]\b|Status: (fail|warn)\b|Check: [a-z]+\.[a-z_]+/);
    assert.match(md, /```/, "a fenced code block");
    assert.doesNotMatch(md, /\\`/, "no escaped backtick");
    assert.match(md, /\/learn\//, "links to the learn pages");
    const html = await (await page.request.get(`${s.url}/api/report/${site.host}.html`)).text();
    assert.match(html, /<pre[^>]*><code[^>]*>/);
    // Prose naming a tag reads "<head>" in the browser: escaped once, never twice.
    assert.match(html, /<p[^>]*>[^<]*&lt;head>/);
    assert.doesNotMatch(html, /&amp;lt;head>/);

    // No sideways scroll at any width: the rescanned report (its change table) and compare.
    const compare = `${s.url}${comparePagePath([site.host, "good.test", "never.example"])}`;
    // Compare's "Scan it" for a site not scanned yet opens the form filled with it, and the
    // page's script (the form's island) keeps it there.
    await page.goto(compare);
    await page.locator('a[href*="never.example"]', { hasText: "Scan it" }).click();
    await page.waitForLoadState("networkidle");
    assert.equal(await page.locator("#url").inputValue(), "never.example");
    await page.locator("#url").press("End");
    await page.locator("#url").type(".");
    assert.equal(await page.locator("#url").inputValue(), "never.example.", "the reader's field");
    for (const viewport of [DESKTOP, PHONE, NARROW]) {
      const p = await (await b.newContext({ viewport })).newPage();
      for (const url of [`${s.url}/report/${site.host}`, compare]) {
        await p.goto(url);
        // Open every disclosure, so what it hides is measured too.
        await p.evaluate(() => document.querySelectorAll("details").forEach((d) => d.open = true));
        assert.equal(await sideways(p), 0, `${url} at ${viewport.width} px`);
      }
      await p.context().close();
    }
  } finally {
    await s.close();
    await site.close();
  }
});
