/**
 * Every page fits and reads (issue 42), in Chromium (Debian's, through npm:playwright-core): the
 * test walks the route list itself (lib/app/routes.ts ROUTES, not a hand list of pages), fills each
 * path's parameters from stored fixture records (five scanned sites, a kept scan, a signed-in
 * account with a watch, the administrator), and GETs each one. Every answer that is a page (HTML,
 * the HTML export included) must:
 * - not scroll sideways at 1280, 390 and 320 px, in light and dark, with every disclosure open;
 * - show axe no violation at all (every rule, every impact), in light and in dark.
 * /compare is walked with five sites. Answers that are not pages (JSON, SARIF, SVG, Atom, Markdown,
 * CSS) are listed with their type. One browser for the file, one context per viewport, reused.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { ROUTES } from "../../lib/app/routes.ts";
import { served } from "../../lib/kit/web/route.ts";
import { PIPELINE } from "../helpers/app_env.ts";
import { WebClient } from "../helpers/web_client.ts";
import { browserTest, DESKTOP, NARROW, PHONE } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";
import { BAKERY_HOST, bakeryFiles } from "../fixtures/bakery_site.ts";
import { startOverlaySite } from "../helpers/overlay_site.ts";

const ADMIN_PASSWORD = "owner passphrase for the every-page test";
const SITES = [BAKERY_HOST, "good.test", "no-llms.test", "blocks-search.test", "js-shell.test"];

/** Admits a scan by API (pipeline token) and waits for its record. */
async function scanned(s: WebServer, domain: string) {
  const res = await s.env.scan({ url: domain }, { ip: "203.0.113.10", auth: `Bearer ${PIPELINE}` });
  await res.body?.cancel();
  assert.equal(res.status, 202, domain);
  for (let i = 0; i < 600; i++) {
    if (await s.env.store.getScan(domain) && !(await s.env.store.getInflight(domain))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no record for ${domain}`);
}

/** How far the document is wider than the viewport (0: no sideways scrolling). */
function sideways(page: Page): Promise<{ by: number; widest: string }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const by = root.scrollWidth - root.clientWidth;
    // Name the element that sticks out furthest, so a failure says where to look.
    let widest = "";
    let right = root.clientWidth;
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      let clipped = false;
      for (let a = el.parentElement; a && !clipped; a = a.parentElement) {
        clipped = getComputedStyle(a).overflowX !== "visible";
      }
      if (r.right > right + 1 && !clipped) {
        right = r.right;
        widest = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${
          el.className && typeof el.className === "string"
            ? `.${el.className.split(/\s+/).join(".")}`
            : ""
        } (${Math.round(r.right)} px)`;
      }
    }
    return { by, widest };
  });
}

/** Opens every disclosure, so what it hides is measured too. */
function openAll(page: Page): Promise<void> {
  return page.evaluate(() => {
    document.querySelectorAll("details").forEach((d) => d.open = true);
  });
}

/**
 * The lines of each sampled page's path as the browser wraps it: every line but the last must end
 * at a separator, or the next begin with one (paths break at "/", "-"..., never mid-word).
 */
function pathLines(page: Page): Promise<{ path: string; lines: string[] }[]> {
  return page.locator(".pages-table tbody th").evaluateAll((cells) =>
    cells.map((cell) => {
      const text = cell.textContent ?? "";
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      const lines: string[] = [];
      let top: number | null = null;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n.textContent ?? "";
        for (let i = 0; i < t.length; i++) {
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          const y = Math.round(rect.top);
          if (top === null || Math.abs(y - top) > 2) {
            lines.push("");
            top = y;
          }
          lines[lines.length - 1] += t[i];
        }
      }
      return { path: text, lines };
    })
  );
}

/** Every violation axe finds, whatever its impact. */
async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) =>
    `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")})`
  );
}

/** The GET paths of the route list, each parameter filled from the stored records. */
function pathsToVisit(s: WebServer, ids: Record<string, string>): string[] {
  const out: string[] = [];
  for (const route of ROUTES) {
    if (!served(route, s.env.service)) continue;
    let path = route.path.replace(/\*$/, "app.css");
    path = path.replace(/\{([a-z]+)\}/gi, (_m, name: string) => {
      if (name === "id") {
        if (route.path.includes("/scans/{id}")) return ids.scan;
        if (route.path.includes("watches")) return ids.watch;
        if (route.path.startsWith("/learn")) return "access.search_crawlers";
        return ids.key;
      }
      return ids[name] ?? name;
    });
    out.push(path);
    // The comparison page is walked with the most sites it takes.
    if (route.path === "/compare") out.push(`/compare?${SITES.map((d) => `d=${d}`).join("&")}`);
  }
  return out;
}

browserTest(
  "every page of the route list fits at 320, 390 and 1280 px, light and dark, and passes axe",
  async (b: Browser) => {
    const bakery = startOverlaySite([BAKERY_HOST], { files: bakeryFiles() });
    const s = await startWebServer({
      challenge: "turnstile",
      env: { ADMIN_PASSWORD, ANSWERS_USER_KEYS: "1" },
      extraResolve: [bakery.resolve],
    });
    try {
      for (const d of SITES) await scanned(s, d);
      // A kept scan's id, a signed-in account with a watch, and the administrator.
      const history = await (await s.env.app.request(`/api/report/${BAKERY_HOST}/history.json`))
        .json();
      const user = new WebClient(s.env);
      const email = `pages.${crypto.randomUUID().slice(0, 6)}@example.com`;
      assert.equal((await user.signUp(email, "a long enough passphrase")).status, 303);
      const csrf = await user.sessionToken();
      const added = await user.request("/account/watches", {
        form: { csrf, url: "good.test", schedule: "daily", webhookUrl: "", webhookFormat: "json" },
      });
      assert.ok(added.status === 303 || added.status === 200, `watch: ${added.status}`);
      const admin = new WebClient(s.env, "198.51.100.8");
      assert.equal(
        (await admin.submit("/admin/login", "/admin/login", {
          password: ADMIN_PASSWORD,
          turnstileToken: "good-token",
        })).status,
        303,
      );
      const ids = {
        domain: BAKERY_HOST,
        scan: history.scans?.[0]?.id ?? history[0]?.id ?? "none",
        watch: "none",
        key: "none",
        provider: "openai",
      };
      const cookies = (c: WebClient) =>
        [...c.cookies].map(([name, value]) => ({ name, value, url: s.url }));
      const problems: string[] = [];
      const skipped: string[] = [];
      let pages = 0;
      let wrapped = 0;
      // One context per viewport and colour scheme; the user's cookies, then the admin's.
      const contexts: {
        page: Page;
        viewport: typeof DESKTOP;
        colorScheme: "light" | "dark";
        context: BrowserContext;
      }[] = [];
      for (const viewport of [DESKTOP, PHONE, NARROW]) {
        for (const colorScheme of ["light", "dark"] as const) {
          const context = await b.newContext({ viewport, colorScheme });
          await context.addCookies(cookies(user));
          contexts.push({ page: await context.newPage(), viewport, colorScheme, context });
        }
      }
      const visit = async (path: string) => {
        const first = contexts[0].page;
        const res = await first.request.get(`${s.url}${path}`, {
          headers: { accept: "text/html,*/*" },
          maxRedirects: 0,
        });
        const type = res.headers()["content-type"] ?? "";
        if (!/^text\/html/.test(type)) {
          skipped.push(`${path} (${res.status()} ${type.split(";")[0] || "no body"})`);
          return;
        }
        pages++;
        // A download (the HTML export) is opened as the file it is: its own HTML, shown alone.
        const download = /attachment/.test(res.headers()["content-disposition"] ?? "");
        const body = download ? await res.text() : "";
        for (const { page, viewport, colorScheme } of contexts) {
          if (download) await page.setContent(body);
          else await page.goto(`${s.url}${path}`);
          await openAll(page);
          const { by, widest } = await sideways(page);
          if (by > 0) {
            problems.push(
              `${path} at ${viewport.width} px, ${colorScheme}: ${by} px sideways, ${widest}`,
            );
          }
          if (viewport === DESKTOP) {
            for (const v of await axe(page)) problems.push(`${path} (${colorScheme}) axe ${v}`);
          }
          // The sampled pages' paths wrap at their separators, at every width.
          for (const { path: p, lines } of await pathLines(page)) {
            for (let i = 0; i + 1 < lines.length; i++) {
              if (!/[/\-_.?=&#]$/.test(lines[i]) && !/^[/\-_.?=&#]/.test(lines[i + 1])) {
                problems.push(
                  `${path} at ${viewport.width} px: "${p}" breaks mid-word (${lines.join(" | ")})`,
                );
              }
              wrapped++;
            }
          }
        }
      };
      for (const path of pathsToVisit(s, ids)) await visit(path);
      // The administrator's pages with the administrator's session.
      for (const c of contexts) {
        await c.context.clearCookies();
        await c.context.addCookies(cookies(admin));
      }
      for (const path of pathsToVisit(s, ids).filter((p) => p.startsWith("/admin"))) {
        await visit(path);
      }
      // The report's feed is discoverable from the report itself; it answers as Atom.
      const report = contexts[0].page;
      await report.goto(`${s.url}/report/${BAKERY_HOST}`);
      const feed = await report.locator('link[rel="alternate"][type="application/atom+xml"]')
        .getAttribute("href");
      assert.ok(feed?.endsWith(`/api/report/${BAKERY_HOST}/changes.atom`), `feed link: ${feed}`);
      const atom = await report.request.get(feed!);
      assert.equal(atom.status(), 200);
      assert.match(atom.headers()["content-type"], /^application\/atom\+xml/);
      // The account page's watch table shows the reader's local time, as every other time.
      const tokyo = await b.newContext({ viewport: DESKTOP, timezoneId: "Asia/Tokyo" });
      await tokyo.addCookies(cookies(user));
      const account = await tokyo.newPage();
      await account.goto(`${s.url}/account`);
      const times = await account.locator("section.watches table time").evaluateAll((els) =>
        els.map((e) => ({ text: e.textContent ?? "", local: e.hasAttribute("data-local") }))
      );
      assert.ok(times.length >= 1, "the watch table shows its times as <time>");
      for (const t of times) {
        assert.ok(t.local, `a local time: ${t.text}`);
        assert.doesNotMatch(t.text, /UTC/, `rewritten to the reader's zone: ${t.text}`);
      }
      await tokyo.close();
      // A long path was wrapped somewhere (the 320 px table), so the check above had work to do.
      assert.ok(wrapped > 0, "a sampled path wrapped");
      console.log(
        `info ${pages} pages checked at 3 widths in light and dark; not pages: ${
          skipped.join(", ")
        }`,
      );
      assert.ok(pages >= 15, `${pages} pages`);
      assert.deepEqual(problems, []);
    } finally {
      await s.close();
      await bakery.close();
    }
  },
);
