/**
 * The administrator: login configured by ADMIN_PASSWORD_HASH (or ADMIN_PASSWORD), the shared
 * per-IP attempt limit (429 + retryAfterSeconds, exact under concurrency), the overview (recent
 * scans, accounts, keys, rate-limit pressure, all escaped), revoking any key, and a session
 * separate from client sessions.
 */
import assert from "node:assert/strict";
import { AUTH_ATTEMPTS } from "../../../lib/kit/limits/limits.ts";
import { adminSetup } from "../../../lib/features/accounts/admin.ts";
import { hashPassword } from "../../../lib/kit/auth/password.ts";
import type { CredentialKind } from "../../../lib/kit/storage/store.ts";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { formToken, setCookies, WebClient } from "../../helpers/web_client.ts";

const ADMIN_PASSWORD = "the site owner's long passphrase";
const PASSWORD = "correct horse battery staple";
const ADMIN_HASH = await hashPassword(ADMIN_PASSWORD);
let n = 1;
const newClient = (env: TestEnv) => new WebClient(env, `100.64.0.${n++ % 250}`);

function adminEnv(extra: Record<string, string> = {}) {
  return startAppEnv({ env: { ADMIN_PASSWORD_HASH: ADMIN_HASH, ...extra } });
}

async function adminLogin(w: WebClient, password = ADMIN_PASSWORD, token = "good-token") {
  return await w.submit("/admin/login", "/admin/login", { password, turnstileToken: token });
}

async function signedInAdmin(env: TestEnv): Promise<WebClient> {
  const w = newClient(env);
  const res = await adminLogin(w);
  assert.equal(res.status, 303, await res.clone().text());
  return w;
}

async function storeScan(env: TestEnv, domain: string, credential: CredentialKind, score: number) {
  await env.store.finishScan({
    kind: "scan",
    service: "visibility",
    jobId: crypto.randomUUID(),
    target: { domain, url: `https://${domain}/`, host: domain },
    credential,
    enqueuedAt: env.clock.now,
  }, {
    record: {
      domain,
      status: "ok",
      scannedAt: new Date(env.clock.now).toISOString(),
      result: { score, grade: "B", label: "Good", pillars: [], topIssues: [] },
    },
    failure: null,
    credential,
    durationMs: 1,
    jobId: "x",
  });
}

Deno.test("[admin] not configured: the page says how to set it up, and a post is refused", async () => {
  const env = await startAppEnv();
  try {
    assert.equal(adminSetup(env.config), "none");
    const w = newClient(env);
    const { res, html } = await w.page("/admin/login");
    assert.equal(res.status, 200);
    assert.match(html, /ADMIN_PASSWORD_HASH/);
    assert.match(html, /deno task admin:hash/);
    assert.doesNotMatch(html, /name="password"/);
    // The form token of any session-less page (same cookie), so the refusal is not a CSRF one.
    const token = formToken((await w.page("/account/login")).html);
    const post = await w.request("/admin/login", {
      form: { csrf: token, password: "x", turnstileToken: "good-token" },
    });
    assert.equal(post.status, 403);
    assert.match(await post.text(), /not configured/);
  } finally {
    await env.close();
  }
  const invalid = await startAppEnv({ env: { ADMIN_PASSWORD_HASH: "plain-text-by-mistake" } });
  try {
    assert.equal(adminSetup(invalid.config), "invalid");
    assert.match((await newClient(invalid).page("/admin/login")).html, /misconfigured/);
  } finally {
    await invalid.close();
  }
});

Deno.test("[admin] login with ADMIN_PASSWORD_HASH: wrong password 401, right one 303 with its own cookie", async () => {
  const env = await adminEnv();
  try {
    const w = newClient(env);
    const { html } = await w.page("/admin/login");
    assert.match(html, /<meta name="robots" content="noindex, nofollow">/);
    const wrong = await adminLogin(w, "not the admin password");
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /Wrong password\./);
    const noChallenge = await adminLogin(w, ADMIN_PASSWORD, "");
    assert.equal(noChallenge.status, 403);
    await noChallenge.body?.cancel();
    const ok = await adminLogin(w);
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get("location"), "/admin");
    const cookie = setCookies(ok).find((c) => c.name === "admin_sid");
    assert.ok(cookie);
    assert.equal(cookie.attributes.httponly, true);
    assert.equal(cookie.attributes.samesite, "Strict");
    assert.equal(cookie.attributes["max-age"], String(12 * 3600));
    assert.ok(!w.cookies.has("sid"), "no client session");
    const page = await w.page("/admin");
    assert.equal(page.res.status, 200);
    assert.match(page.html, /<h1>Administration<\/h1>/);
    assert.equal(page.res.headers.get("x-frame-options"), "DENY");
    assert.equal(page.res.headers.get("cache-control"), "no-store");
    assert.match(page.res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    assert.match(page.html, /<meta name="robots" content="noindex, nofollow">/);
  } finally {
    await env.close();
  }
});

Deno.test("[admin] ADMIN_PASSWORD (local use) works the same way", async () => {
  const env = await startAppEnv({ env: { ADMIN_PASSWORD: "local admin password" } });
  try {
    assert.equal(adminSetup(env.config), "plain");
    assert.equal((await adminLogin(newClient(env), "wrong password!!")).status, 401);
    assert.equal((await adminLogin(newClient(env), "local admin password")).status, 303);
  } finally {
    await env.close();
  }
});

// With a challenge that cannot be made harder (this fake, like Turnstile); with ALTCHA, failures
// raise the check instead: tests/features/accounts/login_limits_test.ts "the administrator: ...".
Deno.test("[admin] login limits: 10 attempts per IP per 15 minutes (shared with sign-up), then 429", async (t) => {
  const env = await adminEnv();
  try {
    await t.step("30 parallel wrong attempts from one IP: exactly 10 are checked", async () => {
      const clients = Array.from({ length: 30 }, () => new WebClient(env, "100.64.9.9"));
      const pages = await Promise.all(clients.map((w) => w.page("/admin/login")));
      const results = await Promise.all(clients.map((w, i) =>
        w.request("/admin/login", {
          form: {
            csrf: formToken(pages[i].html),
            password: `wrong ${i}`,
            turnstileToken: "good-token",
          },
        })
      ));
      const statuses = results.map((r) => r.status);
      await Promise.all(results.map((r) => r.body?.cancel()));
      assert.equal(statuses.filter((s) => s === 401).length, AUTH_ATTEMPTS.limit);
      assert.equal(statuses.filter((s) => s === 429).length, 30 - AUTH_ATTEMPTS.limit);
    });
    await t.step(
      "even the right password is refused now: 429 page with when to retry",
      async () => {
        env.clock.now += 5 * 60_000;
        const w = new WebClient(env, "100.64.9.9");
        const res = await adminLogin(w);
        const html = await res.text();
        assert.equal(res.status, 429);
        assert.equal(res.headers.get("retry-after"), String(10 * 60));
        assert.match(html, /Try again in 10 minutes/);
        assert.ok(!w.cookies.has("admin_sid"));
      },
    );
    await t.step("JSON for a fetch: {error, retryAfterSeconds}", async () => {
      const w = new WebClient(env, "100.64.9.9");
      const { html } = await w.page("/admin/login");
      const res = await w.request("/admin/login", {
        json: true,
        form: { csrf: formToken(html), password: ADMIN_PASSWORD, turnstileToken: "good-token" },
      });
      assert.equal(res.status, 429);
      const body = await res.json();
      assert.equal(body.retryAfterSeconds, 600);
      assert.equal(typeof body.error, "string");
    });
    await t.step("the pool is shared with client sign-up from that IP", async () => {
      const res = await new WebClient(env, "100.64.9.9").signUp("late@example.com", PASSWORD);
      assert.equal(res.status, 429);
      await res.body?.cancel();
    });
    await t.step("another IP is not affected; the window frees itself", async () => {
      assert.equal((await adminLogin(new WebClient(env, "100.64.9.10"))).status, 303);
      env.clock.now += 10 * 60_000;
      assert.equal((await adminLogin(new WebClient(env, "100.64.9.9"))).status, 303);
    });
  } finally {
    await env.close();
  }
});

Deno.test("[admin] the overview: recent scans, accounts and keys, rate-limit pressure, all escaped", async () => {
  const env = await adminEnv();
  try {
    const client = newClient(env);
    assert.equal((await client.signUp("o'neil&sons@example.com", PASSWORD)).status, 303);
    const csrf = await client.sessionToken();
    const evilName = `<img src=x onerror=alert(1)>`;
    const created = await client.request("/account/keys", {
      form: { csrf, name: evilName },
      json: true,
    });
    const { key, entry } = await created.json();
    assert.equal(
      (await env.scan({ url: "pressure.example" }, { auth: `Bearer ${key}` })).status,
      202,
    );
    assert.equal(
      (await env.scan({ url: "anon.example", turnstileToken: "good-token" }, { ip: "192.0.2.1" }))
        .status,
      202,
    );
    await storeScan(env, "shop.example", "key", 81);
    await storeScan(env, "evil<b>x</b>.example", "challenge", 42);
    const operatorKey = await env.newKey("operator <key>");

    const admin = await signedInAdmin(env);
    const { res, html } = await admin.page("/admin");
    assert.equal(res.status, 200);
    // Recent scans with their credential kind.
    assert.match(html, /shop\.example/);
    assert.match(html, /data-label="Credential">key</);
    assert.match(html, /data-label="Credential">challenge</);
    assert.match(html, /data-label="Score">81</);
    assert.ok(!html.includes("evil<b>"), "a stored domain is escaped");
    assert.ok(html.includes("evil&lt;b>x&lt;/b>.example"));
    // Accounts and their keys.
    assert.ok(
      html.includes("o&#39;neil&amp;sons@example.com") ||
        html.includes("o'neil&amp;sons@example.com"),
    );
    assert.ok(!html.includes("<img src=x"), "a key name is escaped");
    assert.ok(html.includes("&lt;img src=x onerror=alert(1)>"));
    assert.ok(html.includes(`${entry.prefix}…`));
    assert.ok(!html.includes(key), "never the key itself");
    assert.match(html, /Keys without an account/);
    assert.ok(html.includes("operator &lt;key>"));
    assert.ok(html.includes(`/admin/keys/${operatorKey.id}/revoke`));
    // Pressure: the key's pool, the IP pool, the domain pools and the sign-in attempts.
    assert.match(html, /scans per API key/);
    assert.ok(html.includes(`<code>${entry.prefix}… (&lt;img src=x onerror=alert(1)>)</code>`));
    assert.match(html, /scans per IP<\/td><td data-label="Who"><code>192\.0\.2\.1<\/code>/);
    assert.match(html, /scans per domain/);
    assert.match(html, /sign-in attempts per IP/);
    assert.match(html, /1 \/ 60/);
  } finally {
    await env.close();
  }
});

Deno.test("[admin] revokes any key: the next request with it gets 401", async (t) => {
  const env = await adminEnv();
  try {
    const client = newClient(env);
    assert.equal((await client.signUp("victim@example.com", PASSWORD)).status, 303);
    const csrf = await client.sessionToken();
    const { key, entry } = await (await client.request("/account/keys", {
      form: { csrf, name: "abused" },
      json: true,
    })).json();
    const admin = await signedInAdmin(env);
    await t.step("a form post without the admin token is refused", async () => {
      const res = await admin.request(`/admin/keys/${entry.id}/revoke`, { form: {} });
      assert.equal(res.status, 403);
      await res.body?.cancel();
      const cross = await admin.request(`/admin/keys/${entry.id}/revoke`, {
        form: { csrf: "whatever" },
        headers: { "sec-fetch-site": "cross-site" },
      });
      assert.equal(cross.status, 403);
      await cross.body?.cancel();
      assert.equal((await env.scan({ url: "a1.example" }, { auth: `Bearer ${key}` })).status, 202);
    });
    await t.step("the revoke form: 303 back to /admin with a notice; then 401", async () => {
      const { html } = await admin.page("/admin");
      const res = await admin.request(`/admin/keys/${entry.id}/revoke`, {
        form: { csrf: formToken(html, `/admin/keys/${entry.id}/revoke`) },
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/admin");
      assert.match((await admin.page("/admin")).html, /Key “abused” \(uvk_.{6}…\) revoked/);
      const denied = await env.scan({ url: "a2.example" }, { auth: `Bearer ${key}` });
      assert.equal(denied.status, 401);
      await denied.body?.cancel();
      const dash = (await client.page("/account")).html;
      assert.match(dash, /0 of 20 active keys used/, "the account's slot is freed");
    });
    await t.step("an unknown key id is 404", async () => {
      const { html } = await admin.page("/admin");
      const res = await admin.request("/admin/keys/nope/revoke", {
        form: { csrf: formToken(html, "/admin/logout") },
      });
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
  } finally {
    await env.close();
  }
});

Deno.test("[admin] the administrator session is separate from client sessions", async () => {
  const env = await adminEnv();
  try {
    const client = newClient(env);
    assert.equal((await client.signUp("client@example.com", PASSWORD)).status, 303);
    const toAdmin = await client.request("/admin");
    assert.equal(toAdmin.status, 303, "a client session does not open /admin");
    assert.equal(toAdmin.headers.get("location"), "/admin/login");
    const csrf = await client.sessionToken();
    const key = await env.newKey("target");
    const revoke = await client.request(`/admin/keys/${key.id}/revoke`, { form: { csrf } });
    assert.equal(revoke.status, 303);
    assert.equal(revoke.headers.get("location"), "/admin/login");
    assert.equal((await env.store.keys.getKeyById(key.id))?.revokedAt, null);

    const admin = await signedInAdmin(env);
    const toAccount = await admin.request("/account");
    assert.equal(toAccount.status, 303, "an admin session is not a client account");
    // A stolen client cookie value in the admin cookie's place is not an admin session either.
    const forged = newClient(env);
    forged.cookies.set("admin_sid", client.cookies.get("sid")!);
    assert.equal((await forged.request("/admin")).status, 303);

    const { html } = await admin.page("/admin");
    const out = await admin.request("/admin/logout", {
      form: { csrf: formToken(html, "/admin/logout") },
    });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get("location"), "/admin/login");
    assert.equal((await admin.request("/admin")).status, 303, "signed out");
    assert.equal((await client.request("/account")).status, 200, "the client is still signed in");
  } finally {
    await env.close();
  }
});
