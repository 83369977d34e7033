/**
 * Compare sites: GET /api/compare.json and GET /compare put the latest stored records of up to 5
 * domains side by side, read stored records only (no scan starts), list a never-scanned domain
 * as "not scanned yet" (with a link to scan it), and answer a bad request with a clear 400.
 */
import { assertInlineScriptsHashed } from "../../helpers/inline_scripts.ts";
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { startAppEnv } from "../../helpers/app_env.ts";
import {
  failedVisibilityRecord,
  storeRecord,
  visibilityRecord,
  XSS,
} from "../../helpers/records.ts";
import { compareDomains, type Comparison } from "../../../lib/features/compare/compare.ts";
import { compareJsonPath, comparePagePath } from "../../../lib/kit/report_urls.ts";
import { schemaService } from "../../../lib/features/schema/service.ts";

const FIVE = ["alpha.example", "beta.example", "gamma.example", "never.example", "down.example"];

async function fiveSites() {
  const env = await startAppEnv();
  await storeRecord(
    env,
    visibilityRecord("alpha.example", {
      score: 82,
      grade: "B",
      pillarScores: [100, 70, 80],
      issues: [{ id: "content.faq", impact: "low" }, { id: "structured.org" }],
    }),
  );
  await storeRecord(
    env,
    visibilityRecord("beta.example", {
      score: 41,
      grade: "D",
      pillarScores: [20, 40, 55],
      issues: [
        { id: "access.search_crawlers", impact: "critical" },
        { id: "structured.org", impact: "high" },
        { id: "content.faq" },
      ],
      hostile: true,
    }),
  );
  await storeRecord(
    env,
    visibilityRecord("gamma.example", {
      score: 67,
      grade: "C",
      pillarScores: [90, 40, 70],
      issues: [{ id: "structured.org" }],
    }),
  );
  await storeRecord(env, failedVisibilityRecord("down.example"), "the home page answered HTTP 503");
  return env;
}

Deno.test("[compare] JSON: five domains side by side, one never scanned, one failed", async () => {
  const env = await fiveSites();
  try {
    const res = await env.app.request(compareJsonPath(FIVE));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const c: Comparison = await res.json();
    assert.deepEqual(c.domains, FIVE);
    assert.deepEqual(c.sites.map((s) => [s.domain, s.status, s.score, s.grade]), [
      ["alpha.example", "ok", 82, "B"],
      ["beta.example", "ok", 41, "D"],
      ["gamma.example", "ok", 67, "C"],
      ["never.example", "not_scanned", null, null],
      ["down.example", "failed", null, null],
    ]);
    const never = c.sites[3];
    assert.equal(never.reportPath, "/report/never.example", "where to scan it");
    assert.equal(never.jsonPath, null);
    assert.equal(c.sites[4].failure, "the home page answered HTTP 503");
    // Pillar by pillar, null where a site has no result.
    assert.deepEqual(c.pillars.map((p) => p.id), ["access", "structured", "content"]);
    assert.deepEqual(c.pillars[0].scores, {
      "alpha.example": 100,
      "beta.example": 20,
      "gamma.example": 90,
      "never.example": null,
      "down.example": null,
    });
    // The issues one site has and another does not, most telling first; shared ones last.
    assert.deepEqual(
      c.issues.map((i) => [i.id, i.impact, i.has, i.lacks, i.shared]),
      [
        ["access.search_crawlers", "critical", ["beta.example"], [
          "alpha.example",
          "gamma.example",
        ], false],
        ["content.faq", "medium", ["alpha.example", "beta.example"], ["gamma.example"], false],
        ["structured.org", "high", ["alpha.example", "beta.example", "gamma.example"], [], true],
      ],
    );
    assert.deepEqual(c.sites.map((s) => s.onlyHere), [[], ["access.search_crawlers"], [], [], []]);
    // Each site's own severity, as its report says it (issue 42): structured.org is high on
    // beta's report and medium on alpha's and gamma's, whatever the row's highest.
    assert.deepEqual(c.issues[2].impacts, {
      "alpha.example": "medium",
      "beta.example": "high",
      "gamma.example": "medium",
    });
    // The body is what /openapi.json says it is.
    const doc = await (await env.app.request("/openapi.json")).json();
    assert.ok(doc.paths["/api/compare.json"].get);
    const validate = new Ajv2020({ strict: false, allErrors: true })
      .compile(doc.components.schemas.Comparison);
    assert.ok(validate(c), JSON.stringify(validate.errors));
    // Nothing was scanned: no domain is in flight, nothing new was stored.
    for (const d of FIVE) assert.equal(await env.store.getInflight(d), null, d);
    assert.equal(await env.store.getScan("never.example"), null);
  } finally {
    await env.close();
  }
});

Deno.test("[compare] page: the table, 'not scanned yet' with a link to scan, escaped text", async () => {
  const env = await fiveSites();
  try {
    const res = await env.app.request(comparePagePath(FIVE));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/html/);
    assert.match(res.headers.get("content-security-policy")!, /default-src 'self'/);
    const html = await res.text();
    assert.match(
      html,
      /<h1>alpha.example vs beta.example vs gamma.example vs never.example vs down.example<\/h1>/,
    );
    assert.match(html, /Not scanned yet. <a href="\/report\/never.example">Scan it<\/a>/);
    assert.match(html, /Scan failed<\/span><span class="muted">the home page answered HTTP 503/);
    assert.match(html, /<strong class="grade-B">82\/100<\/strong> grade B/);
    assert.match(html, /Issues one site has and another does not/);
    assert.match(html, /Issues every site has \(1\)/);
    // The severity shown per site is the one its own report shows (one value in every view).
    const row = html.slice(html.indexOf("Fix structured.org"));
    assert.deepEqual(
      [...row.slice(0, row.indexOf("</tr>")).matchAll(/badge impact-(\w+)">([^<]+)</g)].map((
        m,
      ) => [m[1], m[2]]),
      [["medium", "Medium impact"], ["high", "High impact"], ["medium", "Medium impact"]],
    );
    // The form is refilled with the five sites.
    for (const d of FIVE) assert.match(html, new RegExp(`name="d" value="${d}"`));
    // beta's hostile label and issue titles are text, not markup.
    assert.doesNotMatch(html, /<script>alert|<img src=x|href="javascript:/i);
    assert.ok(
      html.includes("Fix access.search_crawlers &lt;script>alert(1)&lt;/script>"),
      "escaped",
    );
    // Every link into a report's section lands on a section that exists there.
    const fragments = [...html.matchAll(/href="(\/report\/[^"#]+)#([^"]+)"/g)];
    assert.ok(fragments.length > 0, "links to the fixes");
    for (const [, path, id] of fragments) {
      const report = await (await env.app.request(path)).text();
      assert.ok(report.includes(`id="${id}"`), `${path} has #${id}`);
    }
    // The only inline script is the theme's, allowed by its hash (no 'unsafe-inline').
    assertInlineScriptsHashed(html, res.headers.get("content-security-policy")!);
    assert.ok(html.includes(`href="${compareJsonPath(FIVE).replaceAll("&", "&amp;")}"`));
    assert.match(html, /<td >3<span class="muted"> \(1 only this site has\)<\/span><\/td>/);
  } finally {
    await env.close();
  }
});

Deno.test("[compare] six domains, a bad domain, none: 400 JSON; the page says so kindly", async (t) => {
  const env = await fiveSites();
  try {
    const six = [...FIVE, "sixth.example"];
    await t.step("6 domains: 400 JSON naming the limit", async () => {
      const res = await env.app.request(compareJsonPath(six));
      assert.equal(res.status, 400);
      assert.match(res.headers.get("content-type")!, /^application\/json/);
      const body = await res.json();
      assert.deepEqual(Object.keys(body), ["error"]);
      assert.match(body.error, /At most 5 sites can be compared at once; 6 were given/);
    });
    await t.step("6 domains on the page: a 400 page with the message and the form", async () => {
      const res = await env.app.request(comparePagePath(six));
      assert.equal(res.status, 400);
      assert.match(res.headers.get("content-type")!, /^text\/html/);
      const html = await res.text();
      assert.match(html, /role="alert">At most 5 sites can be compared at once; 6 were given/);
      assert.match(html, /<form class="card compare-form" method="get" action="\/compare">/);
    });
    await t.step("not a domain name: 400 JSON and a 400 page, the input escaped", async () => {
      const res = await env.app.request(
        `/api/compare.json?d=alpha.example&d=${encodeURIComponent(XSS)}`,
      );
      assert.equal(res.status, 400);
      assert.match((await res.json()).error, /is not a domain name/);
      const page = await env.app.request(`/compare?d=ftp%3A%2F%2Fx.example`);
      assert.equal(page.status, 400);
      assert.match(
        await page.text(),
        /&quot;ftp:\/\/x.example&quot; is not a domain name: only http/,
      );
      const hostile = await (await env.app.request(`/compare?d=${encodeURIComponent(XSS)}`)).text();
      assert.doesNotMatch(hostile, /<script>alert|<img src=x/);
    });
    await t.step("no domain: 400 JSON; the page shows the empty form", async () => {
      const res = await env.app.request("/api/compare.json");
      assert.equal(res.status, 400);
      assert.match((await res.json()).error, /Name the sites to compare/);
      const page = await env.app.request("/compare");
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Compare AI visibility, side by side/);
    });
    await t.step("one site with a report among others: no issue table, a word why", async () => {
      const html = await (await env.app.request("/compare?d=alpha.example&d=never.example")).text();
      assert.match(html, /Only one of these sites has a report, so there are no issues to compare/);
      assert.doesNotMatch(html, /Issues one site has and another does not/);
    });
    await t.step("other methods: 405", async () => {
      const res = await env.app.request("/api/compare.json?d=a.example", { method: "POST" });
      assert.equal(res.status, 405);
      await res.body?.cancel();
    });
  } finally {
    await env.close();
  }
});

Deno.test("[compare] domains are normalised, deduplicated, comma-separated values accepted", () => {
  assert.deepEqual(
    compareDomains(["Alpha.Example,https://www.alpha.example/page", "beta.example gamma.example"]),
    ["alpha.example", "beta.example", "gamma.example"],
  );
  // Six values naming five distinct sites are five sites.
  assert.equal(compareDomains([...FIVE, "ALPHA.example"]).length, 5);
  assert.throws(() => compareDomains([...FIVE, "sixth.example"]), /At most 5/);
  assert.throws(() => compareDomains(["", " "]), /Name the sites/);
});

Deno.test("[compare] the schema service does not compare sites: 404", async () => {
  const env = await startAppEnv({ service: schemaService });
  try {
    for (const path of ["/api/compare.json?d=a.example", "/compare?d=a.example"]) {
      const res = await env.app.request(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(await res.json(), { error: "Not found" });
    }
  } finally {
    await env.close();
  }
});
