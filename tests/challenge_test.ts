/**
 * The self-hosted ALTCHA challenge: what a browser's widget sends is verified once, and the API's
 * 403 rule holds for it exactly as for Turnstile.
 */
import assert from "node:assert/strict";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { Altcha, sharedSecret } from "../lib/kit/auth/altcha.ts";
import { startAppEnv } from "./helpers/app_env.ts";

/** Solves a challenge the way the widget does and encodes the payload it submits. */
async function solve(challenge: unknown): Promise<string> {
  // deno-lint-ignore no-explicit-any
  const solution = await solveChallenge({ challenge: challenge as any, deriveKey });
  assert.ok(solution);
  return btoa(JSON.stringify({ challenge, solution }));
}

Deno.test("[altcha] a solved challenge verifies once; replays, tampering and expiry fail", async () => {
  const kv = await Deno.openKv(":memory:");
  // A clock far from the real one: only the injected clock may decide expiry.
  let now = Date.parse("2020-01-01T00:00:00Z");
  try {
    const altcha = new Altcha(kv, "secret-1", () => now, 100);
    const token = await solve(await altcha.challenge());
    assert.equal(await altcha.verify(token), true);
    assert.equal(await altcha.verify(token), false, "a payload is spent after one use");

    const other = await solve(await altcha.challenge());
    assert.equal(
      await new Altcha(kv, "another-secret", () => now, 100).verify(other),
      false,
      "signed with our secret",
    );
    const decoded = JSON.parse(atob(other));
    decoded.solution.counter += 1;
    assert.equal(
      await altcha.verify(btoa(JSON.stringify(decoded))),
      false,
      "a wrong solution fails",
    );
    assert.equal(await altcha.verify("not base64 !!"), false);
    assert.equal(await altcha.verify(btoa("{}")), false);

    const late = await solve(await altcha.challenge());
    now += 11 * 60_000;
    assert.equal(await altcha.verify(late), false, "challenges expire after 10 minutes");
  } finally {
    kv.close();
  }
});

Deno.test("[altcha] the signing secret is created once per store and shared", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const [a, b] = await Promise.all([sharedSecret(kv, "altcha"), sharedSecret(kv, "altcha")]);
    assert.equal(a, b);
    assert.equal(a.length, 64);
    assert.equal(await sharedSecret(kv, "altcha", "explicit"), "explicit");
  } finally {
    kv.close();
  }
});

Deno.test("POST /api/scan - with ALTCHA, a solved payload in turnstileToken passes once, then 403", async () => {
  const env = await startAppEnv({ challenge: "altcha" });
  try {
    const res = await env.app.request("/api/challenge");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const token = await solve(await res.json());
    assert.equal((await env.scan({ url: "altcha.example", turnstileToken: token })).status, 202);
    const replay = await env.scan({ url: "altcha2.example", turnstileToken: token });
    assert.equal(replay.status, 403);
    assert.deepEqual(await replay.json(), { error: "Verification failed. Please retry." });
    const none = await env.scan({ url: "altcha3.example" });
    assert.equal(none.status, 403);
    await none.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("GET /api/challenge - 404 when Turnstile is the challenge", async () => {
  const env = await startAppEnv();
  try {
    const res = await env.app.request("/api/challenge");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("GET / - the form page: HTML, a strict CSP, the widget, and bundles that exist", async (t) => {
  for (const kind of ["altcha", "turnstile"] as const) {
    await t.step(kind, async () => {
      const env = await startAppEnv({ challenge: kind });
      try {
        const res = await env.app.request("/");
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type")!, /text\/html/);
        const csp = res.headers.get("content-security-policy")!;
        assert.match(csp, /script-src 'self'/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.match(csp, /frame-ancestors 'none'/);
        const html = await res.text();
        assert.match(html, /^<!doctype html><html lang="en">/);
        if (kind === "altcha") {
          assert.match(html, /<altcha-widget challenge="\/api\/challenge" name="turnstileToken"/);
          // Scripts, stylesheets, and the lazy widget's script and stylesheet (data-altcha-*).
          for (const src of html.matchAll(/(?:src|href|css)="(\/static\/build\/[^"]+)"/g)) {
            const asset = await env.app.request(src[1]);
            assert.equal(asset.status, 200, src[1]);
            assert.match(asset.headers.get("cache-control")!, /immutable/);
            await asset.body?.cancel();
          }
        } else {
          assert.match(
            html,
            /class="cf-turnstile" data-sitekey="test-site-key" data-response-field-name="turnstileToken"/,
          );
          // The page's one inline script (the theme) is allowed by its hash, then Cloudflare's.
          assert.match(
            csp,
            /script-src 'self' 'sha256-[A-Za-z0-9+/]+=' https:\/\/challenges\.cloudflare\.com/,
          );
        }
        const css = await env.app.request("/static/app.css");
        assert.equal(css.status, 200);
        assert.match(css.headers.get("content-type")!, /text\/css/);
        await css.body?.cancel();
        for (
          const bad of [
            "/static/../deno.json",
            "/static/.env",
            "/static/%2e%2e/main.ts",
            "/static/nope.css",
          ]
        ) {
          const r = await env.app.request(bad);
          assert.equal(r.status, 404, bad);
          await r.body?.cancel();
        }
      } finally {
        await env.close();
      }
    });
  }
});
