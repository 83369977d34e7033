/**
 * The report's Copy buttons in a real browser (Debian's Chromium through npm:playwright-core):
 * every code block of every fix has its own button, and what it copies, pasted into a text field,
 * is exactly that block's code as the record's `fix.how` carries it: no prose, no fences. Fixes
 * that are plain advice have no Copy button at all.
 */
import assert from "node:assert/strict";
import { PIPELINE } from "../helpers/app_env.ts";
import { codeBlocksOf } from "../../lib/engines/visibility/fix_text.ts";
import type { ScanRecord } from "../../lib/engines/visibility/record.ts";
import { browserTest, hasChromium } from "./browser.ts";
import { startWebServer } from "./web_server.ts";

if (!hasChromium()) {
  console.error("!!! /usr/bin/chromium is missing: the Copy button browser test is SKIPPED");
}

browserTest(
  "each Copy button copies exactly its code block, nothing of the prose",
  async (browser) => {
    const s = await startWebServer();
    try {
      // A site with a blanket Disallow and no structured data: robots.txt, JSON-LD, sitemap and
      // llms.txt fixes, several of them with more than one code block, and plain-advice fixes.
      const host = "blanket-disallow.test";
      const res = await s.env.scan({ url: host }, {
        ip: "203.0.113.20",
        auth: `Bearer ${PIPELINE}`,
      });
      await res.body?.cancel();
      assert.equal(res.status, 202);
      for (let i = 0; i < 200; i++) {
        if (await s.env.store.getScan(host) && !(await s.env.store.getInflight(host))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const api = await s.env.app.request(`/api/report/${host}.json`);
      assert.equal(api.status, 200);
      const record = await api.json() as ScanRecord;
      assert.ok(record.result, "the scan finished");
      const issues = record.result.topIssues;
      const expected = issues.flatMap((issue, i) =>
        codeBlocksOf(issue.fix.how).map((code, k) => ({ id: `fix-${i + 1}-code-${k + 1}`, code }))
      );
      assert.ok(expected.length >= 6, `${expected.length} code blocks`);
      const prose = issues.filter((i) => codeBlocksOf(i.fix.how).length === 0);
      assert.ok(prose.length >= 1, "some fixes are plain advice");

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${s.url}/report/${host}`);
      await page.locator("#top-fixes").waitFor();
      // Each fix is one click away: open them all, as a reader working down the list would.
      for (const summary of await page.locator(".fix-details > summary").all()) {
        await summary.click();
      }
      // A text field to paste into, as a person would paste into their editor.
      await page.evaluate(() => {
        const ta = document.createElement("textarea");
        ta.id = "paste-here";
        document.body.append(ta);
      });

      const buttons = page.locator("button.copy-button[data-copy^='fix-']");
      assert.equal(await buttons.count(), expected.length, "one Copy button per code block");
      for (const { id, code } of expected) {
        const button = page.locator(`button[data-copy="${id}"]`);
        assert.ok(await button.isVisible(), `${id}: the button is shown`);
        await button.click();
        await page.locator(`button[data-copy="${id}"] + .copy-status`, { hasText: "Copied" })
          .waitFor();
        const paste = page.locator("#paste-here");
        await paste.fill("");
        await paste.focus();
        await page.keyboard.press("Control+V");
        const pasted = await paste.inputValue();
        assert.equal(pasted, code, `${id}: the pasted text is exactly the code`);
        assert.doesNotMatch(pasted, /^```/m, `${id}: no Markdown fence`);
      }
      // Plain advice: no Copy button in that issue.
      for (const issue of prose) {
        const n = issues.indexOf(issue) + 1;
        assert.equal(await page.locator(`#issue-${n} button.copy-button`).count(), 0, issue.id);
      }
      assert.deepEqual(errors, []);
    } finally {
      await s.close();
    }
  },
);
