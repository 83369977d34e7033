/**
 * The account's server-log upload in a real browser (Debian's Chromium through playwright-core)
 * against the app served on 127.0.0.1: a signed-in account chooses a fixture log (the scenario of
 * tests/features/logs/log_fixtures.ts, repeated, a few MB), sends it with the page's form, sees the
 * progress (bytes sent, lines read) and then figures that equal the fixture's known counts; the
 * site's logs report shows them per crawler. axe finds nothing serious; the page fits at 320, 390
 * and 1280 px without scrolling sideways. Screenshots go to tests/output/screenshots/.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { startAppEnv } from "../helpers/app_env.ts";
import { WebClient } from "../helpers/web_client.ts";
import { rangeDir, RENDER, SCENARIO } from "../features/logs/log_fixtures.ts";
import { browserTest, DESKTOP, NARROW, PHONE, SCREENSHOTS } from "./browser.ts";

/** Times the scenario is repeated: enough lines for the progress to be seen moving. */
const REPEAT = 3000;

async function startServer() {
  const env = await startAppEnv({
    env: {
      LOG_IP_RANGES_DIR: await rangeDir(),
      LOG_REVERSE_DNS: "off",
      LOG_IP_RANGES_FETCH: "off",
    },
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => env.app.fetch(req, info),
  );
  return {
    env,
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      await server.shutdown();
      await env.close();
    },
  };
}

async function fits(page: Page, label: string) {
  for (const size of [NARROW, PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    const over = await page.evaluate(() =>
      document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
    assert.ok(over <= 0, `${label} scrolls sideways by ${over}px at ${size.width}px`);
  }
}

async function axeClean(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.help}`), [], `axe on ${label}`);
}

browserTest(
  "server logs: an upload from the account page shows its progress and the fixture's counts",
  async (browser) => {
    const { env, url, close } = await startServer();
    try {
      // Signed in in-process; the browser gets the same session cookie.
      const client = new WebClient(env, "198.51.100.90");
      const res = await client.signUp(
        `logs${crypto.randomUUID().slice(0, 6)}@example.com`,
        "a browser-typed passphrase",
      );
      assert.equal(res.status, 303);
      const context = await browser.newContext({ viewport: DESKTOP });
      await context.addCookies(
        [...client.cookies].map(([name, value]) => ({ name, value, url })),
      );
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(String(e)));
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(m.text());
      });

      // The dashboard links to the logs page.
      await page.goto(`${url}/account`);
      await page.getByRole("link", { name: "Server logs" }).click();
      await page.waitForURL(`${url}/account/logs`);
      await page.locator('[data-island="LogUpload"] button:not([disabled])').waitFor();
      await axeClean(page, "/account/logs");
      await fits(page, "/account/logs");
      await page.setViewportSize(DESKTOP);

      const log = RENDER.combined(Array.from({ length: REPEAT }, () => SCENARIO).flat());
      await page.getByLabel("Site", { exact: true }).fill("shop.test");
      await page.getByLabel(/Access log/).setInputFiles({
        name: "access.log",
        mimeType: "text/plain",
        buffer: Buffer.from(log),
      });
      await page.getByRole("button", { name: "Read the log" }).click();
      // The progress is shown while the log is sent and read.
      await page.locator(".log-progress progress").waitFor();
      const done = page.locator(".log-done");
      await done.waitFor({ timeout: 60_000 });
      const figure = async (name: string) =>
        Number((await done.locator(`[data-${name}]`).innerText()).replaceAll(",", ""));
      // Per scenario: 16 lines, 12 from crawlers; with reverse DNS off, Googlebot's 2 hits are
      // unverifiable; 6 verified (GPTBot 4, OAI-SearchBot 1, ClaudeBot 1) and 3 spoofed (GPTBot).
      assert.equal(await figure("total-lines"), 16 * REPEAT);
      assert.equal(await figure("crawler-lines"), 12 * REPEAT);
      assert.equal(await figure("verified"), 6 * REPEAT);
      assert.equal(await figure("spoofed"), 3 * REPEAT);
      assert.equal(await figure("unverifiable"), 3 * REPEAT);
      const sent = await page.locator(".log-progress [data-sent]").innerText();
      assert.equal(sent, (new TextEncoder().encode(log).length / 1024 / 1024).toFixed(1));
      assert.equal(
        Number((await page.locator(".log-progress [data-lines]").innerText()).replaceAll(",", "")),
        16 * REPEAT,
      );
      await axeClean(page, "/account/logs after a read");
      await fits(page, "/account/logs after a read");
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.setViewportSize(DESKTOP);
      await page.screenshot({ path: `${SCREENSHOTS}logs-upload-desktop.png`, fullPage: true });

      // The site's logs report, one link away.
      await done.getByRole("link", { name: "The logs report of shop.test" }).click();
      await page.waitForURL(`${url}/account/logs/shop.test`);
      const gpt = page.locator("tr", { has: page.locator("th", { hasText: /^GPTBot/ }) });
      assert.equal(await gpt.locator("td").first().innerText(), String(4 * REPEAT));
      await axeClean(page, "/account/logs/shop.test");
      await fits(page, "/account/logs/shop.test");
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: `${SCREENSHOTS}logs-report-phone.png`, fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await close();
    }
  },
);
