/**
 * SCAN_RESOLVE holds for the scanned site's host only, in the render: a self-hoster maps hosts to
 * scan them (an intranet site, a staging host), and a scanned page's scripts must not reach the
 * other mapped hosts through the renderer. The fixture (tests/fixtures/mapped_hosts_site.ts) maps
 * `intranet.test` and `www.mapped.test` to a canary that counts requests, and the scanned page aims
 * every kind of request the gate serves at them, directly and through its own site's redirect.
 *
 * The rule's parts: the fetcher refuses a mapped host a request may not reach at every hop, before
 * any connection (and reaches it when not told otherwise: the control); the hosts a render may
 * reach are the scan's own (its URL and its redirects); the gate counts each refusal. Then both
 * services' rendered scans through the real server started as the start task starts it: canary 0,
 * the site's own requests served (its data is in the rendered page, its JSON-LD found).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { createGuardedFetcher } from "../lib/kit/net/guarded_fetch.ts";
import { FetchError } from "../lib/kit/net/types.ts";
import { MAPPED_HOST, scanHostsOf } from "../lib/engines/render/request_gate.ts";
import { renderPages } from "../lib/engines/render/session.ts";
import { limitSite } from "../lib/engines/render/site_policy.ts";
import { PAGE_LIMITS } from "../lib/engines/render/site_view.ts";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { SchemaScanRecordSchema } from "../lib/engines/structured/record.ts";
import { hasChromium } from "./e2e/browser.ts";
import { CANARY_TEXT, OWN_TEXT, startMappedHosts } from "./fixtures/mapped_hosts_site.ts";
import { startLikeStartTask } from "./helpers/start_task_server.ts";

const STEP = { sanitizeOps: false, sanitizeResources: false } as const;
const ignore = !hasChromium();
if (ignore) console.warn("render SCAN_RESOLVE tests skipped: /usr/bin/chromium is not installed");

/** Requests the home page's markup and script aim at other mapped hosts. */
const AIMED = [
  "intranet.test/lib.js",
  "intranet.test/style.css",
  "intranet.test/frame",
  "intranet.test/admin",
  "intranet.test/bounced",
  "www.mapped.test/subdomain",
  "intranet.test/case",
  "intranet.test/xhr",
];

Deno.test("[security/render] the fetcher reaches a mapped host only when the request may", async () => {
  const hosts = startMappedHosts();
  const config = loadConfig({ SCAN_RESOLVE: hosts.scanResolve });
  const fetcher = createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
  });
  const asked: string[] = [];
  const onlySite = (host: string) => {
    asked.push(host);
    return host === "mapped.test";
  };
  try {
    // The first URL, its name in any case and with a trailing dot.
    for (const url of ["http://intranet.test/direct", "http://INTRANET.test./case"]) {
      await assert.rejects(
        fetcher.fetch(url, { mayReachMapped: onlySite }),
        (e) => e instanceof FetchError && e.kind === "blocked" && /SCAN_RESOLVE/.test(e.message),
      );
    }
    // A redirect of the allowed host to another mapped host: refused at the hop.
    await assert.rejects(
      fetcher.fetch("http://mapped.test/bounce", { mayReachMapped: onlySite }),
      (e) =>
        e instanceof FetchError && e.kind === "blocked" && e.url === "http://intranet.test/bounced",
    );
    assert.deepEqual(asked, ["intranet.test", "intranet.test", "mapped.test", "intranet.test"]);
    assert.deepEqual(hosts.canaryRequests(), []);
    // The allowed host is served.
    const own = await fetcher.fetch("http://mapped.test/api/own.json", {
      mayReachMapped: onlySite,
    });
    assert.equal(own.status, 200);
    // A host no one mapped is the address guard's (the question is not asked of it).
    asked.length = 0;
    await assert.rejects(
      fetcher.fetch("http://localhost/", { mayReachMapped: onlySite }),
      (e) => e instanceof FetchError && e.kind === "blocked",
    );
    assert.deepEqual(asked, []);
    // The control: without the question (a scan's own request) the mapped host is reached, so
    // the canary counts what gets through.
    const reached = await fetcher.fetch("http://mapped.test/bounce");
    assert.equal(reached.finalUrl, "http://intranet.test/bounced");
    assert.deepEqual(hosts.canaryRequests(), ["intranet.test/bounced"]);
  } finally {
    await fetcher.close();
    await hosts.close();
  }
});

Deno.test("[security/render] the hosts a render may reach: the scan's URL and its redirects", () => {
  assert.deepEqual(
    scanHostsOf({
      url: "http://Old.Example.test./",
      redirects: [
        { url: "http://Old.Example.test./", status: 301, location: "https://example.test/" },
        { url: "https://example.test/", status: 302, location: "https://www.example.test/home" },
      ],
      finalUrl: "https://www.example.test/home",
    }),
    ["old.example.test", "example.test", "www.example.test"],
  );
  // No redirect: the exact host alone (not its www. sibling, not its subdomains).
  assert.deepEqual(
    scanHostsOf({ url: "http://shop.test/a", redirects: [], finalUrl: "http://shop.test/a" }),
    ["shop.test"],
  );
});

Deno.test({
  name: "[security/render] a page's scripts reach no other mapped host; the site's own are served",
  ignore,
  ...STEP,
  fn: async () => {
    const hosts = startMappedHosts();
    const config = loadConfig({
      SCAN_RESOLVE: hosts.scanResolve,
      REQUEST_TIMEOUT_MS: "2000",
      RENDER_PAGE_MS: "6000",
    });
    const fetcher = createGuardedFetcher({
      userAgent: config.userAgent,
      resolve: config.scanResolve,
    });
    try {
      // The scan's own fetch of the page decides the hosts, as both services' scans do.
      const scanned = await fetcher.fetch("http://mapped.test/");
      const isSite = (host: string) => host.replace(/^www\./, "") === "mapped.test";
      const session = await renderPages(
        ["http://mapped.test/", "http://mapped.test/hop"],
        {
          settings: config.render,
          gate: {
            fetcher: limitSite(fetcher, isSite, 0),
            scanHosts: scanHostsOf(scanned),
            isSite,
            robotsAllows: () => true,
            maxRequests: PAGE_LIMITS.requests,
            maxPageBytes: PAGE_LIMITS.bytes,
            maxBodyBytes: config.maxBodyBytes,
            requestTimeoutMs: config.requestTimeoutMs,
          },
          userAgent: config.userAgent,
        },
        (page) => page,
      );
      const [home, hop] = session.pages.map((p) => p!);
      assert.equal(home.state, "rendered", home.reason ?? "");
      // The site's own data was served and written into the page; nothing of the canary's was.
      assert.ok(home.html?.includes(OWN_TEXT), home.html?.slice(0, 500) ?? "");
      assert.ok(!home.html?.includes(CANARY_TEXT), home.html?.slice(0, 500) ?? "");
      assert.ok(hosts.siteRequests().includes("/api/own.json"));
      // Every aimed request was refused by the gate, counted as such.
      assert.equal(
        home.requests.refusedKinds[MAPPED_HOST],
        AIMED.length,
        JSON.stringify(home.requests),
      );
      // A page of the site that redirects to the canary is not rendered, and says why.
      assert.equal(hop.state, "failed");
      assert.match(hop.reason ?? "", /intranet\.test is mapped by SCAN_RESOLVE/);
      assert.deepEqual(hosts.canaryRequests(), []);
    } finally {
      await fetcher.close();
      await hosts.close();
    }
  },
});

/** Polls a service's report until the rendered scan's record is there. */
async function rendered(base: string, domain: string, token: string): Promise<unknown> {
  const res = await fetch(`${base}/api/scan`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ url: `http://${domain}/`, render: true }),
  });
  assert.equal(res.status, 202, await res.text());
  for (let i = 0; i < 150; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const r = await fetch(`${base}/api/report/${domain}.json`);
    if (r.status === 200) return await r.json();
    await r.body?.cancel();
  }
  throw new Error(`no record of ${domain}`);
}

for (const service of ["visibility", "schema"] as const) {
  Deno.test({
    name: `[security/render] ${service}: a rendered scan through the start task's server, canary 0`,
    ignore,
    ...STEP,
    fn: async () => {
      const hosts = startMappedHosts();
      const kv = await Deno.makeTempDir();
      const token = "render-mapped-token";
      const server = await startLikeStartTask({
        SERVICE: service,
        SCAN_RESOLVE: hosts.scanResolve,
        PIPELINE_TOKEN: token,
        KV_PATH: `${kv}/kv.sqlite3`,
        LOG_REQUESTS: "0",
        REQUEST_TIMEOUT_MS: "2000",
        SCAN_TIMEOUT_MS: "20000",
        RENDER_PAGE_MS: "5000",
        RENDER_BUDGET_MS: "20000",
      });
      try {
        const json = await rendered(server.base, "mapped.test", token);
        if (service === "visibility") {
          const record = ScanRecordSchema.parse(json);
          assert.equal(record.status, "ok");
          const home = record.render?.pages[0];
          assert.equal(home?.state, "rendered", JSON.stringify(record.render));
          assert.equal(home.requests.refusedKinds[MAPPED_HOST], AIMED.length);
        } else {
          const record = SchemaScanRecordSchema.parse(json);
          assert.equal(record.status, "ok");
          const view = record.result?.rendered;
          assert.equal(view?.status, "rendered", JSON.stringify(view));
          // The Product the site's own data carries is found: the site's requests were served.
          assert.deepEqual(view.added.jsonLd.map((i) => i.properties.name), [
            "Mapped House Blend",
          ]);
        }
        assert.ok(hosts.siteRequests().includes("/api/own.json"), hosts.siteRequests().join());
        const health = await fetch(`${server.base}/healthz`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        assert.deepEqual(hosts.canaryRequests(), []);
      } finally {
        await server.kill();
        await hosts.close();
        await Deno.remove(kv, { recursive: true }).catch(() => {});
      }
    },
  });
}
