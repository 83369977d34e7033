/**
 * The report page's first screen and its order (issue 18), in-process: a capped score says which
 * gate caps it and the pillar holding the gate shows it; the top three fixes come with their
 * effort; issues are listed in the order the badges say they matter; every signal and issue links
 * to its explanation; a schema report of a page without markup does not show "0 errors" in green.
 */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { PIPELINE, startAppEnv } from "../../helpers/app_env.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";
import { gateText } from "../../../lib/engines/visibility/learn.ts";
import { learnPath } from "../../../lib/kit/report_urls.ts";

const IMPACT_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const;
const BADGE_RANK: Record<string, number> = {
  "Critical": 0,
  "High impact": 1,
  "Medium impact": 2,
  "Low impact": 3,
};

async function scanAll(env: Awaited<ReturnType<typeof startAppEnv>>, hosts: string[]) {
  for (const url of hosts) {
    const res = await env.scan({ url }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(res.status, 202, url);
    await res.body?.cancel();
  }
  for (const host of hosts) {
    for (let i = 0; i < 200 && !(await env.store.getScan(host)); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

Deno.test({
  name: "GET /report/:domain - the first screen, the order of the fixes, and learn-more links",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const env = await startAppEnv({ worker: true });
    const hosts = ["edge-blocks-bots.test", "no-llms.test", "blanket-disallow.test", "good.test"];
    try {
      await scanAll(env, hosts);
      const page = async (host: string) => {
        const res = await env.app.request(`/report/${host}`);
        assert.equal(res.status, 200, host);
        const html = await res.text();
        const record = (await (await env.report(host)).json()) as ScanRecord;
        return { html, doc: parseHTML(html).document, record };
      };

      await t.step("a capped score names its gate, says why and that it comes first", async () => {
        const { doc, record } = await page("edge-blocks-bots.test");
        const r = record.result!;
        assert.equal(r.score, 35);
        const note = doc.querySelector("#cap-notice")!;
        assert.ok(note, "the cap notice is on the first screen");
        const text = note.textContent!.replace(/\s+/g, " ");
        assert.match(text, /capped at 35/);
        // One gate for every path that turns the major AI search crawlers away (here the edge).
        assert.ok(text.includes(gateText("search_crawlers_blocked")!.name), text);
        assert.match(text, /refused at the edge: a challenge page \(HTTP 403\)/);
        assert.match(text, /Fix this first/);
        // One figure for the cap: the score the fix that lifts it reaches, as its badge says.
        const [, to] = text.match(/takes the score from 35 to (\d+)/) ?? [];
        assert.ok(to, text);
        assert.ok(
          doc.querySelector("#issue-1 .badge.worth")!.textContent!.endsWith(`→ ${to}`),
          "the lifting fix's badge says the same figure",
        );
        assert.equal(note.querySelector('a[href="#issue-1"]')?.textContent, "How to fix it");
        assert.equal(r.topIssues[0].id, "access.edge");
        // The pillar that holds the gate says so and starts open; the others are one click away.
        const access = doc.querySelector("#pillar-access")!;
        assert.ok(access.hasAttribute("open"));
        assert.match(
          access.querySelector(".pillar-gate")!.textContent!,
          /caps the whole score at 35/,
        );
        for (const p of r.pillars.filter((p) => p.id !== "access")) {
          const el = doc.querySelector(`#pillar-${p.id}`)!;
          assert.equal(el.tagName, "DETAILS");
          assert.ok(!el.hasAttribute("open"), p.id);
          assert.equal(el.querySelector(".pillar-gate"), null, p.id);
        }
      });

      await t.step("an uncapped report has no cap notice", async () => {
        const { doc } = await page("good.test");
        assert.equal(doc.querySelector("#cap-notice"), null);
      });

      await t.step("the top three fixes, each with its effort, before anything else", async () => {
        const { doc, record } = await page("no-llms.test");
        const issues = record.result!.topIssues;
        assert.ok(issues.length > 3, `${issues.length} issues`);
        const top = [...doc.querySelectorAll("#top-fixes .top-fix")];
        assert.equal(top.length, 3);
        top.forEach((li, i) => {
          assert.equal(li.id, `issue-${i + 1}`);
          assert.ok(li.textContent!.includes(issues[i].title));
          assert.match(
            li.querySelector(".badge.effort")!.textContent!,
            /Quick fix|Some work|Bigger/,
          );
        });
        // The rest: one click away, numbered on, in order.
        const more = [...doc.querySelectorAll(".more-fixes-section li.issue")];
        assert.equal(more.length, issues.length - 3);
        more.forEach((li, i) => {
          assert.equal(li.id, `issue-${i + 4}`);
          assert.ok(li.querySelector("details:not([open]) > summary"), li.id);
        });
      });

      for (const host of hosts) {
        await t.step(
          `${host}: badges and order agree; every check links to its explanation`,
          async () => {
            const { doc, record } = await page(host);
            const issues = record.result!.topIssues;
            const ranks = issues.map((i) => IMPACT_RANK[i.impact]);
            assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), `${host}: ${ranks}`);
            const badges = [...doc.querySelectorAll('[id^="issue-"] .badge[class*="impact-"]')]
              .map((b) => BADGE_RANK[b.textContent!.trim()]);
            assert.deepEqual(badges, ranks, `${host}: badge words in page order`);
            const links = new Set(
              [...doc.querySelectorAll('a[href^="/learn/"]')].map((a) => a.getAttribute("href")),
            );
            for (const p of record.result!.pillars) {
              for (const s of p.signals) assert.ok(links.has(learnPath(s.id)), `${host}: ${s.id}`);
            }
            for (const i of issues) assert.ok(links.has(learnPath(i.id)), `${host}: issue ${i.id}`);
            for (const href of links) {
              const res = await env.app.request(href!);
              assert.equal(res.status, 200, href!);
              await res.body?.cancel();
            }
          },
        );
      }
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: "GET /report/:domain (schema) - a page without markup is not '0 errors' in green",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const env = await startAppEnv({ worker: true, env: { SERVICE: "schema" } });
    try {
      await scanAll(env, ["no-llms.test"]);
      const html = await (await env.app.request("/report/no-llms.test")).text();
      const doc = parseHTML(html).document;
      const stats = doc.querySelector(".stats")!.textContent!.replace(/\s+/g, " ");
      assert.match(stats, /No markup to validate/);
      assert.doesNotMatch(stats, /0 errors/);
      assert.equal(doc.querySelectorAll(".stats .status-pass").length, 0);
    } finally {
      await env.close();
    }
  },
});
