/**
 * A site with stored server logs, where the report is read: the report page's AI products section
 * shows, beside each crawler's verdict (declared, enforced by the edge), what its logs observed, to
 * the account whose logs they are, and to nobody else; and the logs report joins the account's answer presence (pages an
 * assistant cited against pages its crawlers fetched).
 */
import assert from "node:assert/strict";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { storeRecord, visibilityRecord } from "../../helpers/records.ts";
import { CRAWLERS } from "../../../lib/engines/visibility/crawlers.ts";
import type { CrawlerRow } from "../../../lib/engines/visibility/record.ts";
import { logReport } from "../../../lib/features/logs/report.ts";
import { readAccessLog } from "../../../lib/features/logs/read_log.ts";
import { loadRanges } from "../../../lib/features/logs/ip_ranges.ts";
import { citedPagesOf } from "../../../lib/features/answers/cited_pages.ts";
import type { AnswerRun, Sample } from "../../../lib/features/answers/run_types.ts";
import { rangeDir, RENDER, ROBOTS, SCENARIO, streamOf } from "./log_fixtures.ts";

async function signedIn(env: TestEnv, ip: string) {
  const client = new WebClient(env, ip);
  const res = await client.signUp(
    `r${crypto.randomUUID().slice(0, 8)}@example.com`,
    "correct horse battery staple",
  );
  assert.equal(res.status, 303);
  const { html } = await client.page("/account");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  const created = await client.request("/account/keys", { form: { csrf, name: "k" }, json: true });
  return { client, key: (await created.json()).key as string };
}

/** A stored record of shop.test whose edge signal carries the matrix's rows. */
function recordWithMatrix() {
  const record = visibilityRecord("shop.test", {
    score: 70,
    grade: "C",
    pillarScores: [70, 70, 70],
    issues: [],
  });
  const rows: CrawlerRow[] = ["OAI-SearchBot", "Googlebot", "PerplexityBot"].map((token) => {
    const c = CRAWLERS.find((x) => x.token === token)!;
    return {
      token,
      vendor: c.vendor,
      purpose: c.purpose,
      robots: "allowed",
      preference: null,
      edge: "HTTP 200",
      edgeRefused: false,
      docs: c.url,
      ipRanges: c.ipRanges ?? null,
      checked: c.checked,
    };
  });
  record.result!.pillars[0].signals.push({
    id: "access.edge",
    title: "The edge lets AI crawlers through",
    status: "pass",
    points: 4,
    maxPoints: 4,
    detail: "Every crawler probe got the page.",
    evidence: [],
    gate: null,
    crawlers: rows,
  });
  return record;
}

/** The products section's line of `token` on a report page, and what it says was observed. */
function line(html: string, token: string): { text: string; observed: string | null } {
  const m = html.match(new RegExp(`<li data-token="${token}">(.*?)</li>`));
  assert.ok(m, `no line for ${token}`);
  return {
    text: m[1],
    observed: m[1].match(/<span class="observed">(.*?)<\/span>/)?.[1] ?? null,
  };
}

Deno.test("[logs/report page] the products section of a site with logs shows what each crawler was observed doing, to its account only", async () => {
  const env = await startAppEnv({
    env: {
      LOG_IP_RANGES_DIR: await rangeDir(),
      LOG_REVERSE_DNS: "off",
      LOG_IP_RANGES_FETCH: "off",
    },
  });
  try {
    const owner = await signedIn(env, "198.51.100.201");
    const text = RENDER.combined(SCENARIO);
    const up = await env.app.request(
      new Request("http://localhost/api/logs/shop.test", {
        method: "POST",
        body: text,
        headers: {
          authorization: `Bearer ${owner.key}`,
          "content-length": String(new TextEncoder().encode(text).length),
        },
      }),
    );
    assert.equal(up.status, 200, await up.clone().text());
    await storeRecord(env, recordWithMatrix());

    const { res, html } = await owner.client.page("/report/shop.test");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("cache-control") ?? "", /private/);
    assert.match(html, /Observed in your logs: what your server(?:'|&#39;)s access logs show/);
    assert.match(html, /from 2026-11-30 to 2026-12-01/);
    // Each crawler's line: its verdict (robots.txt, declared, edge), then what was observed.
    assert.match(line(html, "OAI-SearchBot").text, /may read/);
    assert.equal(line(html, "OAI-SearchBot").observed, "1 verified (3xx 1)");
    // Reverse DNS is off here: Googlebot's two hits could not be decided.
    assert.equal(line(html, "Googlebot").observed, "2 unverifiable");
    assert.equal(line(html, "PerplexityBot").observed, "not seen");
    assert.match(html, /href="\/account\/logs\/shop.test"/);

    // Another account, and a reader signed in to none, see the matrix without the column.
    const other = await signedIn(env, "198.51.100.202");
    for (const client of [other.client, new WebClient(env, "198.51.100.203")]) {
      const page = await client.page("/report/shop.test");
      assert.equal(page.res.status, 200);
      assert.match(page.html, /id="products"/);
      assert.doesNotMatch(page.html, /observed in your logs/i);
      assert.match(line(page.html, "OAI-SearchBot").text, /may read/);
      assert.equal(line(page.html, "OAI-SearchBot").observed, null);
    }
  } finally {
    await env.close();
  }
});

Deno.test("[logs/report page] answer presence joined: pages an assistant cited against pages its crawlers fetched", async () => {
  const ranges = await loadRanges({ directory: await rangeDir(), snapshot: false });
  const { aggregates } = await readAccessLog(streamOf(RENDER.combined(SCENARIO)), {
    ranges,
    dns: null,
    keys: null,
  });
  const report = logReport(aggregates, {
    cited: [
      {
        assistant: "ChatGPT search (OpenAI)",
        crawlers: ["OAI-SearchBot", "ChatGPT-User"],
        paths: [
          "/blog/a",
          "/pricing",
        ],
      },
    ],
  });
  // OAI-SearchBot's one verified hit fetched /blog/a; /pricing was cited but never fetched.
  assert.deepEqual(report.answers, [{
    assistant: "ChatGPT search (OpenAI)",
    crawlers: ["OAI-SearchBot", "ChatGPT-User"],
    cited: 2,
    citedAndFetched: 1,
    citedNotFetched: ["/pricing"],
    fetched: 1,
  }]);
});

Deno.test("[logs/report page] the cited pages come from the account's latest finished answer run", async () => {
  const env = await startAppEnv();
  try {
    const answers = env.deps.answers!;
    const owner = { kind: "account" as const, accountId: "acc-1" };
    const run = {
      id: crypto.randomUUID(),
      owner,
      domain: "shop.test",
      status: "done",
      createdAt: 1,
      finishedAt: 2,
      providers: [{ id: "openai", label: "ChatGPT search (OpenAI)" }],
    } as unknown as AnswerRun;
    await answers.answers.saveRun(run, 60_000);
    const source = (url: string, kind: "cited" | "retrieved") => ({
      url,
      title: null,
      host: new URL(url).hostname,
      kind,
    });
    await answers.answers.putSample(run.id, {
      provider: "openai",
      question: 0,
      index: 0,
      at: 1,
      ok: true,
      text: "",
      cut: false,
      sources: [
        source("https://www.shop.test/blog/a?utm=x", "cited"),
        source("https://shop.test/pricing", "cited"),
        source("https://shop.test/only-retrieved", "retrieved"),
        source("https://rival.test/x", "cited"),
      ],
    } as unknown as Sample, 60_000);
    assert.deepEqual(await citedPagesOf(answers, "acc-1", "shop.test"), [{
      assistant: "ChatGPT search (OpenAI)",
      crawlers: ["OAI-SearchBot", "ChatGPT-User"],
      paths: ["/blog/a", "/pricing"],
    }]);
    assert.deepEqual(await citedPagesOf(answers, "acc-2", "shop.test"), []);
  } finally {
    await env.close();
  }
});

Deno.test("[logs/report page] the site's robots.txt joins the report (parsed in the worker): verified fetches it disallows, with the rule", async () => {
  const site = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) =>
      new URL(req.url).pathname === "/robots.txt"
        ? new Response(ROBOTS, { headers: { "content-type": "text/plain" } })
        : new Response("not here", { status: 404 }),
  );
  const env = await startAppEnv({
    extraResolve: [`shop.test=127.0.0.1:${site.addr.port}`],
    env: {
      LOG_IP_RANGES_DIR: await rangeDir(),
      LOG_REVERSE_DNS: "off",
      LOG_IP_RANGES_FETCH: "off",
    },
  });
  try {
    const owner = await signedIn(env, "198.51.100.204");
    const text = RENDER.combined(SCENARIO);
    const up = await env.app.request(
      new Request("http://localhost/api/logs/shop.test", {
        method: "POST",
        body: text,
        headers: {
          authorization: `Bearer ${owner.key}`,
          "content-length": String(new TextEncoder().encode(text).length),
        },
      }),
    );
    assert.equal(up.status, 200);
    const { report } = await up.json();
    assert.deepEqual(report.disallowed, [{
      token: "GPTBot",
      path: "/private/x",
      hits: 1,
      status: { "2xx": 1 },
      rule: { line: 2, pattern: "Disallow: /private/" },
    }]);
  } finally {
    await env.close();
    await site.shutdown();
  }
});
