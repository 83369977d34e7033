/**
 * The ways on from where a reader could get stuck (issue 32): an unknown address answers a
 * browser with a page and a way home while the API keeps its JSON 404 (content negotiation by
 * path and Accept, lib/kit/web/not_found.tsx); compare's "Scan it" opens a filled form; the account
 * page's curl example follows the scan's status URL, as /docs does; the trend chart's time axis
 * reads in the reader's time zone like the list beside it.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { DOMParser } from "linkedom";
import { startAppEnv } from "./helpers/app_env.ts";
import { storeRecord, visibilityRecord } from "./helpers/records.ts";
import { wantsPage } from "../lib/kit/web/not_found.tsx";
import { DashboardPage } from "../lib/features/accounts/views/account_page.tsx";
import { TrendChart } from "../lib/features/history/views/trend_chart.tsx";
import { comparePagePath } from "../lib/kit/report_urls.ts";

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

Deno.test({
  name: "[dead ends] a browser gets a 404 page with a way home; the API keeps its JSON 404",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const env = await startAppEnv();
    try {
      for (const path of ["/login", "/signup", "/about", "/no/such/page"]) {
        const page = await env.app.request(path, { headers: { accept: BROWSER } });
        assert.equal(page.status, 404, path);
        assert.match(page.headers.get("content-type") ?? "", /^text\/html/, path);
        const doc = new DOMParser().parseFromString(await page.text(), "text/html");
        assert.equal(doc.querySelector("h1")?.textContent, "Page not found", path);
        const links = [...doc.querySelectorAll("main a")].map((a) => a.getAttribute("href"));
        for (const href of ["/", "/account/login", "/account/signup"]) {
          assert.ok(links.includes(href), `${path}: a way to ${href}`);
        }
        // curl (Accept: */*) and fetch() asking for JSON get the JSON error.
        for (const accept of ["*/*", "application/json"]) {
          const json = await env.app.request(path, { headers: { accept } });
          assert.equal(json.status, 404);
          assert.deepEqual(await json.json(), { error: "Not found" }, `${path} ${accept}`);
        }
      }
      // The API's own 404s stay JSON even for a browser (the contract).
      for (const path of ["/api/report/never-scanned.example.json", "/api/nope", "/mcp/nope"]) {
        const res = await env.app.request(path, { headers: { accept: BROWSER } });
        assert.equal(res.status, 404, path);
        assert.deepEqual(await res.json(), { error: "Not found" }, path);
      }
    } finally {
      await env.close();
    }
  },
});

Deno.test("[dead ends] the 404 rule: machine paths and non-HTML callers get JSON", () => {
  assert.equal(wantsPage("GET", "/login", BROWSER), true);
  assert.equal(wantsPage("HEAD", "/about", "text/html"), true);
  assert.equal(wantsPage("POST", "/login", BROWSER), false, "a form post to nowhere: the JSON");
  assert.equal(wantsPage("GET", "/login", "*/*"), false);
  assert.equal(wantsPage("GET", "/login", undefined), false);
  for (const p of ["/api/x", "/mcp", "/openapi.json", "/badge/x.svg", "/healthz", "/static/x"]) {
    assert.equal(wantsPage("GET", p, BROWSER), false, p);
  }
});

Deno.test({
  name: "[dead ends] compare's 'Scan it' opens the scan form filled with that site",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const env = await startAppEnv();
    try {
      await storeRecord(
        env,
        visibilityRecord("shop.example", {
          score: 70,
          grade: "C",
          pillarScores: [70, 70, 70],
          issues: [],
        }),
      );
      const compare =
        await (await env.app.request(comparePagePath(["shop.example", "new.example"])))
          .text();
      const doc = new DOMParser().parseFromString(compare, "text/html");
      const scanIt = [...doc.querySelectorAll("a")].find((a) => a.textContent === "Scan it");
      assert.ok(scanIt, "the not-scanned site offers a scan");
      const target = await env.app.request(scanIt.getAttribute("href")!, {
        headers: { accept: BROWSER },
      });
      assert.equal(target.status, 404);
      const form = new DOMParser().parseFromString(await target.text(), "text/html");
      assert.equal(form.querySelector("input#url")?.getAttribute("value"), "new.example");
    } finally {
      await env.close();
    }
  },
});

Deno.test("[dead ends] the account page's curl example follows the status URL, as /docs does", () => {
  const html = renderToString(
    <DashboardPage
      state={{
        account: {
          id: "a1",
          email: "owner@example.com",
          passwordHash: "x",
          createdAt: 0,
        } as never,
        csrf: "t",
        keys: [],
        sections: [],
      }}
      origin="https://checker.example"
      prefix="uvk_"
    />,
  );
  const code = new DOMParser().parseFromString(html, "text/html").querySelector("pre code")!
    .textContent;
  assert.match(code, /curl -s https:\/\/checker\.example\/api\/scans\/SCAN_ID\n/);
  assert.match(code, /statusUrl/);
  // The record is read once the status says so, from the scan's own JSON, not polled.
  assert.match(code, /\/api\/report\/example\.com\/scans\/SCAN_ID\.json/);
  assert.doesNotMatch(code, /Poll every/i);
});

Deno.test("[dead ends] the trend chart's time axis is local time, like the list beside it", () => {
  const html = renderToString(
    <TrendChart
      points={[
        { scannedAt: "2026-11-20T09:00:00.000Z", score: 40 },
        { scannedAt: "2026-11-21T15:59:00.000Z", score: 70 },
      ]}
    />,
  )!;
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  // The axis is HTML <time data-local> (the page's script writes it in the reader's zone), not
  // SVG text fixed in UTC.
  const axis = [...doc.querySelectorAll(".trend-axis time[data-local]")];
  assert.deepEqual(axis.map((t) => t.getAttribute("datetime")), [
    "2026-11-20T09:00:00.000Z",
    "2026-11-21T15:59:00.000Z",
  ]);
  assert.equal(doc.querySelectorAll("svg text").length, 3, "only the 0/50/100 score ticks");
});
