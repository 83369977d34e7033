/**
 * Layout faults a reader sees (issue 32), measured in a real browser (Debian's Chromium through
 * npm:playwright-core) at 1280, 390 and 320 px:
 * - the paste box of the schema home page and of /validate takes its card's width (never the
 *   browser's 20 columns), so pasted JSON-LD keeps its lines;
 * - the sampled-pages table keeps words whole ("Type", "home" on one line, never "Typ e");
 * - a closed pillar card shows a disclosure arrow, so it reads as something that opens.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PIPELINE } from "../helpers/app_env.ts";
import { browserTest, DESKTOP, NARROW, PHONE } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";
import { schemaService } from "../../lib/features/schema/service.ts";

const WIDTHS = [DESKTOP, PHONE, NARROW];

/** Admits a scan by API (pipeline token) and waits for its record. */
async function scanned(s: WebServer, url: string, domain = url) {
  const res = await s.env.scan({ url }, { ip: "203.0.113.10", auth: `Bearer ${PIPELINE}` });
  await res.body?.cancel();
  assert.equal(res.status, 202);
  for (let i = 0; i < 300; i++) {
    if (await s.env.store.getScan(domain) && !(await s.env.store.getInflight(domain))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no record for ${domain}`);
}

/** The paste box's width against its container's content width, and in characters. */
function pasteBox(page: Page) {
  return page.locator("textarea").first().evaluate((t) => {
    const box = t.getBoundingClientRect().width;
    const parent = t.parentElement!;
    const style = getComputedStyle(parent);
    const inner = parent.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight);
    const probe = document.createElement("span");
    probe.textContent = "0".repeat(10);
    probe.style.font = getComputedStyle(t).font;
    probe.style.position = "absolute";
    document.body.append(probe);
    const ch = probe.getBoundingClientRect().width / 10;
    probe.remove();
    return { box, inner, columns: Math.floor(box / ch) };
  });
}

/**
 * Per cell of the report's tables (the sampled pages, the crawler matrix): header cells and the
 * second column (a page's kind, robots.txt's verdict), how many lines its text takes.
 */
function wordLines(page: Page) {
  return page.locator(".pages-table").evaluateAll((tables) =>
    tables.flatMap((table) => [
      ...table.querySelectorAll("thead th"),
      ...table.querySelectorAll("tbody td:nth-child(2)"),
    ]).map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      // One rect per line box the text spans (a word broken in two spans two).
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { text: cell.textContent ?? "", lines: tops.size };
    })
  );
}

browserTest(
  "paste boxes fill their card; table words stay whole; pillar cards show an arrow",
  async (b) => {
    const s = await startWebServer();
    const schema = await startWebServer({ service: schemaService });
    try {
      await scanned(s, "good.test");
      for (const viewport of WIDTHS) {
        const context = await b.newContext({ viewport });
        const page = await context.newPage();
        for (const url of [`${schema.url}/`, `${schema.url}/validate`]) {
          await page.goto(url);
          const { box, inner, columns } = await pasteBox(page);
          assert.ok(box >= inner - 2, `${url} at ${viewport.width}: ${box} of ${inner} px`);
          if (viewport === DESKTOP) assert.ok(columns >= 80, `${url}: ${columns} columns`);
        }

        await page.goto(`${s.url}/report/good.test`);
        const cells = await wordLines(page);
        assert.ok(cells.length >= 5, "the sampled-pages table is there");
        for (const c of cells) {
          // Single words (a header, a kind such as "article") take one line.
          if (!/\s/.test(c.text.trim())) {
            assert.equal(c.lines, 1, `"${c.text}" at ${viewport.width} px`);
          }
        }

        // Closed pillar cards draw their own arrow (a flex summary loses the browser's marker);
        // it turns when the card opens.
        const pillar = (await page.$("details.pillar:not([open]) > summary"))!;
        const arrow = () =>
          pillar.evaluate((el) => {
            const st = getComputedStyle(el, "::before");
            return { content: st.content, width: parseFloat(st.width), transform: st.transform };
          });
        const closed = await arrow();
        assert.notEqual(closed.content, "none", `arrow at ${viewport.width} px`);
        assert.ok(closed.width > 0, `arrow width at ${viewport.width} px`);
        await pillar.click();
        assert.equal(
          await pillar.evaluate((el) => (el.parentElement as HTMLDetailsElement).open),
          true,
        );
        // The arrow turns (a 0.15 s transition) once the card is open.
        let turned = false;
        for (let i = 0; i < 20 && !turned; i++) {
          turned = (await arrow()).transform !== closed.transform;
          if (!turned) await page.waitForTimeout(50);
        }
        assert.ok(turned, "the arrow turns when the card opens");
        await context.close();
      }
    } finally {
      await s.close();
      await schema.close();
    }
  },
);
