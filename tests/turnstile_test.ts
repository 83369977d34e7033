/**
 * Turnstile verification as an operator needs it: siteverify's error codes logged (never the
 * secret or the token), a health signal once verification keeps failing for an operator-side
 * reason, the token length capped at Cloudflare's 2048, the hostname and action checked against
 * the configuration, and a start-up probe that spots a wrong secret. A small fake siteverify of
 * our own answers what each test needs.
 */
import assert from "node:assert/strict";
import {
  challengeProvider,
  probeTurnstile,
  TURNSTILE_FAILING_AFTER,
  TURNSTILE_MAX_TOKEN_LENGTH,
  TurnstileMonitor,
  turnstileVerifier,
} from "../lib/kit/auth/challenge.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { createGuardedFetcher } from "../lib/kit/net/guarded_fetch.ts";

const SECRET = "0x-very-secret-value-for-tests";

interface Fake {
  answer: { status: number; body: string };
  forms: URLSearchParams[];
}

async function withFake(
  run: (ctx: {
    fake: Fake;
    verifyUrl: string;
    fetcher: ReturnType<typeof createGuardedFetcher>;
  }) => Promise<void>,
) {
  const fake: Fake = { answer: { status: 200, body: '{"success":true}' }, forms: [] };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    fake.forms.push(new URLSearchParams(await req.text()));
    return new Response(fake.answer.body, {
      status: fake.answer.status,
      headers: { "content-type": "application/json" },
    });
  });
  const fetcher = createGuardedFetcher({
    userAgent: "test",
    resolve: new Map([["verify.test", { host: "127.0.0.1", port: server.addr.port }]]),
    lookup: () => Promise.reject(new Error("DNS disabled")),
  });
  try {
    await run({ fake, verifyUrl: "http://verify.test/turnstile/v0/siteverify", fetcher });
  } finally {
    await fetcher.close();
    await server.shutdown();
  }
}

const answer = (value: Record<string, unknown>) => ({ status: 200, body: JSON.stringify(value) });

Deno.test("tokens longer than Cloudflare's 2048 characters are never sent", async () => {
  await withFake(async ({ fake, verifyUrl, fetcher }) => {
    const logs: Record<string, unknown>[] = [];
    const verify = turnstileVerifier({
      secret: SECRET,
      verifyUrl,
      fetcher,
      monitor: new TurnstileMonitor((e) => logs.push(e)),
    });
    assert.equal(await verify("x".repeat(TURNSTILE_MAX_TOKEN_LENGTH + 1), "203.0.113.1"), false);
    assert.equal(fake.forms.length, 0);
    assert.deepEqual(logs[0].errorCodes, ["token-too-long"]);
    assert.equal(await verify("x".repeat(TURNSTILE_MAX_TOKEN_LENGTH), "203.0.113.1"), true);
    assert.equal(fake.forms.length, 1);
  });
});

Deno.test("error codes are logged without the secret; a wrong secret soon reads as failing", async () => {
  await withFake(async ({ fake, verifyUrl, fetcher }) => {
    const logs: Record<string, unknown>[] = [];
    const monitor = new TurnstileMonitor((e) => logs.push(e), () => 42);
    const provider = challengeProvider({
      turnstileSiteKey: "site",
      turnstileSecretKey: SECRET,
      turnstile: turnstileVerifier({ secret: SECRET, verifyUrl, fetcher, monitor }),
      altcha: { challenge: () => Promise.resolve({}), verify: () => Promise.resolve(false) },
      turnstileMonitor: monitor,
    });
    // Visitors' bad tokens are normal traffic: logged, but health stays ok.
    fake.answer = answer({ success: false, "error-codes": ["timeout-or-duplicate"] });
    for (let i = 0; i < 5; i++) assert.equal(await provider.verify("tok", "203.0.113.1"), false);
    assert.equal(provider.health?.().ok, true);
    assert.deepEqual(logs.at(-1), {
      event: "turnstile.rejected",
      errorCodes: ["timeout-or-duplicate"],
      operatorSide: false,
    });

    fake.answer = answer({ success: false, "error-codes": ["invalid-input-secret"] });
    for (let i = 0; i < TURNSTILE_FAILING_AFTER; i++) {
      assert.equal(await provider.verify("tok", "203.0.113.1"), false);
    }
    const health = provider.health?.();
    assert.equal(health?.ok, false);
    assert.deepEqual(health?.lastErrors, ["invalid-input-secret"]);
    assert.equal(health?.lastFailureAt, 42);
    assert.equal(logs.filter((e) => e.event === "turnstile.failing").length, 1);
    assert.ok(!JSON.stringify(logs).includes(SECRET), "the secret is never logged");
    assert.ok(!JSON.stringify(logs).includes('"tok"'), "nor the token");

    fake.answer = answer({ success: true });
    assert.equal(await provider.verify("tok", "203.0.113.1"), true);
    assert.equal(provider.health?.().ok, true);
    assert.equal(logs.at(-1)?.event, "turnstile.recovered");
  });
});

Deno.test("the hostname and action of a solved token are checked against the configuration", async () => {
  await withFake(async ({ fake, verifyUrl, fetcher }) => {
    const logs: Record<string, unknown>[] = [];
    const verify = turnstileVerifier({
      secret: SECRET,
      verifyUrl,
      fetcher,
      hostnames: ["checker.example.org"],
      action: "scan",
      monitor: new TurnstileMonitor((e) => logs.push(e)),
    });
    fake.answer = answer({ success: true, hostname: "other.example", action: "scan" });
    assert.equal(await verify("tok", "203.0.113.1"), false);
    assert.deepEqual(logs.at(-1)?.errorCodes, ["hostname-mismatch"]);
    fake.answer = answer({ success: true, hostname: "checker.example.org", action: "login" });
    assert.equal(await verify("tok", "203.0.113.1"), false);
    assert.deepEqual(logs.at(-1)?.errorCodes, ["action-mismatch"]);
    fake.answer = answer({ success: true, hostname: "checker.example.org", action: "scan" });
    assert.equal(await verify("tok", "203.0.113.1"), true);
  });
  // The hostnames default to PUBLIC_URL's host; TURNSTILE_HOSTNAMES overrides them.
  assert.deepEqual(loadConfig({ PUBLIC_URL: "https://checker.example.org/" }).turnstileHostnames, [
    "checker.example.org",
  ]);
  assert.deepEqual(
    loadConfig({ PUBLIC_URL: "https://a.example", TURNSTILE_HOSTNAMES: "b.example, C.example" })
      .turnstileHostnames,
    ["b.example", "c.example"],
  );
  assert.deepEqual(loadConfig({}).turnstileHostnames, []);
});

Deno.test("a verify URL the fetcher refuses (private address) is logged, not silent", async () => {
  const fetcher = createGuardedFetcher({
    userAgent: "test",
    lookup: () => Promise.resolve([{ address: "10.1.2.3", family: 4 }]),
  });
  try {
    const logs: Record<string, unknown>[] = [];
    const verify = turnstileVerifier({
      secret: SECRET,
      verifyUrl: "https://verify.internal.example/siteverify",
      fetcher,
      monitor: new TurnstileMonitor((e) => logs.push(e)),
    });
    assert.equal(await verify("tok", "203.0.113.1"), false);
    assert.deepEqual(logs[0].errorCodes, ["verify-request-failed:blocked"]);
    assert.equal(logs[0].operatorSide, true);
  } finally {
    await fetcher.close();
  }
});

Deno.test("the start-up probe tells a wrong secret from a working setup", async () => {
  await withFake(async ({ fake, verifyUrl, fetcher }) => {
    fake.answer = answer({ success: false, "error-codes": ["invalid-input-response"] });
    assert.equal(await probeTurnstile({ secret: SECRET, verifyUrl, fetcher }), null);
    fake.answer = answer({ success: false, "error-codes": ["invalid-input-secret"] });
    assert.match(
      (await probeTurnstile({ secret: SECRET, verifyUrl, fetcher })) ?? "",
      /invalid-input-secret/,
    );
    fake.answer = { status: 502, body: "bad gateway" };
    assert.match((await probeTurnstile({ secret: SECRET, verifyUrl, fetcher })) ?? "", /502/);
  });
});
