/**
 * An ALTCHA challenge expires 10 minutes after it is issued (lib/kit/auth/altcha.ts): a form left
 * open longer must renew it by itself, so a slow human never sees "Verification failed. Please
 * retry." (issue 35). The browser's clock and the server's are moved together:
 * - the lid closed for 11 minutes (`clock.fastForward`: due timers fire once), then a submit;
 * - the system time set 11 minutes on with no timer fired at all (`clock.setSystemTime`), then a
 *   submit: the form sees its token is too old and renews it before sending.
 * On the scan form (home page) and on the sign-in form.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, DESKTOP } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";

const ELEVEN_MINUTES = 11 * 60_000;

/** Waits until the form's widget has put a token in turnstileToken; returns it. */
async function solvedToken(page: Page): Promise<string> {
  const field = page.locator('input[name="turnstileToken"]');
  await page.waitForFunction(
    () =>
      ((document.querySelector('input[name="turnstileToken"]') as HTMLInputElement | null)?.value ??
        "").length > 100,
    undefined,
    { timeout: 60_000 },
  );
  return await field.inputValue();
}

/** Moves the server's clock and the page's by 11 minutes, in one of the two ways. */
async function elevenMinutesLater(s: WebServer, page: Page, how: "lid" | "system") {
  s.env.clock.now = s.env.clock.now + ELEVEN_MINUTES;
  if (how === "lid") await page.clock.fastForward(ELEVEN_MINUTES);
  else await page.clock.setSystemTime(Date.now() + ELEVEN_MINUTES);
}

for (const how of ["lid", "system"] as const) {
  browserTest(
    `a scan form left open 11 minutes (${how}) still scans: the challenge is renewed`,
    async (browser) => {
      const s = await startWebServer();
      try {
        const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
        await page.clock.install();
        await page.goto(`${s.url}/`);
        // The visitor starts typing (the widget loads and solves), then leaves.
        await page.locator("#url").fill("good.test");
        const first = await solvedToken(page);
        await elevenMinutesLater(s, page, how);
        const scanned = page.waitForResponse((r) => r.url().endsWith("/api/scan"), {
          timeout: 60_000,
        });
        await page.locator("#url").press("Enter");
        const res = await scanned;
        const sent = JSON.parse(res.request().postData() ?? "{}").turnstileToken;
        assert.notEqual(sent, first, "a fresh token was sent, not the expired one");
        assert.equal(res.status(), 202);
        await page.waitForURL("**/report/good.test");
        assert.equal(await page.getByText("Verification failed").count(), 0);
      } finally {
        await s.close();
      }
    },
  );
}

for (const how of ["lid", "system"] as const) {
  browserTest(
    `a sign-in form left open 11 minutes (${how}) signs in: the challenge is renewed`,
    async (browser) => {
      const s = await startWebServer({ worker: false });
      try {
        const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
        await page.clock.install();
        await page.goto(`${s.url}/account/signup`);
        await page.locator("#email").fill("slow@example.org");
        await page.locator("#password").fill("a long enough passphrase 42");
        await solvedToken(page);
        await Promise.all([
          page.waitForURL("**/account"),
          page.locator("#password").press("Enter"),
        ]);
        await page.goto(`${s.url}/account/logout`).catch(() => {});
        await page.context().clearCookies();
        await page.goto(`${s.url}/account/login`);
        await page.locator("#email").fill("slow@example.org");
        await page.locator("#password").fill("a long enough passphrase 42");
        const first = await solvedToken(page);
        await elevenMinutesLater(s, page, how);
        const posted = page.waitForRequest((r) =>
          r.method() === "POST" && /\/account\/login/.test(r.url())
        );
        await page.locator("#password").press("Enter");
        const body = new URLSearchParams((await posted).postData() ?? "");
        assert.notEqual(body.get("turnstileToken"), first, "a fresh token was sent");
        await page.waitForURL("**/account", { timeout: 30_000 });
        assert.equal(await page.getByText("Verification failed").count(), 0);
      } finally {
        await s.close();
      }
    },
  );
}
