/**
 * Labels from one value (issue 42): on real scans, every view of a record states the same
 * severity for each issue (the report page, the Markdown and HTML exports, SARIF, the MCP summary,
 * the compare page) and one figure for the cap (the cap notice says what the badge of the fix that
 * lifts it says: "Lifts the cap: 40 → 51" and "takes the score from 40 to 51").
 */
import assert from "node:assert/strict";
import { scanSite } from "../../../lib/engines/visibility/scan.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";
import { IMPACT_TEXT, sarifLevel } from "../../../lib/engines/visibility/severity.ts";
import { capLiftText, worthText } from "../../../lib/engines/visibility/report_texts.ts";
import { capOf } from "../../../lib/engines/visibility/score.ts";
import { summarise } from "../../../lib/features/visibility/mcp.ts";
import { comparePagePath, reportPagePath } from "../../../lib/kit/report_urls.ts";
import { startScanEnv } from "../../helpers/scan_env.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import { storeRecord } from "../../helpers/records.ts";

/** HTML text with tags dropped and entities read, as a reader sees it. */
function text(html: string): string {
  return html.replace(/<[^>]+>/g, "").replace(/&gt;/g, ">").replace(/&lt;/g, "<")
    .replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, " ");
}

Deno.test({
  name: "[labels] one severity per issue and one cap figure in every view of a record",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const scanEnv = await startScanEnv();
    const env = await startAppEnv();
    try {
      const records: ScanRecord[] = [];
      // A capped site (robots.txt keeps the AI search crawlers out) and a weak open one.
      for (const host of ["blocks-search.test", "no-llms.test"]) {
        const { record } = await scanSite(host, {
          config: scanEnv.config,
          offSiteCache: scanEnv.cache(),
        });
        records.push(record);
        await storeRecord(env, record);
      }
      const get = async (path: string) => {
        const res = await env.app.request(path);
        assert.equal(res.status, 200, path);
        return await res.text();
      };
      const compare = await get(comparePagePath(records.map((r) => r.domain)));
      let compared = 0, leveled = 0, issues = 0;
      for (const record of records) {
        const r = record.result!;
        const page = await get(reportPagePath(record.domain));
        const md = await get(`/api/report/${record.domain}.md`);
        const html = await get(`/api/report/${record.domain}.html`);
        const sarif = JSON.parse(await get(`/api/report/${record.domain}.sarif`));
        const mcp = summarise(record, 50);
        // blocks-search.test has one issue since one fix per cause (the robots.txt change that
        // opens its search crawlers and user fetchers); the weak site brings the others.
        assert.ok(r.topIssues.length >= 1, `${record.domain}: issues to compare`);
        issues += r.topIssues.length;
        for (const issue of r.topIssues) {
          const words = IMPACT_TEXT[issue.impact];
          const where = `${record.domain} "${issue.title}" (${issue.impact})`;
          // The report page's badge, the exports' words, MCP's value, SARIF's level.
          assert.match(page, new RegExp(`badge impact-${issue.impact}">${words}<`), where);
          const mdLine = md.split("\n").findIndex((l) => l.includes(issue.title));
          assert.ok(
            mdLine >= 0 && md.split("\n").slice(mdLine, mdLine + 4).join(" ").includes(words),
            `markdown: ${where}`,
          );
          const htmlText = text(html);
          const at = htmlText.indexOf(issue.title);
          assert.ok(
            at >= 0 && htmlText.slice(at, at + issue.title.length + 200).includes(words),
            `html: ${where}`,
          );
          assert.ok(
            mcp.includes(`[${issue.impact}, effort ${issue.fix.effort}] ${issue.title}`),
            `mcp: ${where}`,
          );
          for (const c of issue.resolves ?? [{ id: issue.id }]) {
            const result = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === c.id);
            if (!result) continue;
            assert.equal(result.level, sarifLevel(issue.impact), `sarif ${c.id}: ${where}`);
            leveled++;
          }
          // The compare page's cell for this site says what this site's report says.
          const tr = compare.search(new RegExp(`<tr\\s+data-issue="${issue.id}">`));
          if (tr >= 0) {
            const cells = compare.slice(tr, compare.indexOf("</tr>", tr)).split("<td").slice(1);
            const cell = cells[records.findIndex((x) => x.domain === record.domain)];
            compared++;
            assert.match(
              cell,
              new RegExp(`badge impact-${issue.impact}">${words}<`),
              `compare: ${where}`,
            );
          }
        }
        // One figure for the cap: the notice says what the lifting fix's badge says.
        const cap = capOf(r);
        if (cap?.binding) {
          const lift = capLiftText(r)!;
          const lifting = r.topIssues.find((i) => i.worth?.lifts.includes(cap.gateId))!;
          const badge = worthText(lifting, r);
          const [, to] = badge.match(/→ (\d+)$/) ?? [];
          assert.ok(to, badge);
          assert.match(lift, new RegExp(`to ${to} \\(grade`), `${lift} | ${badge}`);
          assert.ok(text(page).includes(lift), "the report page's notice");
          assert.ok(text(page).includes(badge), "the fix's badge on the same screen");
          assert.ok(md.replace(/\\/g, "").includes(lift), "the Markdown export");
          assert.ok(text(html).includes(lift), "the HTML export");
          assert.ok(mcp.includes(lift), "the MCP summary");
          assert.doesNotMatch(text(page), /would score \d+/, "no second uncapped figure");
        }
      }
      assert.ok(records.some((x) => capOf(x.result!)?.binding), "a capped record was compared");
      assert.ok(issues >= 4, `${issues} issues checked in every view`);
      assert.ok(compared >= 3, `${compared} compare cells checked`);
      assert.ok(leveled >= 5, `${leveled} SARIF results checked`);
    } finally {
      await env.close();
      await scanEnv.close();
    }
  },
});
