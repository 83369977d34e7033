/**
 * The reader's comforts in a real browser (Debian's Chromium through npm:playwright-core), against
 * the app served on 127.0.0.1 with the fixture sites:
 * - after a 429 only new scans wait: the typed domain stays, the wait reads "in N minutes", a
 *   cached report still opens from the same form, "Scan again" waits with its notice in line;
 * - print: every collapsed section is printed open (print media, and the beforeprint event);
 * - no page scrolls sideways at 1280, 390 or 320 px (home, reports, compare, account, docs, the
 *   404 page), light or dark at 320 px, signed in or not;
 * - dark mode: the system setting, the toggle, remembered across a reload and applied before the
 *   first paint;
 * - times in the reader's time zone (the browser's timezoneId), the UTC value in the tooltip;
 * - axe-core: no serious or critical violation in light AND dark, at phone and desktop width.
 */
import assert from "node:assert/strict";
import { AxeBuilder } from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { PIPELINE } from "../helpers/app_env.ts";
import { WebClient } from "../helpers/web_client.ts";
import { browserTest, DESKTOP, NARROW, PHONE, SCREENSHOTS } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";
import { schemaService } from "../../lib/features/schema/service.ts";
import { comparePagePath } from "../../lib/kit/report_urls.ts";

/** Admits a scan by API (pipeline token) as if from `ip`, and waits for its record. */
async function scanned(s: WebServer, url: string, domain = url, ip = "203.0.113.10") {
  const res = await s.env.scan({ url }, { ip, auth: `Bearer ${PIPELINE}` });
  await res.body?.cancel();
  assert.equal(res.status, 202);
  for (let i = 0; i < 300; i++) {
    if (await s.env.store.getScan(domain) && !(await s.env.store.getInflight(domain))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no record for ${domain}`);
}

/** The page scrolls sideways when its document is wider than the viewport. */
async function sideways(page: Page): Promise<number> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

async function axe(page: Page, where: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`),
    [],
    `axe on ${where}`,
  );
}

async function submitHome(page: Page, domain: string) {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/scan"), { timeout: 60_000 });
  await page.locator("#url").fill(domain);
  await page.locator("#url").press("Enter");
  return await answer;
}

for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  browserTest(`a 429 blocks new scans only; cached reports still open (${size})`, async (b) => {
    const s = await startWebServer();
    try {
      // good.test has a report from another network; then this browser's network (127.0.0.1,
      // no X-Forwarded-For) spends its 8 new scans of the hour.
      await scanned(s, "good.test");
      for (let i = 0; i < 8; i++) {
        const res = await s.env.scan({ url: `d${i}.example` }, {
          ip: "127.0.0.1",
          auth: `Bearer ${PIPELINE}`,
        });
        await res.body?.cancel();
        assert.equal(res.status, 202);
      }
      const page = await (await b.newContext({ viewport })).newPage();
      await page.goto(`${s.url}/`);
      const limited = await submitHome(page, "one-more.example");
      assert.equal(limited.status(), 429);
      const timer = page.locator('[role="timer"]');
      await timer.waitFor();
      assert.match(await timer.textContent() ?? "", /^in (59|60) minutes$/);
      const said = await page.locator(".limit-notice").textContent() ?? "";
      assert.match(said, /8 new scans per hour/);
      // A site owner is not sent to the API for a key: the notice says what still works.
      assert.doesNotMatch(said, /API key/i);
      assert.equal(await page.locator("#url").inputValue(), "one-more.example", "domain kept");
      assert.equal(await page.locator('button[type="submit"]').isDisabled(), false);
      // A reload keeps the wait and the typed domain.
      await page.reload();
      await timer.waitFor();
      assert.equal(await page.locator("#url").inputValue(), "one-more.example");
      // The same form opens a report from the last 24 hours: the server counts it toward nothing.
      const cached = await submitHome(page, "good.test");
      assert.equal(cached.status(), 200);
      await page.waitForURL("**/report/good.test");
      await page.locator(".summary .score-gauge").waitFor();
      // "Scan again" is a new scan: it waits, and its notice sits in line under the button.
      const again = page.locator(".rescan-form button[type=submit]");
      await page.locator(".rescan-form .limit-notice").waitFor();
      assert.equal(await again.isDisabled(), true);
      assert.match(await page.locator(".rescan-form [role=timer]").textContent() ?? "", /^in /);
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      await page.locator(".report-actions").screenshot({
        path: `${SCREENSHOTS}comfort-rescan-limited-${size}.png`,
      });
      const button = (await again.boundingBox())!;
      const notice = (await page.locator(".rescan-form .limit-notice").boundingBox())!;
      const actions = (await page.locator(".report-actions").boundingBox())!;
      assert.ok(notice.y >= button.y + button.height, "the notice is under the button");
      assert.ok(
        notice.x >= actions.x - 1 && notice.x + notice.width <= actions.x + actions.width + 1,
        "the notice stays inside the actions row",
      );
      assert.ok(Math.abs(notice.x - actions.x) <= 1, "the notice lines up with the row's left");
      assert.equal(await sideways(page), 0);
    } finally {
      await s.close();
    }
  });
}

browserTest("print: every collapsed section is printed open", async (b) => {
  const s = await startWebServer();
  try {
    await scanned(s, "no-llms.test");
    const page = await (await b.newContext({ viewport: DESKTOP })).newPage();
    await page.goto(`${s.url}/report/no-llms.test`);
    const closed = page.locator("details:not([open]):not(.evidence)");
    const count = await closed.count();
    assert.ok(count > 0, "the report has collapsed sections");
    // On screen their content is hidden; in print media every one shows it.
    const inner = (i: number) => closed.nth(i).locator(":scope > :not(summary)").first();
    assert.equal(await inner(0).isVisible(), false);
    await page.emulateMedia({ media: "print" });
    for (let i = 0; i < count; i++) {
      assert.equal(await inner(i).isVisible(), true, `collapsed section ${i} prints open`);
    }
    // The print events open them for real (browsers without the print stylesheet rule), and
    // close them again after.
    await page.emulateMedia({ media: "screen" });
    const open = () => page.evaluate(() => document.querySelectorAll("details[open]").length);
    const before = await open();
    await page.evaluate(() => dispatchEvent(new Event("beforeprint")));
    assert.equal(await open(), await page.locator("details").count());
    await page.evaluate(() => dispatchEvent(new Event("afterprint")));
    assert.equal(await open(), before);
  } finally {
    await s.close();
  }
});

/** A signed-in client and a signed-in administrator, as cookies for a browser context. */
async function sessions(s: WebServer, password: string) {
  const client = new WebClient(s.env, "100.64.1.1");
  assert.equal((await client.signUp("reader@example.com", "a long enough passphrase")).status, 303);
  const admin = new WebClient(s.env, "100.64.1.2");
  const login = await admin.submit("/admin/login", "/admin/login", {
    password,
    turnstileToken: "good-token",
  });
  assert.equal(login.status, 303);
  const cookies = (w: WebClient) =>
    [...w.cookies].map(([name, value]) => ({ name, value, url: s.url }));
  return { client: cookies(client), admin: cookies(admin) };
}

browserTest("no page scrolls sideways at 1280, 390 or 320 px, light or dark", async (b) => {
  const password = "the owner's passphrase for this test";
  const s = await startWebServer({ challenge: "turnstile", env: { ADMIN_PASSWORD: password } });
  const schema = await startWebServer({ service: schemaService });
  try {
    await scanned(s, "no-llms.test");
    await scanned(s, "js-shell.test");
    await scanned(schema, "https://good.test/", "good.test");
    const { client, admin } = await sessions(s, password);
    const pages: [string, string, { name: string; value: string; url: string }[]][] = [
      ["home", `${s.url}/`, []],
      ["report", `${s.url}/report/no-llms.test`, []],
      ["report-js-shell", `${s.url}/report/js-shell.test`, []],
      [
        "compare",
        `${s.url}${comparePagePath(["no-llms.test", "js-shell.test", "never.example"])}`,
        [],
      ],
      ["page not found", `${s.url}/about`, []],
      ["docs", `${s.url}/docs`, []],
      ["not scanned", `${s.url}/report/never.example`, []],
      ["sign in", `${s.url}/account/login`, []],
      ["account", `${s.url}/account`, client],
      ["admin sign-in", `${s.url}/admin/login`, []],
      ["admin", `${s.url}/admin`, admin],
      ["schema home", `${schema.url}/`, []],
      ["schema report", `${schema.url}/report/good.test`, []],
      ["schema docs", `${schema.url}/docs`, []],
    ];
    // Every page at the three widths in light; at the narrowest in dark too (the same layout in
    // other colours: one pass is enough for the wider two).
    const runs = [
      [DESKTOP, "light"],
      [PHONE, "light"],
      [NARROW, "light"],
      [NARROW, "dark"],
    ] as const;
    for (const [viewport, colorScheme] of runs) {
      for (const [name, url, cookies] of pages) {
        const context: BrowserContext = await b.newContext({ viewport, colorScheme });
        // The Turnstile script is off the network here; the page works without it.
        await context.route(/challenges\.cloudflare\.com/, (r) => r.abort());
        await context.addCookies(cookies);
        const page = await context.newPage();
        const res = await page.goto(url);
        assert.ok(res && res.status() < 500, `${name}: ${res?.status()}`);
        if (name === "admin") assert.match(await page.locator("h1").textContent() ?? "", /Admin/);
        if (name === "account") assert.equal(new URL(page.url()).pathname, "/account");
        // What a closed disclosure hides is measured too.
        await page.evaluate(() =>
          document.querySelectorAll("details").forEach((d) => d.open = true)
        );
        assert.equal(
          await sideways(page),
          0,
          `${name} (${viewport.width} px, ${colorScheme}) scrolls sideways`,
        );
        await context.close();
      }
    }
  } finally {
    await s.close();
    await schema.close();
  }
});

/** The page's background colour, as the browser computed it. */
function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

browserTest("dark mode: the system setting, a remembered toggle, no flash", async (b) => {
  const s = await startWebServer();
  try {
    const context = await b.newContext({ viewport: DESKTOP, colorScheme: "dark" });
    // What the root's theme is when the body starts: a flash would show the wrong one there.
    await context.addInitScript(() => {
      new MutationObserver((_, o) => {
        if (!document.body) return;
        (globalThis as { themeAtBody?: string }).themeAtBody =
          document.documentElement.dataset.theme ?? "system";
        o.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    await page.goto(`${s.url}/`);
    const light = "rgb(255, 255, 255)";
    assert.notEqual(await background(page), light, "the system's dark setting is followed");
    const toggle = page.locator(".theme-toggle");
    // The bundle has wired the toggle once it shows the page's state.
    await page.locator('.theme-toggle[aria-pressed="true"]').waitFor();
    await toggle.click();
    assert.equal(await background(page), light);
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    await page.reload();
    assert.equal(
      await page.evaluate(() => (globalThis as { themeAtBody?: string }).themeAtBody),
      "light",
    );
    assert.equal(await background(page), light, "the choice is remembered");
    // Choosing the system's theme again forgets the choice: the page follows the system.
    await page.locator(".theme-toggle").click();
    assert.equal(await page.evaluate(() => localStorage.getItem("theme")), null);
    await page.emulateMedia({ colorScheme: "light" });
    assert.equal(await background(page), light);
    // The toggle follows the system's change event, which the page handles after the emulation.
    await page.locator('.theme-toggle[aria-pressed="false"]').waitFor();
    // A light system with a dark choice.
    await page.locator(".theme-toggle").click();
    assert.notEqual(await background(page), light);
    await page.reload();
    assert.equal(
      await page.evaluate(() => (globalThis as { themeAtBody?: string }).themeAtBody),
      "dark",
    );
    // Print is always light.
    await page.emulateMedia({ media: "print" });
    assert.equal(await background(page), light);
  } finally {
    await s.close();
  }
});

browserTest(
  "times show in the reader's time zone, with the UTC value in the tooltip",
  async (b) => {
    const s = await startWebServer();
    try {
      await scanned(s, "good.test");
      const record = (await s.env.store.getScan("good.test"))!.record;
      for (
        const [timezoneId, zone] of [["Asia/Tokyo", /GMT\+9/], [
          "America/New_York",
          /EST|EDT/,
        ]] as const
      ) {
        const context = await b.newContext({ viewport: DESKTOP, timezoneId, locale: "en-US" });
        const page = await context.newPage();
        await page.goto(`${s.url}/report/good.test`);
        const time = page.locator(".report-head time");
        await page.waitForFunction(() => {
          const t = document.querySelector(".report-head time");
          return t && t.textContent !== t.getAttribute("title");
        });
        const expected = new Intl.DateTimeFormat("en-US", {
          timeZone: timezoneId,
          year: "numeric",
          month: "short",
          day: "numeric",
          hour: "2-digit",
          minute: "2-digit",
          timeZoneName: "short",
        }).format(new Date(record.scannedAt));
        assert.equal(await time.textContent(), expected);
        assert.match(expected, zone);
        assert.match(await time.getAttribute("title") ?? "", /UTC$/);
        assert.equal(await time.getAttribute("datetime"), new Date(record.scannedAt).toISOString());
        await context.close();
      }
      // Without JavaScript the page says the time in UTC.
      const plain = await b.newContext({ javaScriptEnabled: false, timezoneId: "Asia/Tokyo" });
      const page = await plain.newPage();
      await page.goto(`${s.url}/report/good.test`);
      assert.match(await page.locator(".report-head time").textContent() ?? "", /UTC$/);
    } finally {
      await s.close();
    }
  },
);

browserTest("axe-core: no serious or critical violation in light and dark", async (b) => {
  const s = await startWebServer();
  const schema = await startWebServer({ service: schemaService });
  try {
    await scanned(s, "no-llms.test");
    await scanned(schema, "https://good.test/", "good.test");
    const pages = [
      `${s.url}/`,
      `${s.url}/report/no-llms.test`,
      `${s.url}/docs`,
      `${s.url}/account/login`,
      `${schema.url}/`,
      `${schema.url}/report/good.test`,
    ];
    for (const colorScheme of ["light", "dark"] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const context = await b.newContext({ viewport, colorScheme });
        const page = await context.newPage();
        for (const url of pages) {
          // goto waits for "load": the module bundles have run (the toggle is wired).
          await page.goto(url);
          await axe(page, `${url} (${colorScheme}, ${viewport.width} px)`);
        }
        await context.close();
      }
    }
  } finally {
    await s.close();
    await schema.close();
  }
});
