/**
 * Per-page reports (the schema service scans pages): two pages of one domain scanned in turn keep
 * two reports, each at its own URL (/report/<domain>/page?url=...) with its own history, while
 * the domain's record of the API stays what the specification says (the last page scanned), with
 * the additive per-page reads (/api/report/<domain>/page.json?url=..., history.json?url=...).
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { startAppEnv } from "../../helpers/app_env.ts";
import { SchemaScanRecordSchema } from "../../../lib/engines/structured/record.ts";
import { pageReportJsonPath, pageReportPath } from "../../../lib/kit/report_urls.ts";

const HOME = "https://good.test/";
const ABOUT = "https://good.test/about";

Deno.test("[page reports] two pages of one domain keep two reports, each at its own URL", async () => {
  // The server HTML is enough here (no browser: the rendered view is tested elsewhere).
  const env = await startAppEnv({
    worker: true,
    env: { SERVICE: "schema", RENDER_CHROMIUM: "off" },
  });
  try {
    const { key } = await env.newKey();
    const auth = `Bearer ${key}`;
    // A scan, followed to its end by its status (the queue delivers the job when it does).
    const scan = async (url: string, forceRescan = false) => {
      // A minute between scans (the test's clock stands still otherwise, and a job enqueued at
      // the very time of the stored record is taken for a redelivered one).
      env.clock.now += 60_000;
      const res = await env.scan({ url, forceRescan }, { auth });
      assert.equal(res.status, 202, await res.clone().text());
      const { scanId } = await res.json();
      for (let i = 0; i < 10_000; i++) {
        const status = await env.app.request(`/api/scans/${scanId}`);
        const body = status.ok ? await status.json() : (await status.body?.cancel(), null);
        if (body?.status === "done") return;
        assert.notEqual(body?.status, "failed", JSON.stringify(body));
        await env.worker!.idle();
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.fail(`the scan of ${url} did not finish`);
    };
    const page = async (path: string) => {
      const res = await env.app.request(path);
      return {
        status: res.status,
        doc: new DOMParser().parseFromString(await res.text(), "text/html"),
      };
    };
    await scan(HOME);
    await scan(ABOUT);

    // The API's record of the domain is the last page scanned, as the specification says.
    const latest = await env.report("good.test");
    assert.equal(latest.status, 200);
    assert.equal(SchemaScanRecordSchema.parse(await latest.json()).url, ABOUT);
    // Each page's record, additively.
    for (const url of [HOME, ABOUT]) {
      const res = await env.app.request(pageReportJsonPath("good.test", url));
      assert.equal(res.status, 200);
      assert.equal(SchemaScanRecordSchema.parse(await res.json()).url, url);
    }

    // Each page's report at its own URL: the home page's did not become the about page's.
    for (const [url, other] of [[HOME, ABOUT], [ABOUT, HOME]]) {
      const { status, doc } = await page(pageReportPath("good.test", url));
      assert.equal(status, 200);
      const head = doc.querySelector(".report-head")!.textContent!;
      assert.ok(head.includes(url), `${url}: ${head}`);
      assert.equal(
        doc.querySelector('link[rel="canonical"]')?.getAttribute("href")?.endsWith(
          pageReportPath("good.test", url),
        ),
        true,
      );
      // The other page is one link away, with its own report.
      const links = [...doc.querySelectorAll(".site-pages a")].map((a) => a.getAttribute("href"));
      assert.deepEqual(links, [pageReportPath("good.test", other)]);
    }

    // A second scan of the home page: its history holds its own scans only.
    await scan(HOME, true);
    const history = await env.app.request(
      `/api/report/good.test/history.json?url=${encodeURIComponent(HOME)}`,
    );
    assert.equal(history.status, 200);
    const scans = (await history.json()).scans as { url: string }[];
    assert.equal(scans.length, 2);
    assert.ok(scans.every((s) => s.url === HOME));
    const { doc } = await page(pageReportPath("good.test", HOME));
    const listed = [...doc.querySelectorAll(".history-list li")].map((li) => li.textContent ?? "");
    assert.equal(listed.length, 2, listed.join(" | "));
    assert.ok(listed.every((t) => t.includes(HOME)));

    // The domain's report page is the last page scanned, and links to that page's own report.
    const domainPage = await page("/report/good.test");
    assert.equal(
      domainPage.doc.querySelector(".page-report-link")?.getAttribute("href"),
      pageReportPath("good.test", HOME),
    );

    // A page never scanned, or of another domain: no report.
    assert.equal((await page(pageReportPath("good.test", "https://good.test/nope"))).status, 404);
    assert.equal((await page(pageReportPath("good.test", "https://other.test/"))).status, 404);
    // Bad input is a JSON 400: a page of another domain, no page, not an address.
    for (
      const path of [
        pageReportJsonPath("good.test", "https://other.test/"),
        "/api/report/good.test/page.json",
        pageReportJsonPath("good.test", "http://"),
      ]
    ) {
      const bad = await env.app.request(path);
      assert.equal(bad.status, 400, path);
      assert.match(bad.headers.get("content-type") ?? "", /json/);
      assert.ok((await bad.json()).error, path);
    }
    const never = await env.app.request(pageReportJsonPath("good.test", "https://good.test/nope"));
    assert.equal(never.status, 404);
    assert.ok((await never.json()).error);
    // An address that is not the normal spelling is sent to it.
    const loose = await env.app.request(
      `/report/good.test/page?url=${encodeURIComponent("good.test/about")}`,
    );
    assert.equal(loose.status, 301);
    assert.equal(loose.headers.get("location"), pageReportPath("good.test", ABOUT));
  } finally {
    await env.close();
  }
});

Deno.test("[page reports] the visibility checker, which scans sites, serves no page reports", async () => {
  const env = await startAppEnv();
  try {
    const res = await env.app.request(pageReportPath("good.test", HOME));
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await env.close();
  }
});
