/**
 * The rendering step (lib/engines/render/) against the fixture sites (tests/fixtures/render_sites.ts):
 * each page's two views and verdict, what only scripts add, head fields scripts change, the
 * hostile pages that must end their own render and nothing else, politeness on the requests a
 * page makes, and "not rendered" when there is no browser. Needs /usr/bin/chromium (installed by
 * .ci/run); skipped loudly without it.
 */
import assert from "node:assert/strict";
import type { RenderedPage, RenderView } from "../lib/engines/render/view.ts";
import { hasChromium } from "./e2e/browser.ts";
import { renderFixtures } from "./helpers/render_env.ts";
import { CRAWLERS } from "../lib/engines/visibility/crawlers.ts";
import {
  HOSTILE_PAGES,
  POLITE_SCRIPTS,
  type RenderSites,
  SPA_CONTENT,
  startRenderSites,
} from "./fixtures/render_sites.ts";

import { datedSourceProblems } from "../lib/kit/dated_source.ts";
const STEP = { sanitizeOps: false, sanitizeResources: false } as const;
const ignore = !hasChromium();
if (ignore) console.warn("render tests skipped: /usr/bin/chromium is not installed");

/** Renders `urls` of the fixture sites in one session. */
function render(
  sites: RenderSites,
  urls: string[],
  options: {
    extra?: Record<string, string>;
    robotsAllows?: (url: string) => boolean;
    now?: () => number;
  } = {},
): Promise<RenderView> {
  return renderFixtures(sites, urls, {
    env: options.extra,
    robotsAllows: options.robotsAllows,
    now: options.now,
  });
}

function pageOf(view: RenderView, path: string): RenderedPage {
  const page = view.pages.find((p) =>
    new URL(p.url).pathname === path ||
    new URL(p.url).host === path
  );
  assert.ok(page, `no page ${path} in ${view.pages.map((p) => p.url).join(", ")}`);
  return page;
}

Deno.test({
  name: "render - the two views and the verdict of each fixture page",
  ignore,
  ...STEP,
  fn: async (t) => {
    const sites = startRenderSites();
    try {
      const view = await render(sites, [
        "http://spa.test/",
        "http://spa.test/old",
        "http://ssr.test/",
        "http://jsonld.test/",
        "http://meta.test/",
        "http://short.test/about",
      ]);
      assert.equal(view.status, "rendered", view.reason ?? "");
      assert.match(view.browser ?? "", /^local Chromium \d+/);

      await t.step("a client-rendered SPA: empty for crawlers that do not render", () => {
        const p = pageOf(view, "spa.test");
        assert.equal(p.state, "rendered");
        assert.equal(p.verdict, "js_only");
        assert.ok(p.raw!.words < 10, `raw words ${p.raw!.words}`);
        assert.ok(p.rendered!.words >= 300, `rendered words ${p.rendered!.words}`);
        assert.equal(p.raw!.h1, null);
        assert.equal(p.rendered!.h1, SPA_CONTENT.h1);
        assert.equal(p.onlyAfterScripts!.headingCount, 1 + SPA_CONTENT.sections.length);
        assert.equal(p.onlyAfterScripts!.headings[0], `h1: ${SPA_CONTENT.h1}`);
        assert.equal(p.onlyAfterScripts!.links, SPA_CONTENT.links.length);
        assert.deepEqual(p.onlyAfterScripts!.linkExamples, SPA_CONTENT.links.slice(0, 3));
        // The title a script sets is a changed head field.
        assert.deepEqual(p.changed.map((c) => c.field), ["title"]);
        assert.match(p.missed, /^GPTBot, ClaudeBot and PerplexityBot get an empty page here/);
        assert.match(p.missed, /the first: “Fresh coffee, roasted to order”/);
        assert.match(p.missed, /6 internal links/);
        // The app's own requests were served through the gate; nothing was refused.
        assert.equal(p.requests.served, 3, JSON.stringify(p.requests));
        assert.equal(p.requests.refused, 0, JSON.stringify(p.requests));
      });

      await t.step("a redirect is followed by the fetcher, never by the browser", () => {
        const p = view.pages.find((p) => p.url === "http://spa.test/old")!;
        assert.equal(p.state, "rendered", p.reason ?? "");
        assert.equal(p.verdict, "js_only");
        assert.equal(p.rendered!.h1, SPA_CONTENT.h1);
      });

      await t.step("a server-rendered page that scripts only enhance", () => {
        const p = pageOf(view, "ssr.test");
        assert.equal(p.verdict, "server");
        assert.ok(p.raw!.words >= 360);
        assert.equal(p.onlyAfterScripts!.words, p.rendered!.words - p.raw!.words);
        assert.ok(p.onlyAfterScripts!.words <= 3, String(p.onlyAfterScripts!.words));
        assert.equal(p.onlyAfterScripts!.headingCount, 0);
        assert.equal(p.onlyAfterScripts!.links, 0);
        assert.deepEqual(p.changed, []);
        assert.match(p.missed, /^Nothing: the server HTML already holds the text/);
      });

      await t.step("JSON-LD injected by a script exists only in the rendered view", () => {
        const p = pageOf(view, "jsonld.test");
        assert.equal(p.verdict, "server");
        assert.deepEqual(p.raw!.structuredTypes, ["Organization"]);
        assert.deepEqual(p.rendered!.structuredTypes, ["Offer", "Organization", "Product"]);
        assert.deepEqual(p.onlyAfterScripts!.structuredTypes, ["Offer", "Product"]);
        assert.match(
          p.missed,
          /^Almost nothing: .* Only scripts add the structured data Offer, Product\./,
        );
      });

      await t.step("canonical and robots meta changed by scripts", () => {
        const p = pageOf(view, "meta.test");
        assert.deepEqual(p.changed, [
          { field: "canonical", raw: "http://meta.test/", rendered: "http://meta.test/other" },
          { field: "robots", raw: null, rendered: "noindex" },
        ]);
        assert.match(
          p.missed,
          /Scripts change the canonical: .* read “http:\/\/meta\.test\/”, rendering crawlers “http:\/\/meta\.test\/other”/,
        );
        assert.match(
          p.missed,
          /Scripts change the robots meta: .* read none, rendering crawlers “noindex”/,
        );
      });

      await t.step("a short static page is thin in both views, not JavaScript-only", () => {
        const p = pageOf(view, "/about");
        assert.equal(p.verdict, "thin");
        assert.equal(p.raw!.words, p.rendered!.words);
        assert.match(p.missed, /^Little either way: \d+ words in the server HTML/);
      });

      await t.step("the registry's rendering facts ride along, each sourced and dated", () => {
        assert.deepEqual(
          view.crawlers.filter((c) => !c.renders).map((c) => c.token),
          ["GPTBot", "ClaudeBot", "PerplexityBot"],
        );
        for (const c of view.crawlers) {
          // The record spells its dated source `source` (the record's shape; the registry's too).
          assert.deepEqual(datedSourceProblems({ url: c.source, checked: c.checked }), []);
          // Each is a crawler of the registry (its token as the registry spells it).
          assert.ok(CRAWLERS.some((k) => k.token === c.token), `${c.token} is not in the registry`);
        }
      });
    } finally {
      await sites.close();
    }
  },
});

Deno.test({
  name: "render - hostile pages end their own render; the pages after them still render",
  ignore,
  ...STEP,
  fn: async () => {
    const sites = startRenderSites();
    try {
      const started = performance.now();
      const paths = Object.keys(HOSTILE_PAGES);
      const view = await render(sites, [
        ...paths.map((p) => `http://hostile.test${p}`),
        "http://ssr.test/",
      ], { extra: { RENDER_PAGE_MS: "4000" } });
      const elapsed = performance.now() - started;
      const byPath = new Map(view.pages.map((p) => [new URL(p.url).pathname, p]));
      // Every page got its turn (none skipped) within the pages' budgets, not the session's.
      assert.equal(view.pages.length, paths.length + 1);
      assert.ok(!view.pages.some((p) => p.state === "skipped"), JSON.stringify(view.pages));
      assert.ok(elapsed < 4000 * Math.ceil(view.pages.length / 2) + 15_000, `${elapsed} ms`);
      // The page after the hostile ones is rendered normally.
      assert.equal(pageOf(view, "ssr.test").state, "rendered");
      assert.equal(pageOf(view, "ssr.test").verdict, "server");
      // A loop is interrupted and the DOM it built before is read.
      const loop = byPath.get("/loop")!;
      assert.equal(loop.state, "rendered", loop.reason ?? "");
      assert.equal(loop.rendered!.h1, "Before the loop");
      // Dialogs are dismissed (or never shown) and the page reads normally.
      assert.equal(byPath.get("/alerts")!.state, "rendered", byPath.get("/alerts")!.reason ?? "");
      assert.equal(byPath.get("/popups")!.state, "rendered", byPath.get("/popups")!.reason ?? "");
      // A memory or DOM bomb ends its own render: its tab crashes at the heap limit, or its
      // script is stopped when its time is up (how far it got depends on the machine's speed).
      for (const path of ["/memory", "/dom"]) {
        const p = byPath.get(path)!;
        assert.ok(p.state === "failed" || p.state === "rendered", `${path}: ${p.state}`);
        if (p.state === "failed") assert.match(p.reason ?? "", /crashed|busy|could not/);
      }
    } finally {
      await sites.close();
    }
  },
});

Deno.test({
  name:
    "render - the scan's budgets: RENDER_PAGES pages at most, pages past RENDER_BUDGET_MS skipped and judged on nothing",
  ignore,
  ...STEP,
  fn: async () => {
    const sites = startRenderSites();
    try {
      const urls = [
        "http://ssr.test/",
        "http://short.test/about",
        "http://spa.test/",
        "http://jsonld.test/",
      ];
      const isPage = (r: { host: string; path: string }) =>
        urls.includes(`http://${r.host}${r.path}`);
      // The budget's clock (injected): each page the session starts costs the whole budget, so
      // the two tabs that start at once render and every page after them finds the budget spent.
      const budgetMs = 20_000;
      const now = () => sites.requests.filter(isPage).length * budgetMs;
      const view = await render(sites, urls, {
        extra: { RENDER_PAGES: "3", RENDER_BUDGET_MS: String(budgetMs) },
        now,
      });
      // RENDER_PAGES: the fourth URL is never considered (no entry, no request).
      assert.deepEqual(view.pages.map((p) => p.url), urls.slice(0, 3));
      assert.ok(!sites.requests.some((r) => r.host === "jsonld.test"));
      assert.equal(view.pages[0].state, "rendered", view.pages[0].reason ?? "");
      assert.equal(view.pages[1].state, "rendered", view.pages[1].reason ?? "");
      // RENDER_BUDGET_MS: the third page is skipped, says why, and concludes nothing.
      const skipped = view.pages[2];
      assert.equal(skipped.state, "skipped");
      assert.equal(skipped.verdict, "unknown");
      assert.equal(skipped.raw, null);
      assert.equal(skipped.rendered, null);
      assert.match(
        skipped.missed,
        /^Not rendered \(.*the render budget ran out\); nothing is concluded/,
      );
      assert.ok(!sites.requests.some((r) => r.host === "spa.test"), "a skipped page was fetched");
      assert.equal(view.status, "partial");
      assert.match(view.reason ?? "", /^1 of 3 pages were not rendered: the render budget ran out/);
      assert.equal(view.budgetMs, budgetMs);
      assert.equal(view.elapsedMs, 2 * budgetMs);
    } finally {
      await sites.close();
    }
  },
});

Deno.test({
  name: "render - a page's requests keep the site's politeness: 2 in flight, robots.txt for us",
  ignore,
  ...STEP,
  fn: async () => {
    const sites = startRenderSites({ delayMs: 60 });
    try {
      const view = await render(sites, ["http://polite.test/"], {
        robotsAllows: (url) => !new URL(url).pathname.startsWith("/private/"),
      });
      const p = pageOf(view, "polite.test");
      assert.equal(p.state, "rendered", p.reason ?? "");
      // The gate caps the site at 2 requests in flight (the fixture counted at arrival).
      const toSite = sites.requests.filter((r) => r.host === "polite.test");
      assert.equal(toSite.length, 1 + POLITE_SCRIPTS, toSite.map((r) => r.path).join());
      assert.ok(Math.max(...toSite.map((r) => r.inFlight)) <= 2);
      assert.ok(toSite.every((r) => r.userAgent.startsWith("AIVisibilityBot/")));
      // robots.txt disallows /private/ for our crawler: never requested, counted as refused.
      assert.ok(!toSite.some((r) => r.path.startsWith("/private/")));
      assert.equal(p.requests.refusedKinds["robots.txt"], 1);
      assert.ok(!p.rendered || p.rendered.words > 0);
    } finally {
      await sites.close();
    }
  },
});

Deno.test({
  name: "render - without a browser the view says not rendered and concludes nothing",
  ...STEP,
  fn: async () => {
    const sites = startRenderSites();
    try {
      const missing = await render(sites, ["http://spa.test/"], {
        extra: { RENDER_CHROMIUM: "/nonexistent/chromium" },
      });
      assert.equal(missing.status, "unavailable");
      assert.match(missing.reason!, /\/nonexistent\/chromium is not installed/);
      assert.deepEqual(missing.pages, []);
      const off = await render(sites, ["http://spa.test/"], { extra: { RENDER_CHROMIUM: "off" } });
      assert.equal(off.status, "unavailable");
      assert.match(off.reason!, /rendering is off/);
      // No request reached the site for a render that never started.
      assert.equal(sites.requests.length, 0);
    } finally {
      await sites.close();
    }
  },
});
