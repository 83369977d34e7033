/**
 * The public web pages in a real browser (Debian's Chromium through npm:playwright-core) against
 * the app served on 127.0.0.1, with the queue worker scanning the fixture sites and the
 * self-hosted ALTCHA challenge solved for real by its widget in the page:
 * - the journey: the form, the challenge, the live progress (which survives a reload), the report;
 * - a 429: the wait from retryAfterSeconds ("in 60 minutes"), kept across a reload, the home
 *   form still usable (cached reports; tests/e2e/comfort_browser_test.ts has the rest), then the
 *   notice goes;
 * - the report of a failed scan;
 * - keyboard only: Tab to the field, type, Enter, Tab to a fix's copy button, Enter copies it;
 * - axe-core: no serious or critical violation on the home, report, failed-report and docs pages;
 * - no console error (a CSP violation is one) on any page.
 * Screenshots of each page at desktop (1280) and phone (390) width go to tests/output/screenshots/.
 */
import { schemaService } from "../../lib/features/schema/service.ts";
import assert from "node:assert/strict";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { PIPELINE } from "../helpers/app_env.ts";
import { browserTest, DESKTOP, hasChromium, PHONE, SCREENSHOTS } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";

if (!hasChromium()) {
  console.error("!!! /usr/bin/chromium is missing: the web browser tests are SKIPPED");
}

/** Problems the page reported: console errors (CSP violations included) and uncaught errors. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    // A 4xx the page expects (a 429 from /api/scan, a 404 report) is not a problem.
    if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(String(e)));
  return problems;
}

async function shoot(page: Page, name: string) {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SCREENSHOTS}web-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SCREENSHOTS}web-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** Admits a scan by API (pipeline token) as if from `ip`. */
async function apiScan(s: WebServer, url: string, ip = "203.0.113.10"): Promise<number> {
  const res = await s.env.scan({ url }, { ip, auth: `Bearer ${PIPELINE}` });
  await res.body?.cancel();
  return res.status;
}

/** Waits for a stored record of a domain (the worker has finished). */
async function recordOf(s: WebServer, domain: string) {
  for (let i = 0; i < 200; i++) {
    const stored = await s.env.store.getScan(domain);
    if (stored && !(await s.env.store.getInflight(domain))) return stored;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no record for ${domain}`);
}

/** Fills the home form and submits it with Enter, the way a person does. */
async function scanFromHome(page: Page, url: string, domain: string) {
  const scanned = page.waitForResponse((r) => r.url().endsWith("/api/scan"), { timeout: 60_000 });
  await page.locator("#url").fill(url);
  await page.locator("#url").press("Enter");
  const res = await scanned;
  await page.waitForURL(`**/report/${domain}`);
  return res;
}

async function axe(page: Page, where: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`),
    [],
    `axe on ${where}`,
  );
  return result.violations.length;
}

browserTest(
  "the journey: form, ALTCHA solved by the widget, live progress, the report",
  async (browser) => {
    const s = await startWebServer();
    try {
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const problems = watch(page);
      await page.goto(`${s.url}/`);
      await shoot(page, "home");
      assert.equal(await page.locator("h1").textContent(), "Is your site visible to AI search?");
      const res = await scanFromHome(page, "https://Good.test/some/page", "good.test");
      assert.equal(res.status(), 202, "a new scan was started");
      const body = JSON.parse(res.request().postData() ?? "{}");
      assert.equal(body.url, "https://Good.test/some/page");
      assert.ok(
        body.turnstileToken.length > 100,
        "the widget's payload travelled in turnstileToken",
      );
      // The progress card, or (if the scan was quicker than the page) the report itself; either
      // way the page ends on the report without any action.
      await page.locator(".summary .score-gauge").waitFor({ timeout: 60_000 });
      assert.equal(await page.locator("h1").textContent(), "good.test");
      assert.match(await page.locator(".score-line").textContent() ?? "", /100 \/ 100\s*Grade A/);
      assert.match(await page.locator(".offsite").textContent() ?? "", /Wikidata/);
      assert.equal(await page.locator(".pillar").count(), 6);
      await shoot(page, "report-good");
      // Shared link: a second visit is the same server-rendered page, the badge loads.
      const badge = await page.request.get(`${s.url}/badge/good.test.svg`);
      assert.equal(badge.status(), 200);
      // The same site again from the form: served from cache (200), no new scan.
      await page.goto(`${s.url}/`);
      const again = await scanFromHome(page, "good.test", "good.test");
      assert.equal(again.status(), 200);
      await page.locator(".summary").waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);

browserTest(
  "live progress: shown while the scan runs, survives a reload, lands on the report",
  async (browser) => {
    const s = await startWebServer({ worker: false });
    try {
      assert.equal(await apiScan(s, "busy.example"), 202);
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const problems = watch(page);
      await page.goto(`${s.url}/report/busy.example`);
      const card = page.locator(".progress-card");
      await card.waitFor();
      assert.match(await card.textContent() ?? "", /Scanning busy.example/);
      // The card polls the scan's status URL: queued, it is on the first step.
      const mark = (await s.env.store.getInflight("busy.example"))!;
      await page.waitForResponse((r) => r.url().endsWith(`/api/scans/${mark.jobId}`));
      assert.match(
        await page.locator(".step.current").textContent() ?? "",
        /Waiting for a free scanner/,
      );
      const job = {
        kind: "scan" as const,
        service: "visibility",
        jobId: mark.jobId,
        target: { domain: "busy.example", url: "https://busy.example/", host: "busy.example" },
        credential: "pipeline" as const,
        enqueuedAt: mark.since,
      };
      // The worker's part, by hand: the step it is on, then the record.
      // The card places the scan by the step's typed id, whatever its words.
      await s.env.store.setScanStep(
        job,
        { id: "offsite", text: "checking Wikidata, Wikipedia and Common Crawl" },
        mark.since,
      );
      await page.locator(".step.current", { hasText: "Wikidata" }).waitFor({ timeout: 10_000 });
      assert.match(await card.textContent() ?? "", /Now: checking Wikidata/);
      await shoot(page, "progress");
      await page.reload();
      await card.waitFor();
      await page.locator(".step.current", { hasText: "Wikidata" }).waitFor({ timeout: 10_000 });
      assert.match(await page.locator(".steps").textContent() ?? "", /Fetching the home page/);
      // A scan that does not render has no rendering row.
      assert.doesNotMatch(await page.locator(".steps").textContent() ?? "", /Rendering/);
      await s.env.store.finishScan(
        job,
        {
          record: {
            domain: "busy.example",
            status: "failed",
            scannedAt: new Date().toISOString(),
            result: null,
            offSite: null,
          } as never,
          failure: "the connection was refused",
          credential: "pipeline",
          durationMs: 5,
          jobId: mark.jobId,
        },
      );
      await page.locator("h1", { hasText: "We could not scan busy.example" }).waitFor({
        timeout: 10_000,
      });
      assert.equal(await page.locator(".progress-card").count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);

browserTest(
  "render in a browser: the form's checkbox sends render: true, the card has the rendering row",
  async (browser) => {
    // A (remote) browser is configured, so the form offers rendering; no worker: the scan waits.
    const s = await startWebServer({
      worker: false,
      env: { RENDER_BROWSER_URL: "ws://127.0.0.1:9/" },
    });
    try {
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const problems = watch(page);
      await page.goto(`${s.url}/`);
      const box = page.getByLabel(/Also render the pages in a browser/);
      assert.equal(await box.isChecked(), false);
      await box.check();
      await shoot(page, "home-render");
      const res = await scanFromHome(page, "rendered.example", "rendered.example");
      assert.equal(res.status(), 202);
      assert.equal(JSON.parse(res.request().postData() ?? "{}").render, true);
      await page.locator(".progress-card").waitFor();
      assert.match(
        await page.locator(".steps").textContent() ?? "",
        /Rendering the pages in a browser/,
      );
      const mark = (await s.env.store.getInflight("rendered.example"))!;
      assert.equal(mark.render, true);
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);

browserTest(
  "a 429: the wait from retryAfterSeconds survives a reload, then new scans are back",
  async (browser) => {
    const s = await startWebServer({ worker: false });
    try {
      // The browser reaches the server from 127.0.0.1 with no X-Forwarded-For: that is its pool.
      const admittedAt = s.env.clock.now;
      for (let i = 0; i < 8; i++) assert.equal(await apiScan(s, `d${i}.example`, "127.0.0.1"), 202);
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const problems = watch(page);
      await page.goto(`${s.url}/`);
      const limited = page.waitForResponse((r) => r.url().endsWith("/api/scan"));
      await page.locator("#url").fill("one-more.example");
      await page.locator("#url").press("Enter");
      const res = await limited;
      assert.equal(res.status(), 429);
      const retryAfter = (await res.json()).retryAfterSeconds;
      assert.ok(retryAfter > 3590 && retryAfter <= 3600, String(retryAfter));
      const timer = page.locator('[role="timer"]');
      await timer.waitFor();
      assert.match(await timer.textContent() ?? "", /^in (59|60) minutes$/);
      assert.match(await page.locator(".limit-notice").textContent() ?? "", /8 new scans per hour/);
      // Only new scans wait: the home form still opens a site's report from the last 24 hours.
      assert.equal(await page.locator('button[type="submit"]').isDisabled(), false);
      await shoot(page, "rate-limited");
      await page.reload();
      await timer.waitFor();
      assert.equal(await page.locator("#url").inputValue(), "one-more.example");

      // Near the end of the window the server says a few seconds: the countdown runs out and
      // the form comes back by itself.
      await page.evaluate(() => sessionStorage.clear());
      s.env.clock.now = admittedAt + 3600_000 - 8_000;
      await page.reload();
      const again = page.waitForResponse((r) => r.url().endsWith("/api/scan"));
      await page.locator("#url").fill("one-more.example");
      await page.locator("#url").press("Enter");
      const short = await again;
      assert.equal(short.status(), 429);
      assert.ok((await short.json()).retryAfterSeconds <= 8);
      await page.locator("text=You can start a new scan again.").waitFor({ timeout: 15_000 });
      assert.equal(await page.locator('button[type="submit"]').isDisabled(), false);
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);

browserTest(
  "honest progress: while a slow home page loads, the card stays on the fetching step",
  async (browser) => {
    // slow.test sends its home page one byte a second: the real worker is stuck fetching it until
    // the request's deadline, set long enough for the page to be watched meanwhile.
    const s = await startWebServer({
      env: { REQUEST_TIMEOUT_MS: "12000", SCAN_TIMEOUT_MS: "20000" },
    });
    try {
      assert.equal(await apiScan(s, "slow.test"), 202);
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await page.goto(`${s.url}/report/slow.test`);
      const current = page.locator(".step.current");
      await current.filter({ hasText: "Fetching the home page" }).waitFor({ timeout: 15_000 });
      // The step comes from the worker, through the status URL: it says the worker is fetching.
      const mark = (await s.env.store.getInflight("slow.test"))!;
      const status = await (await s.env.app.request(`/api/scans/${mark.jobId}`)).json();
      assert.equal(status.status, "running");
      assert.match(String(status.step), /starting|fetching|home page/i);
      assert.doesNotMatch(await current.textContent() ?? "", /Wikidata|Scoring/);
      // The home page never arrives in time: the card lands on the failed report, which says so.
      await page.locator("h1", { hasText: "We could not scan slow.test" }).waitFor({
        timeout: 90_000,
      });
    } finally {
      await s.close();
    }
  },
);

browserTest("the report of a failed scan says what went wrong", async (browser) => {
  const s = await startWebServer();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const problems = watch(page);
    await page.goto(`${s.url}/`);
    await scanFromHome(page, "down.test", "down.test");
    await page.locator("h1", { hasText: "We could not scan down.test" }).waitFor({
      timeout: 60_000,
    });
    assert.match(await page.locator(".notice.error").textContent() ?? "", /What went wrong: .+503/);
    assert.equal(await page.locator(".score-gauge").count(), 0);
    await shoot(page, "report-failed");
    await axe(page, "the failed report");
    assert.deepEqual(problems, []);
  } finally {
    await s.close();
  }
});

browserTest(
  "keyboard only: Tab to the field, type, Enter, Tab to a fix and copy it",
  async (browser) => {
    const s = await startWebServer();
    try {
      const context = await browser.newContext({ viewport: DESKTOP });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(`${s.url}/`);
      const focused = () => page.evaluate(() => document.activeElement?.id || "");
      let tabs = 0;
      while ((await focused()) !== "url" && tabs < 10) {
        await page.keyboard.press("Tab");
        tabs++;
      }
      assert.equal(await focused(), "url", "the URL field is reached by Tab");
      // Skip link, brand, two nav links, the theme toggle, then the field.
      assert.ok(tabs <= 6, `the field is near the top of the focus order (${tabs} tabs)`);
      await page.keyboard.type("no-llms.test");
      const scanned = page.waitForResponse((r) => r.url().endsWith("/api/scan"));
      await page.keyboard.press("Enter");
      assert.equal((await scanned).status(), 202);
      await page.locator(".summary .score-gauge").waitFor({ timeout: 60_000 });
      assert.equal(await page.locator("h1").textContent(), "no-llms.test");
      await shoot(page, "report-issues");
      // Tab to the first fix's "How to fix it" and open it with Enter (fixes are one click away),
      // then on to its copy button and press Enter.
      let onFix = false;
      for (let i = 0; i < 40 && !onFix; i++) {
        await page.keyboard.press("Tab");
        onFix = await page.evaluate(() =>
          document.activeElement?.matches("#issue-1 .fix-details > summary") ?? false
        );
      }
      assert.ok(onFix, "the first fix's 'How to fix it' is reached by Tab");
      await page.keyboard.press("Enter");
      assert.ok(
        await page.evaluate(() =>
          document.querySelector<HTMLDetailsElement>("#issue-1 details")?.open
        ),
      );
      let onCopy = false;
      for (let i = 0; i < 40 && !onCopy; i++) {
        await page.keyboard.press("Tab");
        onCopy = await page.evaluate(() =>
          document.activeElement?.classList.contains("copy-button") ?? false
        );
      }
      assert.ok(onCopy, "a fix's copy button is reached by Tab");
      await page.keyboard.press("Enter");
      await page.locator(".copy-status", { hasText: "Copied" }).first().waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const target = await page.evaluate(() =>
        (document.activeElement as HTMLElement | null)?.dataset.copy ?? ""
      );
      const fix = await page.locator(`#${target}`).textContent();
      assert.equal(copied, fix);
      assert.match(copied, /application\/ld\+json/);
      // The skip link is the first stop and moves focus to the content.
      await page.goto(`${s.url}/docs`);
      await page.keyboard.press("Tab");
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        "Skip to content",
      );
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);

browserTest(
  "axe-core: no serious or critical violation; screenshots of every page",
  async (browser) => {
    const s = await startWebServer();
    try {
      assert.equal(await apiScan(s, "no-llms.test"), 202);
      assert.equal(await apiScan(s, "js-shell.test"), 202);
      await recordOf(s, "no-llms.test");
      await recordOf(s, "js-shell.test");
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const problems = watch(page);
      const pages: [string, string][] = [
        ["home", "/"],
        ["report", "/report/no-llms.test"],
        ["report-js-shell", "/report/js-shell.test"],
        ["docs", "/docs"],
        ["learn", "/learn"],
        ["learn-check", "/learn/access.edge"],
        ["not-scanned", "/report/never.example"],
      ];
      for (const [name, path] of pages) {
        await page.goto(`${s.url}${path}`);
        await page.waitForLoadState("networkidle");
        await axe(page, name);
        await page.setViewportSize(PHONE);
        await axe(page, `${name} (phone)`);
        await page.setViewportSize(DESKTOP);
        await shoot(page, name);
      }
      // The printable layout: no header, forms or buttons.
      await page.goto(`${s.url}/report/no-llms.test`);
      await page.emulateMedia({ media: "print" });
      assert.equal(await page.locator(".site-header").isVisible(), false);
      assert.equal(await page.locator(".rescan-form").isVisible(), false);
      assert.equal(await page.locator(".issue").first().isVisible(), true);
      await page.screenshot({ path: `${SCREENSHOTS}web-report-print.png`, fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);

browserTest(
  "the schema service: result page with findings and highlighted JSON-LD",
  async (browser) => {
    const s = await startWebServer({ service: schemaService });
    try {
      assert.equal(await apiScan(s, "https://good.test/"), 202);
      await recordOf(s, "good.test");
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const problems = watch(page);
      await page.goto(`${s.url}/`);
      await shoot(page, "schema-home");
      await page.goto(`${s.url}/report/good.test`);
      await page.locator("#generated-jsonld .j-key").first().waitFor();
      await axe(page, "the schema result page");
      await shoot(page, "schema-report");
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
    }
  },
);
