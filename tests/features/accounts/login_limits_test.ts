/**
 * Failed sign-ins are limited per account and per address without a lockout (issue 26,
 * lib/kit/auth/login_guard.ts), with the self-hosted ALTCHA check solved as a browser's widget
 * does: a stranger's failures never keep the owner out; past the limits a sign-in needs the
 * harder check, and with it the owner signs in.
 */
import assert from "node:assert/strict";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { ALTCHA_HARD_FACTOR, LOGIN_FAILURES } from "../../../lib/kit/auth/login_guard.ts";
import { signUp } from "../../../lib/features/accounts/accounts.ts";

const PASSWORD = "correct horse battery staple";

/** A solved challenge (the harder one with `hard`), as the widget submits it. */
async function solved(env: TestEnv, hard = false): Promise<string> {
  const res = await env.app.request(`http://localhost/api/challenge${hard ? "?level=hard" : ""}`);
  const challenge = await res.json();
  // deno-lint-ignore no-explicit-any
  const solution = await solveChallenge({ challenge: challenge as any, deriveKey });
  return btoa(JSON.stringify({ challenge, solution }));
}

async function owner(env: TestEnv, email: string) {
  await signUp(
    { email, password: PASSWORD, turnstileToken: await solved(env), ip: "192.0.2.1" },
    env.deps,
  );
}

Deno.test({
  name:
    "[login limits] a stranger's failures never lock the owner out: past the limit, the harder check, then in",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const env = await startAppEnv({ challenge: "altcha", altchaCost: 20 });
    try {
      await owner(env, "owner@example.com");
      // The challenge's cost is signed with it: the harder one is ALTCHA_HARD_FACTOR times more.
      const hard = JSON.parse(atob(await solved(env, true)));
      const easy = JSON.parse(atob(await solved(env)));
      assert.equal(
        hard.challenge.parameters.cost,
        easy.challenge.parameters.cost * ALTCHA_HARD_FACTOR,
      );

      // A stranger on the owner's network: unsolved posts are refused and count for nothing.
      const stranger = new WebClient(env, "198.51.100.7");
      for (let i = 0; i < 15; i++) {
        const res = await stranger.logIn("owner@example.com", "guess", "");
        assert.equal(res.status, 403);
        await res.body?.cancel();
      }
      // With solved checks, wrong passwords: each 401, never a 429.
      for (let i = 0; i < LOGIN_FAILURES.perAccount; i++) {
        const res = await stranger.logIn("owner@example.com", `guess ${i}`, await solved(env));
        assert.equal(res.status, 401);
        await res.body?.cancel();
      }
      // Past the account's limit the usual check is not enough, for anyone, from anywhere...
      const refused = await stranger.logIn("owner@example.com", "guess 9", await solved(env));
      assert.equal(refused.status, 403);
      const page = await refused.text();
      assert.match(page, /longer check/);
      assert.match(page, /\/api\/challenge\?level=hard/, "the form asks for the harder check");
      const ownerClient = new WebClient(env, "203.0.113.50");
      const usual = await ownerClient.logIn("owner@example.com", PASSWORD, await solved(env));
      assert.equal(usual.status, 403);
      await usual.body?.cancel();
      // ...and with the harder one the owner is in: no lockout.
      const inside = await ownerClient.logIn(
        "owner@example.com",
        PASSWORD,
        await solved(env, true),
      );
      assert.equal(inside.status, 303);
      assert.equal(inside.headers.get("location"), "/account");
      // The limit is the account's: another account from the stranger's address still takes the
      // usual check (the address has 5 failures, its own limit is 10).
      await owner(env, "other@example.com");
      const other = await stranger.logIn("other@example.com", PASSWORD, await solved(env));
      assert.equal(other.status, 303);
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name:
    "[login limits] per address: failures on many accounts from one address raise the check there only",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const env = await startAppEnv({ challenge: "altcha", altchaCost: 20 });
    try {
      await owner(env, "victim@example.com");
      const sprayer = new WebClient(env, "198.51.100.9");
      for (let i = 0; i < LOGIN_FAILURES.perAddress; i++) {
        const res = await sprayer.logIn(`nobody${i}@example.com`, "guess", await solved(env));
        assert.equal(res.status, 401);
        await res.body?.cancel();
      }
      const fromSprayer = await sprayer.logIn("victim@example.com", PASSWORD, await solved(env));
      assert.equal(fromSprayer.status, 403, "the address needs the harder check");
      await fromSprayer.body?.cancel();
      const elsewhere = new WebClient(env, "203.0.113.77");
      const ok = await elsewhere.logIn("victim@example.com", PASSWORD, await solved(env));
      assert.equal(ok.status, 303, "the account itself is not touched");
      // The window moves on: 15 minutes later the usual check is enough again.
      env.clock.now += LOGIN_FAILURES.windowMs + 1;
      const later = await sprayer.logIn("victim@example.com", PASSWORD, await solved(env));
      assert.equal(later.status, 303);
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name:
    "[login limits] per IPv6 /48: failures spread over its /64s raise the check in the whole /48 only",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const env = await startAppEnv({ challenge: "altcha", altchaCost: 20 });
    try {
      await owner(env, "victim@example.com");
      // Each /64 stays under its own limit; together they reach the /48's.
      const perNet = LOGIN_FAILURES.perAddress - 1;
      let failures = 0;
      for (let net = 1; failures < LOGIN_FAILURES.per48; net++) {
        const client = new WebClient(env, `2001:db8:48:${net}::7`);
        for (let i = 0; i < perNet && failures < LOGIN_FAILURES.per48; i++, failures++) {
          const res = await client.logIn(
            `nobody${failures}@example.com`,
            "guess",
            await solved(env),
          );
          assert.equal(res.status, 401, `failure ${failures} is counted, not refused`);
          await res.body?.cancel();
        }
      }
      // A /64 of that /48 that never failed needs the harder check...
      const fresh = new WebClient(env, "2001:db8:48:ff::7");
      const refused = await fresh.logIn("victim@example.com", PASSWORD, await solved(env));
      assert.equal(refused.status, 403, "the /48 needs the harder check");
      await refused.body?.cancel();
      const hard = await fresh.logIn("victim@example.com", PASSWORD, await solved(env, true));
      assert.equal(hard.status, 303, "with it, the owner is in");
      // ...while another /48 takes the usual one.
      const other = new WebClient(env, "2001:db8:49:1::7");
      const ok = await other.logIn("victim@example.com", PASSWORD, await solved(env));
      assert.equal(ok.status, 303, "another /48 is not touched");
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name:
    "[login limits] the administrator: a stranger's wrong guesses raise the check, never lock the site owner out",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const ADMIN = "the site owner's long passphrase";
    const env = await startAppEnv({
      challenge: "altcha",
      altchaCost: 20,
      env: { ADMIN_PASSWORD: ADMIN },
    });
    const adminLogin = async (w: WebClient, password: string, hard = false) =>
      await w.submit("/admin/login", "/admin/login", {
        password,
        turnstileToken: await solved(env, hard),
      });
    try {
      // Far more wrong guesses than the old window's 10 from one address: each a 401, never a 429.
      const stranger = new WebClient(env, "198.51.100.20");
      for (let i = 0; i < 3 * LOGIN_FAILURES.perAddress; i++) {
        const hard = i >= LOGIN_FAILURES.perAccount;
        const res = await adminLogin(stranger, `guess ${i}`, hard);
        assert.equal(res.status, 401, `guess ${i}`);
        await res.body?.cancel();
      }
      // Past the administrator's limit the usual check is not enough, from anywhere...
      const owner = new WebClient(env, "203.0.113.60");
      const refused = await adminLogin(owner, ADMIN);
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /\/api\/challenge\?level=hard/);
      // ...and with the harder one the owner is in.
      const inside = await adminLogin(owner, ADMIN, true);
      assert.equal(inside.status, 303);
      assert.equal(inside.headers.get("location"), "/admin");
      // Sign-ups from the stranger's address are not spent by its admin guesses.
      const signUp = await stranger.signUp("new@example.com", PASSWORD, await solved(env));
      assert.equal(signUp.status, 303);
      await signUp.body?.cancel();
    } finally {
      await env.close();
    }
  },
});
