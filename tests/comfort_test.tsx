/**
 * The reader's comforts that hold without a browser (the browser side is in
 * tests/e2e/comfort_browser_test.ts): the wait after a 429 in words, times as <time> elements
 * with their UTC value, the theme's inline script allowed by its hash, "Download JSON" as a
 * download, and the administrator's header.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { hashPassword } from "../lib/kit/auth/password.ts";
import { waitText } from "../lib/kit/ui/format.ts";
import { LocalTime, LocalTimeMs } from "../lib/kit/ui/local_time.tsx";
import { pageCsp } from "../lib/kit/ui/csp.ts";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";
import { assertInlineScriptsHashed } from "./helpers/inline_scripts.ts";
import { WebClient } from "./helpers/web_client.ts";

Deno.test("[comfort] the wait after a 429 reads as a duration, never as a clock time", () => {
  assert.equal(waitText(3370), "in 57 minutes");
  assert.equal(waitText(3600), "in 60 minutes");
  assert.equal(waitText(61), "in 2 minutes", "minutes round up: never promise less");
  assert.equal(waitText(60), "in 1 minute");
  assert.equal(waitText(59), "in 59 seconds");
  assert.equal(waitText(1), "in 1 second");
  assert.equal(waitText(0.2), "in 1 second");
  assert.equal(waitText(-5), "in 0 seconds");
});

Deno.test("[comfort] a time is a <time> in UTC, with the UTC text in its tooltip", () => {
  assert.equal(
    renderToString(<LocalTime iso="2026-11-21T09:05:00.000Z" />),
    '<time datetime="2026-11-21T09:05:00.000Z" title="21 Nov 2026, 09:05 UTC" data-local="">' +
      "21 Nov 2026, 09:05 UTC</time>",
  );
  assert.equal(
    renderToString(<LocalTimeMs ms={Date.UTC(2026, 10, 21, 10, 0)} />),
    '<time datetime="2026-11-21T10:00:00.000Z" title="2026-11-21 10:00 UTC" data-local="">' +
      "2026-11-21 10:00 UTC</time>",
  );
  assert.equal(renderToString(<LocalTimeMs ms={null} />), "never");
  // Not a date: shown as given, never localised.
  assert.equal(renderToString(<LocalTime iso="soon" />), "<time>soon</time>");
});

Deno.test("[comfort] the CSP allows the theme script by its hash and nothing inline else", () => {
  for (const turnstile of [false, true]) {
    const csp = pageCsp({ turnstile });
    assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/]{43}='/);
    assert.doesNotMatch(csp, /unsafe-inline/);
  }
});

Deno.test("[comfort] pages: the theme before the first paint, the toggle, downloads", async (t) => {
  const env = await startAppEnv({ worker: true });
  try {
    assert.equal(
      (await env.scan({ url: "no-llms.test" }, { auth: `Bearer ${PIPELINE}` })).status,
      202,
    );
    for (let i = 0; i < 100 && !(await env.store.getScan("no-llms.test")); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const path of ["/", "/docs", "/report/no-llms.test", "/account/login", "/admin/login"]) {
      await t.step(path, async () => {
        const res = await env.app.request(path);
        assert.equal(res.status, 200);
        const html = await res.text();
        assertInlineScriptsHashed(html, res.headers.get("content-security-policy") ?? "");
        // The inline script comes before the stylesheets, so the theme is set before any paint.
        assert.ok(html.indexOf("<script>") < html.indexOf('rel="stylesheet"'));
        assert.match(html, /<button type="button" class="theme-toggle" aria-pressed="false">/);
        // Every page loads the bundle that wires the toggle, local times and print.
        assert.match(
          html,
          /<script type="module" src="\/static\/build\/[a-zA-Z]+\.[0-9a-f]+\.js">/,
        );
      });
    }
    await t.step("Download JSON downloads", async () => {
      const html = await (await env.app.request("/report/no-llms.test")).text();
      // The JSON link asks for the record as an attachment (Content-Disposition, checked in
      // tests/features/report/export_test.ts), so it downloads in every browser.
      assert.match(
        html,
        /Download <a href="\/api\/report\/no-llms.test.json\?download=1">JSON<\/a>/,
      );
      const res = await env.app.request("/api/report/no-llms.test.json?download=1");
      assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename=/);
      await res.body?.cancel();
    });
  } finally {
    await env.close();
  }
});

Deno.test("[comfort] the administrator's pages have the administrator's header", async () => {
  const password = "the site owner's long passphrase";
  const env = await startAppEnv({ env: { ADMIN_PASSWORD_HASH: await hashPassword(password) } });
  try {
    const w = new WebClient(env, "100.64.0.77");
    const login = await w.page("/admin/login");
    const nav = (html: string) => html.slice(html.indexOf("<nav"), html.indexOf("</nav>"));
    assert.match(nav(login.html), /href="\/admin\/login" aria-current="page">Administration</);
    assert.doesNotMatch(nav(login.html), /Sign in|Your keys/);
    const res = await w.submit("/admin/login", "/admin/login", {
      password,
      turnstileToken: "good-token",
    });
    assert.equal(res.status, 303);
    const admin = await w.page("/admin");
    assert.equal(admin.res.status, 200);
    assert.match(nav(admin.html), /href="\/admin" aria-current="page">Administration</);
    assert.doesNotMatch(nav(admin.html), /Sign in|Your keys/);
    // The client's pages keep the client's header.
    assert.match(nav((await w.page("/")).html), />Sign in</);
  } finally {
    await env.close();
  }
});
