/**
 * The report's first screen in a real browser (Debian's Chromium through npm:playwright-core), at
 * phone (390x844) and desktop (1280x900) widths, in light and dark colour schemes:
 * - a site whose edge blocks AI crawlers: the capped-score explanation is on the first screen,
 *   names the gate, and the pillar holding the gate shows it;
 * - the weak-site fixture (no-llms.test): the report up to its top three fixes fits in three
 *   phone screens;
 * - every link of a report page to /learn/* answers 200, and one opens the explanation.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { PIPELINE } from "../helpers/app_env.ts";
import { DESKTOP, hasChromium, launchBrowser, PHONE } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";

function browserTest(name: string, fn: (b: Browser, s: WebServer) => Promise<void>) {
  Deno.test({
    name: `[browser] ${name}`,
    ignore: !hasChromium(),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const server = await startWebServer();
      const browser = await launchBrowser();
      try {
        for (const host of ["edge-blocks-bots.test", "no-llms.test"]) {
          const res = await server.env.scan({ url: host }, {
            ip: "203.0.113.30",
            auth: `Bearer ${PIPELINE}`,
          });
          await res.body?.cancel();
          for (let i = 0; i < 200 && !(await server.env.store.getScan(host)); i++) {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        await fn(browser, server);
      } finally {
        await browser.close();
        await server.close();
      }
    },
  });
}

if (!hasChromium()) {
  console.error("!!! /usr/bin/chromium is missing: the report browser tests are SKIPPED");
}

/** The bottom of an element in page coordinates (CSS pixels from the top of the document). */
function bottomOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`${sel} is missing`);
    return el.getBoundingClientRect().bottom + scrollY;
  }, selector);
}

const SIZES = [["phone", PHONE], ["desktop", DESKTOP]] as const;
const SCHEMES = ["light", "dark"] as const;

browserTest("a capped score is explained on the first screen", async (browser, s) => {
  for (const [size, viewport] of SIZES) {
    for (const colorScheme of SCHEMES) {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${s.url}/report/edge-blocks-bots.test`);
      const note = page.locator("#cap-notice");
      assert.ok(await note.isVisible(), `${size}/${colorScheme}: the cap notice is shown`);
      const text = (await note.textContent())!.replace(/\s+/g, " ");
      assert.match(
        text,
        /capped at 35 because every major AI search engine's crawler is turned away/,
      );
      assert.match(text, /refused at the edge: a challenge page/);
      assert.match(text, /Fix this first/);
      // On the first screen at desktop width, within the first two at phone width.
      const limit = size === "desktop" ? viewport.height : 2 * viewport.height;
      const bottom = await bottomOf(page, "#cap-notice");
      assert.ok(bottom <= limit, `${size}: cap notice in view (${bottom} > ${limit})`);
      // The pillar that holds the gate is open and says it caps the score.
      const gate = page.locator("#pillar-access .pillar-gate");
      assert.ok(await gate.isVisible(), `${size}: the access pillar shows its gate`);
      assert.match((await gate.textContent())!, /caps the whole score at 35/);
      // "How to fix it" leads to the first fix, which holds the edge fix.
      await note.getByRole("link", { name: "How to fix it" }).click();
      await page.locator("#issue-1 .fix-details > summary").click();
      assert.ok(await page.locator("#issue-1 .fix-steps").isVisible());
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

browserTest(
  "the weak site's report fits in three phone screens up to its top 3 fixes",
  async (browser, s) => {
    for (const colorScheme of SCHEMES) {
      const context = await browser.newContext({ viewport: PHONE, colorScheme });
      const page = await context.newPage();
      await page.goto(`${s.url}/report/no-llms.test`);
      assert.equal(await page.locator("#top-fixes .top-fix").count(), 3);
      const bottom = await bottomOf(page, "#top-fixes .top-fix:nth-child(3)");
      const screens = bottom / PHONE.height;
      console.log(
        `no-llms.test (${colorScheme}): top 3 fixes end at ${bottom}px = ${
          screens.toFixed(2)
        } phone screens`,
      );
      assert.ok(screens <= 3, `${screens.toFixed(2)} screens`);
      // Each of the three says its effort, visibly.
      for (let n = 1; n <= 3; n++) {
        assert.ok(await page.locator(`#issue-${n} .badge.effort`).isVisible(), `fix ${n} effort`);
      }
      // No sideways scrolling on the phone.
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.ok(overflow <= 0, `${overflow}px of horizontal overflow`);
      await context.close();
    }
  },
);

browserTest("every learn-more link of a report page answers 200", async (browser, s) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  for (const host of ["no-llms.test", "edge-blocks-bots.test"]) {
    await page.goto(`${s.url}/report/${host}`);
    const hrefs = await page.evaluate(
      () => [
        ...new Set(
          [...document.querySelectorAll("a[href^='/learn/']")].map((a) => a.getAttribute("href")!),
        ),
      ],
    );
    assert.ok(hrefs.length >= 30, `${host}: ${hrefs.length} learn links`);
    for (const href of hrefs) {
      const res = await page.request.get(`${s.url}${href}`);
      assert.equal(res.status(), 200, `${host}: ${href}`);
    }
  }
  // Following one: the check explained, with the vendors' documentation.
  await page.goto(`${s.url}/report/edge-blocks-bots.test`);
  await page.locator("#cap-notice").getByRole("link", { name: /Learn more/ }).click();
  // The gate is the search crawlers' (every path that turns them away), here raised by the edge.
  await page.waitForURL(/\/learn\/access\.search_crawlers$/);
  assert.match((await page.locator("h1").textContent())!, /AI search crawlers/);
  assert.ok(await page.getByRole("heading", { name: "How we test it" }).isVisible());
  assert.ok(await page.locator("a[href='https://developers.openai.com/api/docs/bots']").count());
  await context.close();
});
