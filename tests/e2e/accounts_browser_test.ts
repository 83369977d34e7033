/**
 * Accounts in a real browser (Debian's Chromium through npm:playwright-core) against the app
 * served on 127.0.0.1, with the self-hosted ALTCHA challenge solving for real in the page:
 * - with JavaScript: sign up (inline validation, the challenge), land on the dashboard, create a
 *   key without a reload, copy it (clipboard read back), scan with it (202), revoke it in the UI
 *   (inline confirmation), and the same key gets 401; keep an AI vendor key of one's own (saved,
 *   shown as set and never again, removed; axe finds nothing serious in the section); the
 *   administrator signs in and sees it all;
 * - with JavaScript disabled: the challenge cannot run, so the test signs in the way a browser
 *   would (it solves an ALTCHA challenge itself and posts the login form), hands the session
 *   cookie to a no-JS browser, which creates a key and revokes it with the plain forms.
 * Screenshots (desktop and phone) go to tests/output/screenshots/.
 */
import assert from "node:assert/strict";
import { solveChallenge } from "altcha-lib";
import { deriveKey as pbkdf2 } from "altcha-lib/algorithms/pbkdf2";
import { deriveKey as sha } from "altcha-lib/algorithms/sha";
import type { BrowserContext, Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { startAppEnv } from "../helpers/app_env.ts";
import { formToken } from "../helpers/web_client.ts";
import { hasChromium, launchBrowser, SCREENSHOTS } from "./browser.ts";
import { TEST_SEALING_KEY } from "../helpers/answers_env.ts";

const ADMIN_PASSWORD = "owner passphrase for the browser test";
const PASSWORD = "a browser-typed passphrase";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function startServer() {
  const env = await startAppEnv({
    challenge: "altcha",
    env: { ADMIN_PASSWORD, ANSWERS_USER_KEYS: "1", WATCH_SECRET_KEY: TEST_SEALING_KEY },
  });
  // Browsers and ALTCHA's expiry live in real time.
  Object.defineProperty(env.clock, "now", { get: () => Date.now(), set: () => {} });
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

/** Problems the page reported: console errors (CSP violations included) and uncaught errors. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(String(e)));
  return problems;
}

async function shoot(page: Page, name: string) {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** Waits until the AuthForm island is hydrated (its challenge status line only exists then). */
async function hydrated(page: Page) {
  await page.locator(".challenge-status").waitFor();
}

/** Waits until the form's challenge widget has put its solved payload into `turnstileToken`. */
async function challengeSolved(page: Page) {
  await page.waitForFunction(
    () =>
      (document.querySelector('input[name="turnstileToken"]') as HTMLInputElement | null)?.value,
    undefined,
    { timeout: 30_000 },
  );
}

function scan(url: string, key: string, domain: string) {
  return fetch(`${url}/api/scan`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: domain }),
  });
}

/** Signs in from Deno as a JavaScript browser would: solves ALTCHA, posts the login form. */
async function sessionCookieFor(url: string, email: string): Promise<string> {
  const page = await fetch(`${url}/account/login`);
  const csrfCookie = page.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) =>
    c.startsWith("csrf=")
  )!;
  const csrf = formToken(await page.text());
  const challenge = await (await fetch(`${url}/api/challenge`)).json();
  // Whichever algorithm lib/kit/auth/altcha.ts issues, solved as the widget would.
  const deriveKey = /^PBKDF2/.test(challenge.parameters.algorithm) ? pbkdf2 : sha;
  const solution = await solveChallenge({ challenge, deriveKey });
  const res = await fetch(`${url}/account/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: csrfCookie,
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams({
      csrf,
      email,
      password: PASSWORD,
      turnstileToken: btoa(JSON.stringify({ challenge, solution })),
    }),
  });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  const sid = res.headers.getSetCookie().find((c) => c.startsWith("sid="));
  assert.ok(sid);
  return sid.split(";")[0].slice(4);
}

Deno.test({
  name:
    "[e2e] accounts in Chromium: sign up, create, copy, use and revoke a key; the admin sees it",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const server = await startServer();
    const browser = await launchBrowser();
    const email = `browser.${crypto.randomUUID().slice(0, 6)}@example.com`;
    let context: BrowserContext | null = null;
    try {
      context = await browser.newContext({ viewport: DESKTOP });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      const page = await context.newPage();
      const problems = watch(page);
      let key = "";

      await t.step("sign up, with inline validation and the real challenge", async () => {
        await page.goto(`${server.url}/account/signup`);
        await page.getByText("No e-mail is ever sent").waitFor();
        await hydrated(page);
        await page.fill("#email", "not-an-address");
        await page.fill("#password", "short");
        await page.locator("#email").blur();
        await page.getByText("does not look like an e-mail address").waitFor();
        await page.click("button[type=submit]");
        await page.getByText("Use at least 12 characters (this one has 5)").waitFor();
        assert.equal(new URL(page.url()).pathname, "/account/signup", "not sent");
        await page.fill("#email", email);
        await page.fill("#password", PASSWORD);
        await challengeSolved(page);
        await page.getByText("Anti-bot check done.").waitFor();
        await shoot(page, "accounts-signup");
        await Promise.all([
          page.waitForURL(`${server.url}/account`),
          page.click("button[type=submit]"),
        ]);
        await page.getByText(`Signed in as ${email}`).waitFor();
      });

      await t.step("create a key without a reload; it is shown once; copy it", async () => {
        await page.locator("form.create-key[novalidate]").waitFor(); // hydrated
        await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
        await page.fill("#key-name", "e2e laptop");
        await page.getByRole("button", { name: "Create key" }).click();
        await page.locator(".new-key").waitFor();
        key = await page.inputValue("#new-key-value");
        assert.match(key, /^uvk_[A-Za-z0-9_-]{43}$/);
        await page.getByRole("button", { name: "Copy", exact: true }).click();
        await page.getByText("Copied to the clipboard.").waitFor();
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        assert.equal(copied, key);
        assert.equal(
          await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
          42,
          "the page was not reloaded",
        );
        await shoot(page, "accounts-dashboard");
      });

      await t.step("the key scans from a script (202)", async () => {
        const res = await scan(server.url, key, "browser-e2e.example");
        assert.equal(res.status, 202, await res.clone().text());
        await res.body?.cancel();
      });

      await t.step("after a reload only the key's first characters are shown", async () => {
        await page.reload();
        const html = await page.content();
        assert.ok(!html.includes(key));
        assert.ok(html.includes(`${key.slice(0, 10)}…`));
        await page.locator("tr", { hasText: "e2e laptop" }).getByText("UTC").first().waitFor();
      });

      await t.step("revoke in the UI (inline confirmation); the key now gets 401", async () => {
        await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 7));
        await page.getByRole("button", { name: "Revoke e2e laptop" }).click();
        await page.getByRole("button", { name: "Yes, revoke" }).click();
        await page.getByText("Key “e2e laptop” revoked").waitFor();
        await page.locator("tr", { hasText: "e2e laptop" }).locator(".badge.status-fail").waitFor();
        assert.equal(
          await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
          7,
          "revoked without a reload",
        );
        const res = await scan(server.url, key, "browser-e2e-2.example");
        assert.equal(res.status, 401);
        assert.deepEqual(await res.json(), { error: "Unauthorized" });
      });

      await t.step(
        "keep an AI vendor key of one's own: saved, never shown again, removed",
        async () => {
          const vendorKey = "sk-browser-e2e-0123456789abcdef";
          const section = page.locator("#answer-keys");
          await section.getByText("Your AI vendor keys").waitFor();
          const row = section.locator("tr", { hasText: "Perplexity" });
          await row.getByText("not set").waitFor();
          await row.getByLabel(/Perplexity/).fill(vendorKey);
          await Promise.all([
            page.waitForURL(/\/account#answer-keys$/),
            row.getByRole("button", { name: "Save" }).click(),
          ]);
          await section.getByText(/Perplexity.* key is saved/).waitFor();
          await section.locator("tr", { hasText: "Perplexity" }).getByText("set since").waitFor();
          assert.ok(!(await page.content()).includes(vendorKey), "the key is never in the page");
          assert.equal(await section.locator("input[type=password]").first().inputValue(), "");
          const result = await new AxeBuilder({ page }).include("#answer-keys").analyze();
          const bad = result.violations.filter((v) =>
            v.impact === "serious" || v.impact === "critical"
          );
          assert.deepEqual(bad.map((v) => `${v.id}: ${v.help}`), [], "axe on #answer-keys");
          await section.screenshot({ path: `${SCREENSHOTS}accounts-answer-keys.png` });
          await Promise.all([
            page.waitForURL(/\/account#answer-keys$/),
            section.locator("tr", { hasText: "Perplexity" }).getByRole("button", { name: "Remove" })
              .click(),
          ]);
          await section.getByText(/Perplexity.* key is removed/).waitFor();
          await section.locator("tr", { hasText: "Perplexity" }).getByText("not set").waitFor();
        },
      );

      await t.step("no console errors (CSP included)", () => {
        assert.deepEqual(problems, []);
      });

      await t.step(
        "the administrator signs in and sees the account, its key and the scans",
        async () => {
          await server.env.store.finishScan({
            kind: "scan",
            service: "visibility",
            jobId: "j1",
            target: { domain: "shop.example", url: "https://shop.example/", host: "shop.example" },
            credential: "key",
            enqueuedAt: Date.now(),
          }, {
            record: {
              domain: "shop.example",
              status: "ok",
              scannedAt: new Date().toISOString(),
              result: { score: 84, grade: "B", label: "Good", pillars: [], topIssues: [] },
            },
            failure: null,
            credential: "key",
            durationMs: 1,
            jobId: "j1",
          });
          const admin = await browser.newContext({ viewport: DESKTOP });
          const adminPage = await admin.newPage();
          const adminProblems = watch(adminPage);
          await adminPage.goto(`${server.url}/admin`);
          assert.equal(new URL(adminPage.url()).pathname, "/admin/login");
          await hydrated(adminPage);
          await adminPage.fill("#password", ADMIN_PASSWORD);
          await challengeSolved(adminPage);
          await Promise.all([
            adminPage.waitForURL(`${server.url}/admin`),
            adminPage.click("button[type=submit]"),
          ]);
          await adminPage.getByRole("heading", { name: "Administration" }).waitFor();
          const text = await adminPage.textContent("main") ?? "";
          assert.ok(text.includes(email));
          assert.ok(text.includes("e2e laptop"));
          assert.ok(text.includes("shop.example"));
          assert.ok(text.includes("scans per API key"));
          assert.ok(text.includes("sign-in attempts per IP"));
          await shoot(adminPage, "admin");
          assert.deepEqual(adminProblems, []);
          await admin.close();
        },
      );

      await t.step("JavaScript disabled: the key forms work as plain form posts", async () => {
        const sid = await sessionCookieFor(server.url, email);
        const noJs = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
        await noJs.addCookies([{ name: "sid", value: sid, url: server.url }]);
        const p = await noJs.newPage();
        await p.goto(`${server.url}/account/signup`);
        // Playwright's text engine skips <noscript>; with JS off its content is shown, though.
        assert.ok(await p.locator("noscript > p.notice").isVisible());
        assert.match(await p.content(), /The anti-bot check needs JavaScript/);
        await p.goto(`${server.url}/account`);
        await p.getByText(`Signed in as ${email}`).waitFor();
        assert.equal(await p.locator(".copy-key").count(), 0, "not hydrated: JS is off");
        await p.fill("#key-name", "no-js key");
        await Promise.all([
          p.waitForURL(`${server.url}/account`),
          p.getByRole("button", { name: "Create key" }).click(),
        ]);
        const noJsKey = await p.inputValue("#new-key-value");
        assert.match(noJsKey, /^uvk_/);
        const ok = await scan(server.url, noJsKey, "nojs.example");
        assert.equal(ok.status, 202);
        await ok.body?.cancel();
        await p.reload();
        assert.ok(!(await p.content()).includes(noJsKey), "shown once");
        await Promise.all([
          p.waitForURL(`${server.url}/account`),
          p.getByRole("button", { name: "Revoke no-js key" }).click(),
        ]);
        await p.getByText("Key “no-js key” revoked").waitFor();
        const denied = await scan(server.url, noJsKey, "nojs2.example");
        assert.equal(denied.status, 401);
        await denied.body?.cancel();
        await Promise.all([
          p.waitForURL(/\/account\/login/),
          p.getByRole("button", { name: "Sign out" }).click(),
        ]);
        await p.getByText("You are signed out.").waitFor();
        await noJs.close();
      });
    } finally {
      await context?.close();
      await browser.close();
      await server.close();
    }
  },
});

if (!hasChromium()) {
  console.warn(
    "SKIPPED tests/e2e/accounts_browser_test.ts: /usr/bin/chromium is not installed (apt-get install chromium)",
  );
}
