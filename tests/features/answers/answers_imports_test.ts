/**
 * First-party imports (issue 44, item 4): sample Bing AI Performance and Search Console CSV files
 * written from the exports' descriptions (tests/fixtures/first_party/) are imported over the API
 * and shown per page beside answer presence (answers citing each page after a run) and the
 * logs' observed column; unknown columns are kept and shown; malformed files are a clear 400 with
 * nothing stored; only the site's watcher (or the operator) may import.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { call, DOMAIN, run, world } from "../../helpers/answers_env.ts";
import type { TestEnv } from "../../helpers/app_env.ts";
import { answersOf } from "../../../lib/features/answers/context.ts";
import { readFirstParty } from "../../../lib/features/answers/first_party_job.ts";

const DIR = join(import.meta.dirname!, "..", "..", "fixtures", "first_party");
const file = (name: string) => Deno.readTextFile(join(DIR, name));

function upload(env: TestEnv, key: string | null, source: string, body: string, type = "text/csv") {
  return Promise.resolve(env.handler(
    new Request(`http://localhost/api/answers/${DOMAIN}/imports?source=${source}`, {
      method: "POST",
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": type },
      body,
    }),
  ));
}

Deno.test("answers imports - Bing and Search Console samples imported and shown per page beside answer presence", async () => {
  const w = await world();
  try {
    const imported: Record<string, unknown>[] = [];
    for (
      const [source, name] of [
        ["bing-ai", "bing_ai_pages.csv"],
        ["bing-ai", "bing_ai_queries.csv"],
        ["gsc", "gsc_pages.csv"],
        ["gsc", "gsc_queries.csv"],
        ["gsc-ai", "gsc_ai_pages.csv"],
      ]
    ) {
      const res = await upload(w.env, w.key, source, await file(name));
      assertEquals(res.status, 201, `${name}: ${await res.clone().text()}`);
      imported.push((await res.json()).import);
    }
    assertEquals(imported.map((i) => [i.source, i.table, i.rows]), [
      ["bing-ai", "pages", 3],
      ["bing-ai", "queries", 2],
      ["gsc", "pages", 3],
      ["gsc", "queries", 2],
      ["gsc-ai", "pages", 2],
    ]);
    // A column the source does not document is kept and shown.
    assertEquals(imported[0].unknownColumns, ["Notes"]);
    // A run: the fixtures' answers cite https://good.test/shop (OpenAI) and /about (Anthropic).
    await run(w);
    const res = await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}/pages`);
    assertEquals(res.status, 200);
    const view = await res.json();
    const shop = view.pages.find((p: { path: string }) => p.path === "/shop");
    assertEquals(shop.sources["bing-ai"].metrics.citations, 30);
    assertEquals(shop.sources.gsc.metrics, {
      clicks: 41,
      impressions: 1200,
      ctr: 0.0342,
      position: 6.1,
    });
    assertEquals(shop.sources["gsc-ai"].metrics.impressions, 150);
    assert(shop.answers.cited > 0, "answers citing /shop are counted beside the exports");
    const about = view.pages.find((p: { path: string }) => p.path === "/about");
    assertEquals(about.sources["bing-ai"].extra, { Notes: "team, history" });
    assertEquals(
      view.pages.find((p: { path: string }) => p.path === "/").sources.gsc.metrics.clicks,
      17,
    );
    // The imports carry their source's pages and the day they were read; the queries are listed.
    assert(
      view.imports.every((i: { docs: { checked: string }[] }) =>
        i.docs[0].checked === "2026-12-06"
      ),
    );
    const bingQueries = view.queries.find((q: { source: string }) => q.source === "bing-ai");
    assertEquals(bingQueries.rows[0].metrics, {
      citations: 9,
      citationShare: 0.125,
      intent: "Commercial",
      topic: "Coffee",
    });
    // No logs uploaded: no observed column.
    assertEquals(view.observedFromLogs, false);
    assertEquals(shop.observed, null);
  } finally {
    await w.close();
  }
});

Deno.test("answers imports - malformed files: a clear 400 naming the line, nothing stored", async () => {
  const w = await world();
  try {
    const cases: [string, string, RegExp][] = [
      ["bing-ai", await file("malformed_no_page_column.csv"), /no page or query column/],
      ["bing-ai", await file("malformed_not_a_number.csv"), /Line 2: "many" .* not a number/],
      ["bing-ai", await file("malformed_not_a_url.csv"), /Line 2: "not a url" is not a page URL/],
      ["gsc", "PK\u0003\u0004rest-of-a-zip", /ZIP archive/],
      ["gsc", "Top pages,Clicks\n", /header but no rows/],
      ["gsc", "Top pages,Foo\nhttps://good.test/,1\n", /none of the metric columns/],
      ["nope", "Page,Citations\nhttps://good.test/,1\n", /source must be one of/],
    ];
    for (const [source, body, message] of cases) {
      const res = await upload(w.env, w.key, source, body);
      assertEquals(res.status, 400, body.slice(0, 30));
      assert(message.test((await res.json()).error), String(message));
    }
    assertEquals((await upload(w.env, w.key, "gsc", "{}", "application/json")).status, 415);
    assertEquals((await upload(w.env, null, "gsc", "x")).status, 401);
    const view = await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}/pages`)).json();
    assertEquals(view.imports, []);
  } finally {
    await w.close();
  }
});

Deno.test("answers imports - the logs' observed column joins the pages where the account has logs", async () => {
  const w = await world();
  try {
    // The app hands the logs' counts in; here a stand-in with two paths.
    answersOf(w.env.deps).observed = (_account, domain) =>
      Promise.resolve(domain === DOMAIN ? new Map([["/shop", 7], ["/robots.txt", 3]]) : null);
    assertEquals((await upload(w.env, w.key, "gsc", await file("gsc_pages.csv"))).status, 201);
    const view = await (await call(w.env, w.key, "GET", `/api/answers/${DOMAIN}/pages`)).json();
    assertEquals(view.observedFromLogs, true);
    const byPath = Object.fromEntries(
      view.pages.map((p: { path: string; observed: number }) => [p.path, p.observed]),
    );
    assertEquals([byPath["/shop"], byPath["/robots.txt"], byPath["/"]], [7, 3, 0]);
  } finally {
    await w.close();
  }
});

Deno.test("answers imports - the reader is bounded: 5,000 rows read, more refused", () => {
  const rows = Array.from({ length: 5000 }, (_, i) => `https://good.test/p${i},${i}`).join("\n");
  const ok = readFirstParty({
    kind: "first-party-csv",
    source: "bing-ai",
    text: `Page,Citations\n${rows}\n`,
  });
  assert(ok.ok && ok.table.rows.length === 5000);
  const over = readFirstParty({
    kind: "first-party-csv",
    source: "bing-ai",
    text: `Page,Citations\n${rows}\nhttps://good.test/x,1\n`,
  });
  assert(!over.ok && /More than 5000 rows/.test(over.error));
});

Deno.test("answers imports - the report's import form posts the file as text/csv with the session's token", async () => {
  const w = await world();
  try {
    const { formToken, WebClient } = await import("../../helpers/web_client.ts");
    const { scanned } = await import("../../helpers/answers_env.ts");
    await scanned(w.env);
    const user = new WebClient(w.env, "198.51.100.93");
    assertEquals(
      (await user.signUp("imports-owner@example.com", "correct horse battery staple")).status,
      303,
    );
    const offer = (await user.page(`/report/${DOMAIN}`)).html;
    await user.request("/account/watches", {
      form: { csrf: formToken(offer, "/account/watches"), url: DOMAIN },
    });
    const page = (await user.page(`/report/${DOMAIN}`)).html;
    assert(
      page.includes('data-island="ImportForm"') || page.includes("ImportForm"),
      "the form's island",
    );
    const csrf = page.match(/name="csrf" value="([^"]+)"/)![1];
    // As the island's fetch sends it: the session's cookie, same-origin, the token in a header.
    const post = (token: string, type = "text/csv") =>
      w.env.app.request(`/account/answers/${DOMAIN}/imports?source=gsc`, {
        method: "POST",
        headers: {
          "content-type": type,
          "x-csrf-token": token,
          "sec-fetch-site": "same-origin",
          "x-forwarded-for": "198.51.100.93",
          cookie: [...user.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        },
        body: "Top pages,Clicks,Impressions,CTR,Position\nhttps://good.test/,3,40,7.5%,2\n",
      });
    assertEquals((await post("wrong")).status, 403);
    assertEquals((await post(csrf, "text/plain")).status, 415);
    const ok = await post(csrf);
    assertEquals(ok.status, 201, await ok.clone().text());
    assertEquals((await ok.json()).import.rows, 1);
    // The report's section shows it per page beside the answers.
    const shown = (await user.page(`/report/${DOMAIN}`)).html;
    assert(
      shown.includes("the assistants&#39; citations beside what Bing and Google saw") ||
        shown.includes("the assistants' citations beside what Bing and Google saw"),
    );
    assert(/<td data-label="Google clicks">3<\/td>/.test(shown));
  } finally {
    await w.close();
  }
});
