/**
 * Client sessions: cookie attributes (http and https), tokens stored only as SHA-256, expiry on
 * the injected clock, logout, rotation at login, forged cookies, and the signed-in navigation.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../lib/kit/auth/crypto.ts";
import { SESSION_TTL_MS } from "../lib/kit/web/sessions.ts";
import { startAppEnv, type TestEnv } from "./helpers/app_env.ts";
import { formToken, setCookies, WebClient } from "./helpers/web_client.ts";
import { accountStoreOf } from "../lib/app/server.ts";

const PASSWORD = "correct horse battery staple";
let n = 1;
const newClient = (env: TestEnv) => new WebClient(env, `192.0.2.${n++ % 250}`);

async function signUp(env: TestEnv, email = `s${crypto.randomUUID().slice(0, 8)}@example.com`) {
  const w = newClient(env);
  const res = await w.signUp(email, PASSWORD);
  assert.equal(res.status, 303);
  return { w, res, email };
}

Deno.test("[sessions] cookie attributes: HttpOnly, SameSite=Lax, Path=/, Max-Age; Secure and __Host- over https", async (t) => {
  const env = await startAppEnv();
  try {
    await t.step("over http: `sid`, not Secure", async () => {
      const { res } = await signUp(env);
      const sid = setCookies(res).find((c) => c.name === "sid");
      assert.ok(sid, "a session cookie");
      assert.match(sid.value, /^[A-Za-z0-9_-]{43}$/, "256 random bits");
      assert.equal(sid.attributes.httponly, true);
      assert.equal(sid.attributes.samesite, "Lax");
      assert.equal(sid.attributes.path, "/");
      assert.equal(sid.attributes["max-age"], String(SESSION_TTL_MS / 1000));
      assert.equal(sid.attributes.secure, undefined);
      assert.equal(sid.attributes.domain, undefined);
    });
    await t.step(
      "behind the trusted proxy with X-Forwarded-Proto: https: `__Host-sid`, Secure",
      async () => {
        const w = newClient(env);
        const https = { "x-forwarded-proto": "https" };
        const page = await w.request("/account/signup", { headers: https });
        const csrfCookie = setCookies(page).find((c) => c.name === "__Host-csrf");
        assert.ok(csrfCookie?.attributes.secure, "the form-token cookie is Secure too");
        assert.equal(csrfCookie?.attributes.httponly, true);
        const res = await w.request("/account/signup", {
          headers: { ...https, origin: "https://localhost" },
          form: {
            csrf: formToken(await page.text()),
            email: "https@example.com",
            password: PASSWORD,
            turnstileToken: "good-token",
          },
        });
        assert.equal(res.status, 303);
        const sid = setCookies(res).find((c) => c.name === "__Host-sid");
        assert.ok(sid, "the __Host- prefixed cookie");
        assert.equal(sid.attributes.secure, true);
        assert.equal(sid.attributes.path, "/");
        assert.equal(sid.attributes.domain, undefined);
        assert.equal((await w.request("/account", { headers: https })).status, 200);
        assert.equal(
          (await w.request("/account")).status,
          303,
          "a __Host- cookie is not read over http",
        );
      },
    );
  } finally {
    await env.close();
  }
});

Deno.test("[sessions] the token is stored only as its SHA-256, with an expiry", async () => {
  const env = await startAppEnv();
  try {
    const { w } = await signUp(env);
    const token = w.cookies.get("sid")!;
    const entry = await accountStoreOf(env.store).getSession("client", await sha256Hex(token));
    assert.ok(entry);
    assert.equal(entry.expiresAt, env.clock.now + SESSION_TTL_MS);
    for await (const e of env.kv.list({ prefix: [] })) {
      assert.ok(!JSON.stringify([e.key, e.value]).includes(token), "the token itself is not in KV");
    }
  } finally {
    await env.close();
  }
});

Deno.test("[sessions] a session expires after 7 days (injected clock)", async () => {
  const env = await startAppEnv();
  try {
    const { w } = await signUp(env);
    env.clock.now += SESSION_TTL_MS - 60_000;
    const before = await w.page("/account");
    assert.equal(before.res.status, 200);
    assert.match(before.html, /href="\/account"[^>]*>Your keys</, "the navigation says signed in");
    env.clock.now += 60_000;
    const after = await w.request("/account");
    assert.equal(after.status, 303);
    assert.equal(after.headers.get("location"), "/account/login");
    const login = await w.page("/account/login");
    assert.match(login.html, />Sign in</);
    assert.doesNotMatch(login.html, /You are signed in as/);
  } finally {
    await env.close();
  }
});

Deno.test("[sessions] logout deletes the session; the old cookie is worthless afterwards", async () => {
  const env = await startAppEnv();
  try {
    const { w } = await signUp(env);
    const token = w.cookies.get("sid")!;
    const { html } = await w.page("/account");
    const res = await w.request("/account/logout", {
      form: { csrf: formToken(html, "/account/logout") },
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/account/login?signedout");
    const cleared = setCookies(res).find((c) => c.name === "sid");
    assert.equal(cleared?.attributes["max-age"], "0");
    assert.equal(
      await accountStoreOf(env.store).getSession("client", await sha256Hex(token)),
      null,
    );
    const replay = newClient(env);
    replay.cookies.set("sid", token);
    assert.equal((await replay.request("/account")).status, 303);
    assert.match((await w.page("/account/login?signedout")).html, /You are signed out/);
  } finally {
    await env.close();
  }
});

Deno.test("[sessions] login rotates the token: the one held before stops working", async () => {
  const env = await startAppEnv();
  try {
    const { w, email } = await signUp(env);
    const first = w.cookies.get("sid")!;
    const { html } = await w.page("/account/login");
    assert.match(html, /You are signed in as <strong>/);
    const res = await w.request("/account/login", {
      form: { csrf: formToken(html), email, password: PASSWORD, turnstileToken: "good-token" },
    });
    assert.equal(res.status, 303);
    const second = w.cookies.get("sid")!;
    assert.notEqual(second, first);
    assert.equal((await w.request("/account")).status, 200);
    const old = newClient(env);
    old.cookies.set("sid", first);
    assert.equal((await old.request("/account")).status, 303, "the old token is deleted");
  } finally {
    await env.close();
  }
});

Deno.test("[sessions] a forged or malformed session cookie is ignored", async () => {
  const env = await startAppEnv();
  try {
    for (const value of ["A".repeat(43), "not a token", "x".repeat(5000)]) {
      const w = newClient(env);
      w.cookies.set("sid", value);
      const res = await w.request("/account");
      assert.equal(res.status, 303);
    }
  } finally {
    await env.close();
  }
});
