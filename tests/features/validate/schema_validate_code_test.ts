/**
 * Validate code (issue 16): POST /api/validate and the MCP tool validate_code analyse pasted HTML
 * or JSON-LD offline, with the same result a scan of such a page gives; input is capped, bad input
 * is a 400 JSON error, and the per-IP pool is its own.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { VALIDATE_LIMIT } from "../../../lib/kit/limits/limits.ts";
import { analysePage } from "../../../lib/engines/schema/scan.ts";
import { MAX_CODE_BYTES, validateCode } from "../../../lib/features/validate/validate_code.ts";
import { startAppEnv } from "../../helpers/app_env.ts";
import { createApp } from "../../../lib/app/app.ts";
import {
  runJob as runValidateJob,
  type ValidateJob,
} from "../../../lib/features/validate/validate_job.ts";
import {
  runJob as runHtmlJob,
  validateResultHtml,
} from "../../../lib/features/schema/views/code_result_job.tsx";
import { DOMParser } from "linkedom";
import { ScanIsolationError, TOO_COMPLEX } from "../../../lib/kit/isolate/scan_threads.ts";

const PRODUCT = {
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Kettle",
  image: "/kettle.jpg",
  offers: { "@type": "Offer", price: "20", priceCurrency: "EUR" },
};

function post(
  app: { request: (r: Request) => Response | Promise<Response> },
  body: unknown,
  ip = "198.51.100.7",
  type = "application/json",
) {
  return app.request(
    new Request("http://generator.test/api/validate", {
      method: "POST",
      headers: { "content-type": type, "x-forwarded-for": ip },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

Deno.test("[validate code] pasted JSON-LD gives the result a page with it gives, no fetch", () => {
  const html = `<!doctype html><html><head><script type="application/ld+json">${
    JSON.stringify(PRODUCT)
  }</script></head><body></body></html>`;
  const url = "https://kettles.test/p/1";
  const viaCode = validateCode({ jsonld: PRODUCT, url });
  const viaPage = analysePage(html, {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    contentType: "text/html; charset=utf-8",
    redirects: 0,
    bytes: new TextEncoder().encode(html).length,
    truncated: false,
    fetchMs: 0,
  }, "kettles.test");
  assert.deepEqual(viaCode, viaPage);
  assert.equal(viaCode.page.finalUrl, url);
  assert.ok(viaCode.eligibility!.some((e) => e.feature === "Merchant listing"));
  // A string that tries to close the script element stays inside it.
  const sneaky = validateCode({
    jsonld: JSON.stringify({ ...PRODUCT, name: "</script><b>x</b>" }),
  });
  assert.equal(sneaky.detected.jsonLd[0].properties.name, "</script><b>x</b>");
  assert.throws(() => validateCode({}), /exactly one/);
  assert.throws(() => validateCode({ html: "<p>x</p>", jsonld: "{}" }), /exactly one/);
  assert.throws(() => validateCode({ html: "<p>x</p>", url: "ftp://x.test/" }), /http/);
});

Deno.test("[validate code] POST /api/validate: 200, 400, 413, 415, its own pool, schema service only", async (t) => {
  const env = await startAppEnv({ env: { SERVICE: "schema" } });
  try {
    await t.step("JSON-LD and HTML answer the analysis with eligibility", async () => {
      const res = await post(env.app, { jsonld: PRODUCT, url: "https://kettles.test/p/1" });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("ratelimit-limit"), String(VALIDATE_LIMIT));
      const body = await res.json();
      assert.equal(body.status, "ok");
      assert.equal(body.result.page.fetchMs, 0);
      const features = body.result.eligibility.map((e: { feature: string }) => e.feature);
      assert.ok(features.includes("Product snippets") && features.includes("Merchant listing"));
      assert.match(body.result.generated.script, /^<script type="application\/ld\+json">/);
      const html = await post(env.app, { html: "<html><body><p>No markup</p></body></html>" });
      assert.equal(html.status, 200);
      assert.deepEqual((await html.json()).result.eligibility, []);
    });
    await t.step("bad input is a 400 JSON error, too much a 413, not JSON a 415", async () => {
      for (
        const body of [
          {},
          { html: "<p>a</p>", jsonld: "{}" },
          { html: 5 },
          { html: "<p>a</p>", extra: 1 },
          { html: "  " },
          { jsonld: "{}", url: "not a url" },
        ]
      ) {
        const res = await post(env.app, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof (await res.json()).error, "string");
      }
      const big = await post(env.app, { html: "x".repeat(MAX_CODE_BYTES + 1) });
      assert.equal(big.status, 413);
      assert.equal(typeof (await big.json()).error, "string");
      const huge = await post(env.app, { html: "x".repeat(MAX_CODE_BYTES * 2 + 10) });
      assert.equal(huge.status, 413);
      await huge.body?.cancel();
      const text = await post(env.app, "html=<p>", "198.51.100.7", "text/plain");
      assert.equal(text.status, 415);
      await text.body?.cancel();
      const get = await env.app.request("http://generator.test/api/validate");
      assert.equal(get.status, 405);
      await get.body?.cancel();
    });
    await t.step("the validate pool is per IP and leaves the scan pools alone", async () => {
      const ip = "198.51.100.99";
      for (let i = 0; i < VALIDATE_LIMIT; i++) {
        const res = await post(env.app, { jsonld: PRODUCT }, ip);
        assert.equal(res.status, 200, `request ${i + 1}`);
        await res.body?.cancel();
      }
      const limited = await post(env.app, { jsonld: PRODUCT }, ip);
      assert.equal(limited.status, 429);
      const body = await limited.json();
      assert.match(body.error, /code validations per hour/);
      assert.ok(Number(limited.headers.get("retry-after")) > 0);
      const other = await post(env.app, { jsonld: PRODUCT }, "198.51.100.100");
      assert.equal(other.status, 200);
      await other.body?.cancel();
      const scanPool = await env.store.limiter.usage(
        { pool: "ip", id: ip, limit: 8, windowMs: 3600_000 },
        env.clock.now,
      );
      assert.equal(scanPool.used, 0);
      // An hour later the pool has room again (the injected clock, not the real one).
      env.clock.now += 3600_000 + 1;
      const later = await post(env.app, { jsonld: PRODUCT }, ip);
      assert.equal(later.status, 200);
      await later.body?.cancel();
    });
    await t.step("the page form: same sections, code escaped, no green for no markup", async () => {
      const home = await (await env.app.request("http://generator.test/")).text();
      assert.match(home, /action="\/validate#result"/);
      const form = (code: string) =>
        env.app.request(
          new Request("http://generator.test/validate", {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              "sec-fetch-site": "same-origin",
              "x-forwarded-for": "198.51.100.8",
            },
            body: new URLSearchParams({ code, url: "https://kettles.test/p/1" }).toString(),
          }),
        );
      const ok = await form(JSON.stringify({ ...PRODUCT, name: "<img src=x onerror=alert(1)>" }));
      assert.equal(ok.status, 200);
      const html = await ok.text();
      assert.match(html, /Rich results/);
      assert.match(html, /Merchant listing/);
      assert.ok(!html.includes("<img src=x"), "pasted code is escaped");
      const none = await (await form("<html><body><p>Plain</p></body></html>")).text();
      assert.match(none, /No markup to validate/);
      assert.ok(!/status-pass[^>]*>\s*<strong>0<\/strong> error/.test(none));
      const cross = await env.app.request(
        new Request("http://generator.test/validate", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "cross-site",
          },
          body: "code=%7B%7D",
        }),
      );
      assert.equal(cross.status, 403);
      await cross.body?.cancel();
    });
    await t.step("MCP validate_code answers the same analysis", async () => {
      const client = new Client({ name: "test-agent", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
          fetch: (url: string | URL, init?: RequestInit) => {
            const request = new Request(url, init);
            request.headers.set("x-forwarded-for", "198.51.100.50");
            return Promise.resolve(env.app.request(request));
          },
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((tool: { name: string }) => tool.name);
        assert.ok(names.includes("validate_code"));
        const result = await client.callTool({
          name: "validate_code",
          arguments: { jsonld: JSON.stringify(PRODUCT), url: "https://kettles.test/p/1" },
        }) as CallToolResult;
        assert.notEqual(result.isError, true);
        const out = result.structuredContent as { eligibility: { feature: string }[] };
        assert.ok(out.eligibility.some((e) => e.feature === "Merchant listing"));
        const text = result.content.map((c: { type: string; text?: string }) =>
          c.type === "text" ? c.text : ""
        ).join("\n");
        assert.match(text, /Rich results/);
        const bad = await client.callTool({
          name: "validate_code",
          arguments: {},
        }) as CallToolResult;
        assert.equal(bad.isError, true);
      } finally {
        await client.close();
      }
    });
  } finally {
    await env.close();
  }
  const visibility = await startAppEnv();
  try {
    const res = await post(visibility.app, { jsonld: PRODUCT });
    assert.equal(res.status, 404, "the visibility service has no validate code");
    await res.body?.cancel();
  } finally {
    await visibility.close();
  }
});

Deno.test("[validate code] the /validate page: validated and its result rendered as HTML in scan threads, never on the server's thread", async () => {
  const env = await startAppEnv({ env: { SERVICE: "schema" } });
  // Scan threads as the server has them, run in process here, saying which jobs they were given.
  const kinds: string[] = [];
  let failHtml = false;
  const threads = {
    runJob: (job: { kind: string }) => {
      kinds.push(job.kind);
      if (job.kind === "validate-code") return Promise.resolve(runValidateJob(job as ValidateJob));
      if (failHtml) {
        return Promise.reject(
          new ScanIsolationError(`${TOO_COMPLEX} (it needed more than 64 MB of memory)`, "memory"),
        );
      }
      return Promise.resolve(runHtmlJob(job as Parameters<typeof runHtmlJob>[0]));
    },
  };
  const app = createApp({ ...env.deps, threads });
  const form = (code: string) =>
    app.request(
      new Request("http://generator.test/validate", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
          "x-forwarded-for": "198.51.100.9",
        },
        body: new URLSearchParams({ code, url: "https://kettles.test/p/1" }).toString(),
      }),
    );
  try {
    const code = JSON.stringify({ ...PRODUCT, name: "<img src=x onerror=alert(1)>" });
    const ok = await form(code);
    assert.equal(ok.status, 200);
    assert.deepEqual(kinds, ["validate-code", "validate-html"]);
    const html = await ok.text();
    assert.match(html, /<div class="validate-result" id="result" tabindex="-1"><section/);
    assert.match(html, /Merchant listing/);
    assert.ok(!html.includes("<img src=x"), "what the code says is escaped in the thread's HTML");
    // A result too large to render in its thread: a 422 that says so, the code kept in the form.
    failHtml = true;
    const failed = await form(code);
    assert.equal(failed.status, 422);
    const page = await failed.text();
    assert.match(
      page,
      /The result could not be shown: it is too large or too complex to show \(it needed more than 64 MB of memory\)\./,
    );
    assert.match(page, /&lt;img src=x onerror=alert\(1\)/, "the pasted code is shown again");
  } finally {
    await env.close();
  }
});

Deno.test("[validate code] the result reads errors first, one excerpt per object, one position per error", () => {
  const code = `{
  "@context": "https://schema.org",
  "@type": "Product",
  "name": "Kettle",
  "offers": { "@type": "Offer", "price": "9.OO" }
}`;
  const html = validateResultHtml(JSON.stringify({ result: validateCode({ jsonld: code }) }));
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
  const group = doc.querySelector(".finding-group")!;
  // Errors before warnings in each object's list; the objects with an error before the others.
  const objects = [...group.querySelectorAll(".finding-object")].map((o) =>
    [...o.querySelectorAll(".finding .badge")].map((b) => b.textContent)
  );
  for (const badges of objects) {
    const firstWarning = badges.indexOf("Warning");
    assert.ok(firstWarning === -1 || badges.lastIndexOf("Error") < firstWarning, badges.join());
  }
  assert.ok(
    objects.every((b, i) =>
      b.includes("Error") || !objects.slice(i).some((o) => o.includes("Error"))
    ),
  );
  assert.ok(objects.flat().includes("Error"));
  const badges = objects.flat();
  // One excerpt per object of the code: the Product and its offer's price, each shown once.
  const captions = [...group.querySelectorAll("figcaption")].map((c) => c.textContent);
  assert.equal(new Set(captions).size, captions.length, captions.join(" | "));
  assert.ok(captions.length >= 2 && captions.length < badges.length, captions.join(" | "));
  // A syntax error: its line and column, once.
  const broken = validateResultHtml(JSON.stringify({
    result: validateCode({ jsonld: '{\n  "@type": "Product",\n  "name": "x",\n}' }),
  }));
  const text = new DOMParser().parseFromString(`<div>${broken}</div>`, "text/html")
    .querySelector(".finding-group")!.textContent!;
  assert.equal(text.match(/line \d+/g)?.length, 1, text);
  assert.doesNotMatch(text, /position \d+/);
});
