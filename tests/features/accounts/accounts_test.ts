/**
 * Client accounts and their API keys, in-process (`app.request`) with the fake Turnstile
 * ("good-token" passes): every sign-up rejection reason, login, the sign-in attempt limit, keys
 * shown once, a key against POST /api/scan (its own 60/h pool, independent of IP), revocation,
 * the key limit, CSRF, 405/413/415, security headers and HTML escaping.
 */
import assert from "node:assert/strict";
import { MAX_ACTIVE_KEYS } from "../../../lib/features/accounts/accounts.ts";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { formToken, ORIGIN, WebClient } from "../../helpers/web_client.ts";
import { assertInlineScriptsHashed } from "../../helpers/inline_scripts.ts";
import { accountStoreOf, createStore } from "../../../lib/app/server.ts";

const PASSWORD = "correct horse battery staple";
const GOOD = { turnstileToken: "good-token" };
let ipCounter = 1;
/** A fresh client IP, so tests do not share the sign-in attempt window. */
const freshIp = () => `198.51.100.${ipCounter++ % 250}`;
const client = (env: TestEnv) => new WebClient(env, freshIp());

async function signedIn(
  env: TestEnv,
  email = `user${crypto.randomUUID().slice(0, 8)}@example.com`,
) {
  const w = client(env);
  const res = await w.signUp(email, PASSWORD);
  assert.equal(res.status, 303, await res.clone().text());
  return w;
}

async function createKeyJson(w: WebClient, name: string) {
  const csrf = await w.sessionToken();
  return await w.request("/account/keys", { form: { csrf, name }, json: true });
}

/** Every KV entry's key and value, as one string (to prove a secret is not stored). */
async function dumpKv(env: TestEnv): Promise<string> {
  const parts: string[] = [];
  for await (const e of env.kv.list({ prefix: [] })) parts.push(JSON.stringify([e.key, e.value]));
  return parts.join("\n");
}

Deno.test("GET /account/signup - the form, noindex, page security headers, no e-mail promise", async () => {
  const env = await startAppEnv();
  try {
    const w = client(env);
    const { res, html } = await w.page("/account/signup");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    assert.match(html, /<meta name="robots" content="noindex, nofollow">/);
    assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    assert.doesNotMatch(res.headers.get("content-security-policy") ?? "", /unsafe-inline/);
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.match(html, /No e-mail is ever sent/);
    assert.match(html, /no password reset/);
    assert.match(html, /<form class="card auth-form" method="post" action="\/account\/signup">/);
    assert.match(html, /name="email"/);
    assert.match(html, /name="password"/);
    assert.match(html, /data-response-field-name="turnstileToken"/, "the challenge widget");
    assert.match(html, /data-island="AuthForm"/);
    assert.ok(formToken(html), "a form token");
    assert.ok(w.cookies.has("csrf"), "its double-submit cookie");
    assert.doesNotMatch(html, /style="/, "no inline styles (CSP)");
    assertInlineScriptsHashed(html, res.headers.get("content-security-policy") ?? "");
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/signup - each rejection reason, with the e-mail kept and never the password", async (t) => {
  const env = await startAppEnv();
  try {
    const cases: [string, Record<string, string>, number, RegExp][] = [
      ["empty e-mail", { email: "", password: PASSWORD, ...GOOD }, 400, /Enter your e-mail/],
      [
        "bad syntax",
        { email: "ada.example.com", password: PASSWORD, ...GOOD },
        400,
        /does not look like an e-mail address/,
      ],
      [
        "two @",
        { email: "ada@@example.com", password: PASSWORD, ...GOOD },
        400,
        /does not look like an e-mail address/,
      ],
      [
        "no dot in the domain",
        { email: "ada@localhost", password: PASSWORD, ...GOOD },
        400,
        /needs a dot/,
      ],
      [
        "password shorter than 12",
        { email: "short@example.com", password: "elevenchars", ...GOOD },
        400,
        /at least 12 characters \(this one has 11\)/,
      ],
      [
        "password longer than 256",
        { email: "long@example.com", password: "x".repeat(257), ...GOOD },
        400,
        /at most 256 characters/,
      ],
      [
        "password equal to the e-mail",
        { email: "same.as.pw@example.com", password: "same.as.pw@example.com" },
        400,
        /Do not use your e-mail address/,
      ],
      [
        "missing challenge token",
        { email: "nochallenge@example.com", password: PASSWORD },
        403,
        /anti-bot check did not pass/,
      ],
      [
        "invalid challenge token",
        { email: "badchallenge@example.com", password: PASSWORD, turnstileToken: "bad-token" },
        403,
        /anti-bot check did not pass/,
      ],
    ];
    for (const [name, fields, status, reason] of cases) {
      await t.step(name, async () => {
        const res = await client(env).submit("/account/signup", "/account/signup", fields);
        const html = await res.text();
        assert.equal(res.status, status, html.slice(0, 200));
        assert.match(res.headers.get("content-type") ?? "", /text\/html/);
        assert.match(html, reason);
        if (fields.email) {
          assert.ok(html.includes(`value="${fields.email}"`), "the e-mail is kept in the form");
        }
        if (fields.password !== fields.email) {
          assert.ok(!html.includes(fields.password), "the password is never echoed");
        }
        assert.ok(!res.headers.get("set-cookie")?.includes("sid="), "no session");
      });
    }
    await t.step("an address is taken once, whatever its case (409)", async () => {
      assert.equal((await client(env).signUp("Ada@Example.com", PASSWORD)).status, 303);
      const res = await client(env).signUp("  ADA@example.COM ", PASSWORD);
      assert.equal(res.status, 409);
      assert.match(await res.text(), /already exists/);
    });
    await t.step("a fetch that asks for JSON gets the reasons per field", async () => {
      const w = client(env);
      const { html } = await w.page("/account/signup");
      const res = await w.request("/account/signup", {
        json: true,
        form: { csrf: formToken(html), email: "x@y", password: "short" },
      });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.match(body.fields.email, /needs a dot/);
      assert.match(body.fields.password, /at least 12/);
    });
    await t.step("nothing was stored for the refused sign-ups", async () => {
      const accounts = await accountStoreOf(env.store).listAccounts();
      assert.deepEqual(accounts.map((a) => a.email), ["ada@example.com"]);
    });
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/signup - success: 303 to /account, signed in, stored normalised with argon2id", async () => {
  const env = await startAppEnv();
  try {
    const w = client(env);
    const res = await w.signUp("Grace.Hopper@EXAMPLE.org", PASSWORD);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/account");
    assert.ok(w.cookies.has("sid"));
    const { res: dash, html } = await w.page("/account");
    assert.equal(dash.status, 200);
    assert.match(html, /grace\.hopper@example\.org/);
    const account = await accountStoreOf(env.store).getAccountByEmail("grace.hopper@example.org");
    assert.ok(account);
    assert.match(account.passwordHash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.ok(!(await dumpKv(env)).includes(PASSWORD), "the password is not stored");
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/signup - two sign-ups racing for one address: exactly one wins", async () => {
  const env = await startAppEnv();
  try {
    const clients = Array.from({ length: 6 }, () => client(env));
    const pages = await Promise.all(clients.map((w) => w.page("/account/signup")));
    const results = await Promise.all(clients.map((w, i) =>
      w.request("/account/signup", {
        form: {
          csrf: formToken(pages[i].html),
          email: "race@example.com",
          password: PASSWORD,
          ...GOOD,
        },
      })
    ));
    const statuses = results.map((r) => r.status).sort();
    await Promise.all(results.map((r) => r.body?.cancel()));
    assert.deepEqual(statuses, [303, 409, 409, 409, 409, 409]);
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/login - success, and one answer for an unknown e-mail and a wrong password", async (t) => {
  const env = await startAppEnv();
  try {
    await signedIn(env, "login@example.com");
    await t.step("the right password signs in (303 to /account)", async () => {
      const w = client(env);
      const res = await w.logIn("LOGIN@example.com", PASSWORD);
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/account");
      assert.equal((await w.page("/account")).res.status, 200);
    });
    const failure = async (email: string, password: string) => {
      const w = client(env);
      const t0 = performance.now();
      const res = await w.logIn(email, password);
      const ms = performance.now() - t0;
      const html = await res.text();
      return { res, html, ms, w };
    };
    await t.step("wrong password and unknown e-mail: same status, same message", async () => {
      const wrong = await failure("login@example.com", "not the password at all");
      const unknown = await failure("nobody@example.com", "not the password at all");
      for (const f of [wrong, unknown]) {
        assert.equal(f.res.status, 401);
        assert.match(f.html, /Wrong e-mail address or password\./);
        assert.ok(!f.w.cookies.has("sid"));
      }
      const notice = (html: string) => html.match(/<p class="notice error"[^>]*>[^<]*<\/p>/)?.[0];
      assert.equal(notice(wrong.html), notice(unknown.html));
    });
    await t.step("both failures cost one argon2id verification (similar time)", async () => {
      // Warm up both paths, then compare medians.
      await failure("nobody@example.com", "x".repeat(12));
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const wrong: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        wrong.push((await failure("login@example.com", `wrong password ${i}`)).ms);
        unknown.push((await failure(`nobody${i}@example.com`, `wrong password ${i}`)).ms);
      }
      const [w, u] = [median(wrong), median(unknown)];
      assert.ok(
        u > w / 3 && u < w * 3,
        `wrong password ${w.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`,
      );
    });
    await t.step("login needs the challenge too (403)", async () => {
      const res = await client(env).submit("/account/login", "/account/login", {
        email: "login@example.com",
        password: PASSWORD,
      });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    });
  } finally {
    await env.close();
  }
});

Deno.test("[limits] sign-ups have a window per IP: 10 per 15 minutes, then 429 with retryAfterSeconds; sign-ins never lock out", async () => {
  const env = await startAppEnv();
  try {
    const ip = "203.0.113.99";
    const w = new WebClient(env, ip);
    for (let i = 0; i < 5; i++) {
      const res = await w.signUp(`bad${i}@localhost`, PASSWORD);
      assert.equal(res.status, 400);
      await res.body?.cancel();
      // Failed sign-ins count in their own windows (lib/kit/auth/login_guard.ts), not this one.
      const login = await w.logIn(`nobody${i}@example.com`, PASSWORD);
      assert.equal(login.status, 401);
      await login.body?.cancel();
    }
    for (let i = 5; i < 10; i++) {
      const res = await w.signUp(`bad${i}@localhost`, PASSWORD);
      assert.equal(res.status, 400);
      await res.body?.cancel();
    }
    env.clock.now += 60_000;
    const limited = await w.signUp("fine@example.com", PASSWORD);
    const html = await limited.text();
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "840", "the first attempt leaves in 14 min");
    assert.match(html, /Too many sign-up and sign-in attempts/);
    assert.match(html, /data-retry-after="840"/);
    assert.ok(html.includes('value="fine@example.com"'));

    // A real user on that address still signs in: no lockout.
    assert.equal((await client(env).signUp("owner@example.com", PASSWORD)).status, 303);
    const { html: page } = await w.page("/account/login");
    const json = await w.request("/account/login", {
      json: true,
      form: { csrf: formToken(page), email: "owner@example.com", password: PASSWORD, ...GOOD },
    });
    assert.equal(json.status, 200);
    await json.body?.cancel();

    assert.equal((await client(env).signUp("other-ip@example.com", PASSWORD)).status, 303);
    env.clock.now += 14 * 60_000;
    assert.equal((await w.signUp("fine@example.com", PASSWORD)).status, 303, "the window moved on");
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/keys - a key is shown once; afterwards only its first characters", async (t) => {
  const env = await startAppEnv();
  try {
    const w = await signedIn(env);
    await t.step(
      "no-JS form: 303 to /account (no key in the URL), shown on the next page only",
      async () => {
        const csrf = await w.sessionToken();
        const res = await w.request("/account/keys", { form: { csrf, name: "laptop script" } });
        assert.equal(res.status, 303);
        const location = res.headers.get("location") ?? "";
        assert.equal(location, "/account");
        const { html } = await w.page("/account");
        const key = html.match(/id="new-key-value"[^>]*value="(uvk_[A-Za-z0-9_-]+)"/)?.[1];
        assert.ok(key, "the new key is on the page");
        assert.equal(key.length, 4 + 43);
        assert.match(html, /shown only this once/);
        const again = (await w.page("/account")).html;
        assert.ok(!again.includes(key), "never shown again");
        assert.ok(again.includes(`${key.slice(0, 10)}…`), "only its first characters");
        assert.match(again, /laptop script/);
        assert.ok(
          !(await dumpKv(env)).includes(key),
          "the key is not in KV, not even in the flash",
        );
      },
    );
    await t.step(
      "island fetch: 201 JSON {key, entry} with no-store; never on a page later",
      async () => {
        const res = await createKeyJson(w, "CI pipeline");
        assert.equal(res.status, 201);
        assert.equal(res.headers.get("cache-control"), "no-store");
        const body = await res.json();
        assert.match(body.key, /^uvk_[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(Object.keys(body.entry).sort(), [
          "createdAt",
          "id",
          "lastUsedAt",
          "name",
          "prefix",
          "revokedAt",
        ]);
        assert.equal(body.entry.name, "CI pipeline");
        assert.equal(body.entry.prefix, body.key.slice(0, 10));
        const { html } = await w.page("/account");
        assert.ok(!html.includes(body.key));
        assert.ok(html.includes(`${body.entry.prefix}…`));
      },
    );
    await t.step("key names: empty and too long are refused with a reason", async () => {
      const empty = await createKeyJson(w, "   ");
      assert.equal(empty.status, 400);
      assert.match((await empty.json()).error, /Give the key a name/);
      const csrf = await w.sessionToken();
      const long = await w.request("/account/keys", { form: { csrf, name: "n".repeat(61) } });
      assert.equal(long.status, 400);
      const html = await long.text();
      assert.match(html, /at most 60 characters/);
      assert.ok(html.includes(`value="${"n".repeat(61)}"`), "the name is kept in the form");
    });
  } finally {
    await env.close();
  }
});

Deno.test("POST /api/scan - an account's key works, with its own 60/h pool independent of IP", async () => {
  const env = await startAppEnv();
  try {
    const w = await signedIn(env);
    const { key } = await (await createKeyJson(w, "scanner")).json();
    const ip = "192.0.2.55";
    for (let i = 0; i < 8; i++) {
      assert.equal((await env.scan({ url: `anon${i}.example`, ...GOOD }, { ip })).status, 202);
    }
    assert.equal((await env.scan({ url: "anon8.example", ...GOOD }, { ip })).status, 429);
    for (let i = 0; i < 60; i++) {
      const res = await env.scan({ url: `k${i}.example` }, {
        ip: i % 2 ? ip : `203.0.113.${i}`,
        auth: `Bearer ${key}`,
      });
      assert.equal(res.status, 202, `key scan ${i + 1}`);
      await res.body?.cancel();
    }
    const over = await env.scan({ url: "k60.example" }, {
      ip: "203.0.113.250",
      auth: `Bearer ${key}`,
    });
    assert.equal(over.status, 429);
    const body = await over.json();
    assert.match(body.error, /60 new scans per hour for this API key/);
    assert.equal(typeof body.retryAfterSeconds, "number");
    const { html } = await w.page("/account");
    assert.match(
      html,
      /data-label="Last used"><time datetime="2026-11-21T10:00:00.000Z" title="2026-11-21 10:00 UTC" data-local="">2026-11-21 10:00 UTC</,
      "last used is recorded",
    );
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/keys/:id/revoke - the next request with the key gets 401", async (t) => {
  const env = await startAppEnv();
  try {
    const w = await signedIn(env);
    await t.step("no-JS form: 303, then 401 at once", async () => {
      const { key, entry } = await (await createKeyJson(w, "to revoke")).json();
      assert.equal((await env.scan({ url: "r1.example" }, { auth: `Bearer ${key}` })).status, 202);
      const { html } = await w.page("/account");
      const res = await w.request(`/account/keys/${entry.id}/revoke`, {
        form: { csrf: formToken(html, `/account/keys/${entry.id}/revoke`) },
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/account");
      const denied = await env.scan({ url: "r2.example" }, { auth: `Bearer ${key}` });
      assert.equal(denied.status, 401);
      assert.deepEqual(await denied.json(), { error: "Unauthorized" });
      const after = (await w.page("/account")).html;
      assert.match(after, /Key “to revoke” revoked/);
      assert.match(after, /badge status-fail/);
    });
    await t.step(
      "island fetch: 200 JSON with revokedAt set; revoking twice is harmless",
      async () => {
        const { key, entry } = await (await createKeyJson(w, "fetch revoke")).json();
        const csrf = await w.sessionToken();
        const res = await w.request(`/account/keys/${entry.id}/revoke`, {
          form: { csrf },
          json: true,
        });
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.equal(body.entry.revokedAt, env.clock.now);
        const twice = await w.request(`/account/keys/${entry.id}/revoke`, {
          form: { csrf },
          json: true,
        });
        assert.equal(twice.status, 200);
        assert.equal((await twice.json()).entry.revokedAt, env.clock.now);
        assert.equal(
          (await env.scan({ url: "r3.example" }, { auth: `Bearer ${key}` })).status,
          401,
        );
      },
    );
    await t.step("another account's key is 404 and keeps working", async () => {
      const other = await signedIn(env);
      const { key, entry } = await (await createKeyJson(other, "not yours")).json();
      const csrf = await w.sessionToken();
      const res = await w.request(`/account/keys/${entry.id}/revoke`, {
        form: { csrf },
        json: true,
      });
      assert.equal(res.status, 404);
      await res.body?.cancel();
      assert.equal((await env.scan({ url: "r4.example" }, { auth: `Bearer ${key}` })).status, 202);
    });
  } finally {
    await env.close();
  }
});

Deno.test("POST /account/keys - at most 20 active keys, exact under concurrency; revoking frees a slot", async () => {
  const env = await startAppEnv();
  try {
    const w = await signedIn(env);
    const csrf = await w.sessionToken();
    const results = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) => w.request("/account/keys", { form: { csrf, name: `key ${i}` }, json: true }),
      ),
    );
    const created = [];
    for (const r of results) {
      if (r.status === 201) created.push(await r.json());
      else {
        assert.equal(r.status, 409);
        assert.match((await r.json()).error, /20 active keys/);
      }
    }
    assert.equal(created.length, MAX_ACTIVE_KEYS);
    const html = (await w.page("/account")).html;
    assert.match(html, /20 of 20 active keys used/);
    assert.match(html, /<button type="submit" disabled>Create key<\/button>/);
    const revoke = await w.request(`/account/keys/${created[0].entry.id}/revoke`, {
      form: { csrf },
      json: true,
    });
    assert.equal(revoke.status, 200);
    await revoke.body?.cancel();
    const again = await w.request("/account/keys", {
      form: { csrf, name: "one more" },
      json: true,
    });
    assert.equal(again.status, 201);
    await again.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("[csrf] state-changing forms refuse cross-site posts and posts without the right token", async (t) => {
  const env = await startAppEnv();
  try {
    const w = await signedIn(env);
    const csrf = await w.sessionToken();
    const keyCount = async () => (await env.store.keys.listKeys()).length;
    const before = await keyCount();
    const refused = async (res: Response, json = false) => {
      assert.equal(res.status, 403);
      if (json) assert.match((await res.json()).error, /./);
      else assert.match(await res.text(), /Request refused/);
    };
    await t.step("a cross-site Origin", async () => {
      await refused(
        await w.request("/account/keys", {
          form: { csrf, name: "evil" },
          bare: true,
          headers: { origin: "https://evil.example" },
        }),
      );
    });
    await t.step("Sec-Fetch-Site: cross-site (and same-site: a sibling subdomain)", async () => {
      for (const site of ["cross-site", "same-site"]) {
        await refused(
          await w.request("/account/keys", {
            form: { csrf, name: "evil" },
            headers: { "sec-fetch-site": site },
          }),
        );
      }
    });
    await t.step("a missing token, a wrong token, another session's token", async () => {
      await refused(await w.request("/account/keys", { form: { name: "evil" } }));
      await refused(
        await w.request("/account/keys", { form: { csrf: "x".repeat(43), name: "e" } }),
      );
      const other = await signedIn(env);
      await refused(
        await w.request("/account/keys", { form: { csrf: await other.sessionToken(), name: "e" } }),
      );
    });
    await t.step("a fetch gets the refusal as JSON", async () => {
      await refused(await w.request("/account/keys", { form: { name: "evil" }, json: true }), true);
    });
    await t.step("a revoke and a logout need the token too", async () => {
      const { entry } = await (await createKeyJson(w, "kept")).json();
      await refused(await w.request(`/account/keys/${entry.id}/revoke`, { form: {} }));
      assert.equal((await env.store.keys.getKeyById(entry.id))?.revokedAt, null);
      await refused(await w.request("/account/logout", { form: {} }));
      assert.equal((await w.page("/account")).res.status, 200, "still signed in");
    });
    await t.step("nothing was created by the refused posts", async () => {
      assert.equal(await keyCount(), before + 1);
    });
    await t.step("sign-up without the form's token (or its cookie) is refused", async () => {
      const fresh = client(env);
      await refused(
        await fresh.request("/account/signup", {
          form: { email: "nocsrf@example.com", password: PASSWORD, ...GOOD },
        }),
      );
      const { html } = await fresh.page("/account/signup");
      fresh.cookies.delete("csrf");
      await refused(
        await fresh.request("/account/signup", {
          form: { csrf: formToken(html), email: "nocsrf@example.com", password: PASSWORD, ...GOOD },
        }),
      );
    });
    await t.step("a client sending neither header is served on the token alone", async () => {
      const res = await w.request("/account/keys", {
        form: { csrf, name: "from curl" },
        bare: true,
        json: true,
      });
      assert.equal(res.status, 201);
      await res.body?.cancel();
    });
    await t.step("Origin: null (a no-referrer page's own post) is left to the token", async () => {
      const res = await w.request("/account/keys", {
        form: { csrf, name: "null origin" },
        bare: true,
        json: true,
        headers: { origin: "null" },
      });
      assert.equal(res.status, 201);
      await res.body?.cancel();
      await refused(
        await w.request("/account/keys", {
          form: { name: "null origin" },
          bare: true,
          headers: { origin: "null" },
        }),
      );
    });
  } finally {
    await env.close();
  }
});

Deno.test("account pages - 405, 413 and 415 are clear pages; signed-out visitors are sent to sign in", async () => {
  const env = await startAppEnv();
  try {
    const w = client(env);
    const get = await w.request("/account/keys");
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    assert.match(await get.text(), /Method not allowed/);
    const put = await w.request("/account/signup", { method: "PUT" });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, HEAD, POST");
    await put.body?.cancel();
    const logoutGet = await w.request("/account/logout");
    assert.equal(logoutGet.status, 405);
    await logoutGet.body?.cancel();

    const { html } = await w.page("/account/signup");
    const big = await w.request("/account/signup", {
      form: { csrf: formToken(html), email: "big@example.com", password: "x".repeat(20_000) },
    });
    assert.equal(big.status, 413);
    assert.match(await big.text(), /Form too large/);
    const json = await w.request("/account/signup", {
      headers: { "content-type": "application/json", origin: ORIGIN },
      method: "POST",
    });
    assert.equal(json.status, 415);
    await json.body?.cancel();

    const dash = await w.request("/account");
    assert.equal(dash.status, 303);
    assert.equal(dash.headers.get("location"), "/account/login");
    const create = await w.request("/account/keys", { form: { name: "x" } });
    assert.equal(create.status, 303);
    assert.equal(create.headers.get("location"), "/account/login");
    const createJson = await w.request("/account/keys", { form: { name: "x" }, json: true });
    assert.equal(createJson.status, 401);
    await createJson.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("GET /account - user-controlled strings are escaped (key names, e-mail)", async () => {
  const env = await startAppEnv();
  try {
    const w = await signedIn(env, "o'brien&co@example.com");
    const evil = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
    assert.equal((await createKeyJson(w, evil)).status, 201);
    const { res, html } = await w.page("/account");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    assert.ok(!html.includes("<img src=x"), "no raw tag from a key name");
    assert.ok(!html.includes("<script>alert"), "no raw script from a key name");
    assert.ok(html.includes("&lt;img src=x"), "the name is shown, escaped");
    assert.ok(
      html.includes("o&#39;brien&amp;co@example.com") ||
        html.includes("o'brien&amp;co@example.com"),
    );
    assert.match(html, /<meta name="robots" content="noindex, nofollow">/);
  } finally {
    await env.close();
  }
});

Deno.test("accounts - the schema service: its own title, `usk_` keys, and accounts apart from the visibility service's", async () => {
  const env = await startAppEnv({ env: { SERVICE: "schema" } });
  try {
    assert.equal(env.service.keyPrefix, "usk_");
    const w = await signedIn(env, "both@example.com");
    const { html } = await w.page("/account");
    assert.match(html, new RegExp(`<title>Your account \\| ${env.service.title}</title>`));
    assert.match(html, /Bearer usk_YOUR_KEY/);
    const res = await createKeyJson(w, "schema key");
    const { key } = await res.json();
    assert.match(key, /^usk_[A-Za-z0-9_-]{43}$/);
    const keys = await env.store.keys.listKeys();
    assert.equal(keys.length, 1);
    // The same KV holds the visibility service's data under its own prefix: nothing of this
    // account is visible there.
    const visibility = accountStoreOf(createStore(env.kv, "visibility"));
    assert.equal(await visibility.getAccountByEmail("both@example.com"), null);
  } finally {
    await env.close();
  }
});
