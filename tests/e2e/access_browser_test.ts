/**
 * The report's first screen for a site whose CDN turns ChatGPT's, Claude's, Perplexity's and
 * Apple's crawlers away (a challenge page to their search, user and training User-Agents) while
 * Googlebot and Bingbot get the page, in Chromium at desktop (1280x900) and phone (390x844) widths,
 * light and dark: the line under the score names those assistants and the CDN, and leads to the
 * edge fix, which is fix 1; the products section shows each of them unable to be found or to fetch,
 * in words and colour, the others able to; its crawlers are one click away; axe finds no violation.
 */
import assert from "node:assert/strict";
import { AxeBuilder } from "@axe-core/playwright";
import { PIPELINE } from "../helpers/app_env.ts";
import { DESKTOP, hasChromium, launchBrowser, PHONE, SCREENSHOTS } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { startAccessSites } from "../fixtures/access_sites.ts";

/** The issue's site B: the CDN challenges four vendors' crawlers; Google and Bing get the page. */
const REFUSED = [
  "OAI-SearchBot",
  "ChatGPT-User",
  "GPTBot",
  "Claude-SearchBot",
  "Claude-User",
  "ClaudeBot",
  "PerplexityBot",
  "Perplexity-User",
  "Applebot",
];

if (!hasChromium()) {
  console.error("!!! /usr/bin/chromium is missing: the access browser test is SKIPPED");
}

Deno.test({
  name:
    "[browser] the edge fixture's first screen names the assistants and leads with the edge fix",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const sites = startAccessSites();
    const host = sites.add({ path: "challenge", refuse: REFUSED });
    const server = await startWebServer({ extraResolve: [`${host}=127.0.0.1:${sites.port}`] });
    const browser = await launchBrowser();
    try {
      const res = await server.env.scan({ url: host }, {
        ip: "203.0.113.40",
        auth: `Bearer ${PIPELINE}`,
      });
      await res.body?.cancel();
      for (let i = 0; i < 300 && !(await server.env.store.getScan(host)); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
        for (const scheme of ["light", "dark"] as const) {
          const context = await browser.newContext({ viewport, colorScheme: scheme });
          const page = await context.newPage();
          try {
            await page.goto(`${server.url}/report/${host}`);
            await page.screenshot({
              path: `${SCREENSHOTS}access-first-screen-${size}-${scheme}.png`,
            });
            // What the first screen shows: the text of elements that start within it.
            const first = await page.evaluate(() => {
              const reason = document.querySelector(".score-reason");
              const box = reason?.getBoundingClientRect();
              return {
                reason: reason?.textContent?.replace(/\s+/g, " ") ?? "",
                reasonOnScreen: !!box && box.bottom <= innerHeight,
              };
            });
            assert.ok(first.reasonOnScreen, `${size}: the line under the score is on screen`);
            for (const name of ["ChatGPT", "Claude", "Perplexity", "Apple Intelligence"]) {
              assert.ok(first.reason.includes(name), `${size}: ${first.reason}`);
            }
            assert.match(first.reason, /your CDN answers their crawlers with a challenge page/);
            assert.doesNotMatch(first.reason, /Google|Copilot/, "only the products affected");
            assert.match(first.reason, /First fix: Let AI crawlers past your CDN or firewall/);
            const fix1 = await page.locator("#issue-1 h3").textContent();
            assert.match(fix1 ?? "", /Let AI crawlers past your CDN or firewall/);
            // The products: those turned away in red words, Google and Copilot able.
            const state = (product: string, count: string) =>
              page.locator(`[data-product="${product}"] [data-count="${count}"]`).getAttribute(
                "data-state",
              );
            for (const p of ["chatgpt", "claude", "perplexity", "apple"]) {
              assert.equal(await state(p, "search"), "no", `${p} search`);
            }
            assert.equal(await state("chatgpt", "user"), "no");
            assert.equal(await state("google", "search"), "yes");
            assert.equal(await state("copilot", "search"), "yes");
            assert.match(
              (await page.locator('[data-product="chatgpt"] [data-count="search"]').textContent())!,
              /No: CDN challenge page/,
            );
            // Tokens one click away.
            const crawlers = page.locator('[data-product="chatgpt"] .product-crawlers');
            await crawlers.locator("summary").click();
            assert.match(
              (await crawlers.textContent())!,
              /OAI-SearchBot search: turned away \(CDN: a challenge page \(HTTP 403\)\)/,
            );
            // No sideways scrolling.
            const overflow = await page.evaluate(() =>
              document.documentElement.scrollWidth - document.documentElement.clientWidth
            );
            assert.ok(overflow <= 0, `${size} ${scheme}: scrolls sideways by ${overflow}px`);
            // What this change adds: the summary with its line, the products, the crawler table.
            // (The rest of the page is issue 42's: it still reports landmark-unique on the
            // sampled pages' section.)
            const axe = await new AxeBuilder({ page }).include(".summary").include("#products")
              .analyze();
            assert.deepEqual(
              axe.violations.map((v) =>
                `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`
              ),
              [],
              `${size} ${scheme}: axe`,
            );
          } finally {
            await context.close();
          }
        }
      }
    } finally {
      await browser.close();
      await server.close();
      await sites.close();
    }
  },
});
