/**
 * The caps that keep the spec's pools from multiplying (lib/kit/limits/limits.ts CAPS): an account-wide
 * ceiling across its keys that key rotation does not reset, daily sign-up caps per address and
 * per IPv6 /48, and /48 pools beside the /64 for anonymous scans, sign-in attempts and the MCP
 * concurrency cap. The per-key pool of the spec still holds for a single key.
 */
import assert from "node:assert/strict";
import {
  admitAuthAttempt,
  createAccountKey,
  revokeKey,
  signUp,
} from "../lib/features/accounts/accounts.ts";
import { clientIp, ipv6Prefix48 } from "../lib/kit/net/client_ip.ts";
import { RateLimitedError } from "../lib/kit/errors.ts";
import { CAPS, LIMITS, poolsFor } from "../lib/kit/limits/limits.ts";
import { startAppEnv, type TestEnv } from "./helpers/app_env.ts";

const PASSWORD = "correct horse battery staple";

/** A /64 inside the /48 2001:db8:aa::/48, as lib/kit/net/client_ip.ts writes it. */
const in48 = (n: number) => clientIp(`2001:db8:aa:${n.toString(16)}::1`, undefined, false);

async function withEnv(run: (env: TestEnv) => Promise<void>) {
  const env = await startAppEnv({ exclusive: true });
  try {
    await run(env);
  } finally {
    await env.close();
  }
}

async function account(env: TestEnv, n: number, ip = `198.51.100.${n}`) {
  return await signUp(
    { email: `user${n}@example.org`, password: PASSWORD, turnstileToken: "good-token", ip },
    env.deps,
  );
}

async function scanWithKey(env: TestEnv, key: string, n: number): Promise<number> {
  const res = await env.scan({ url: `https://site${n}.example/` }, { auth: `Bearer ${key}` });
  await res.body?.cancel();
  return res.status;
}

Deno.test("IPv6 prefixes: a /64 belongs to its /48; IPv4 has none", () => {
  assert.equal(in48(1), "2001:db8:aa:1::/64");
  assert.equal(ipv6Prefix48(in48(1)), "2001:db8:aa::/48");
  assert.equal(ipv6Prefix48(in48(0xffff)), "2001:db8:aa::/48");
  assert.equal(
    ipv6Prefix48(clientIp("2001:0db8:00aa:0001::5", undefined, false)),
    "2001:db8:aa::/48",
  );
  assert.equal(ipv6Prefix48("203.0.113.7"), null);
  assert.equal(ipv6Prefix48("unknown"), null);
});

Deno.test("poolsFor: the spec's pools first, the caps after", () => {
  const key = {
    id: "k1",
    hash: "h",
    prefix: "p",
    name: "n",
    accountId: "acc1",
    createdAt: 0,
    revokedAt: null,
    lastUsedAt: null,
  };
  const keyPools = poolsFor({ kind: "key", ip: in48(1), key }, "a.example");
  assert.deepEqual(keyPools.map((p) => [p.pool, p.id, p.limit]), [
    ["key", "k1", LIMITS.key],
    ["domain", "a.example", LIMITS.domain],
    ["account", "acc1", CAPS.accountScans],
  ]);
  const anon = poolsFor({ kind: "challenge", ip: in48(2) }, "a.example");
  assert.deepEqual(anon.map((p) => [p.pool, p.id, p.limit]), [
    ["ip", "2001:db8:aa:2::/64", LIMITS.ip],
    ["domain", "a.example", LIMITS.domain],
    ["ip48", "2001:db8:aa::/48", CAPS.prefix48Scans],
  ]);
  assert.equal(poolsFor({ kind: "mcp", ip: "203.0.113.7" }, "a.example").length, 2);
});

Deno.test("one key still has its own 60 per hour", async () => {
  await withEnv(async (env) => {
    const acc = await account(env, 1);
    const key = await createAccountKey(env.deps, env.service.keyPrefix, acc.id, "ci");
    const statuses = [];
    for (let i = 0; i < LIMITS.key + 1; i++) statuses.push(await scanWithKey(env, key.key, i));
    assert.equal(statuses.filter((s) => s === 202).length, LIMITS.key);
    assert.equal(statuses.at(-1), 429);
  });
});

Deno.test("revoke and create does not reset an account: 120 an hour across all its keys", async () => {
  await withEnv(async (env) => {
    const acc = await account(env, 2);
    let admitted = 0;
    let n = 0;
    let lastError = "";
    // Three keys one after another, each revoked once it is full: the old multiplier gave 180.
    for (let round = 0; round < 3; round++) {
      const key = await createAccountKey(env.deps, env.service.keyPrefix, acc.id, `k${round}`);
      for (let i = 0; i < LIMITS.key; i++) {
        const res = await env.scan({ url: `https://r${n++}.example/` }, {
          auth: `Bearer ${key.key}`,
        });
        if (res.status === 202) admitted++;
        else lastError = (await res.json()).error;
        await res.body?.cancel().catch(() => {});
      }
      await revokeKey(env.deps, key.entry.id, { accountId: acc.id });
    }
    assert.equal(admitted, CAPS.accountScans);
    assert.match(lastError, /for this account, across all of its keys/);
  });
});

Deno.test("two keys used at once share the account ceiling", async () => {
  await withEnv(async (env) => {
    const acc = await account(env, 3);
    const a = await createAccountKey(env.deps, env.service.keyPrefix, acc.id, "a");
    const b = await createAccountKey(env.deps, env.service.keyPrefix, acc.id, "b");
    const c = await createAccountKey(env.deps, env.service.keyPrefix, acc.id, "c");
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => scanWithKey(env, [a, b, c][i % 3].key, 1000 + i)),
    );
    assert.equal(results.filter((s) => s === 202).length, CAPS.accountScans);
    // Another account is not affected.
    const other = await account(env, 4);
    const k = await createAccountKey(env.deps, env.service.keyPrefix, other.id, "x");
    assert.equal(await scanWithKey(env, k.key, 9999), 202);
  });
});

Deno.test("rotating IPv6 /64s inside one /48 stops at the /48 cap", async () => {
  await withEnv(async (env) => {
    let admitted = 0;
    for (let i = 0; i < 40; i++) {
      const res = await env.scan(
        { url: `https://v6-${i}.example/`, turnstileToken: "good-token" },
        {
          ip: `2001:db8:aa:${i.toString(16)}::1`,
        },
      );
      if (res.status === 202) admitted++;
      await res.body?.cancel();
    }
    assert.equal(admitted, CAPS.prefix48Scans);
    // A /64 of another /48 has its own pools.
    const res = await env.scan(
      { url: "https://elsewhere.example/", turnstileToken: "good-token" },
      {
        ip: "2001:db8:bb:1::1",
      },
    );
    assert.equal(res.status, 202);
    await res.body?.cancel();
  });
});

Deno.test("the /64 keeps its own 8 inside the /48", async () => {
  await withEnv(async (env) => {
    const statuses = [];
    for (let i = 0; i < 9; i++) {
      const res = await env.scan({
        url: `https://same-${i}.example/`,
        turnstileToken: "good-token",
      }, {
        ip: `2001:db8:cc:1::${i + 1}`,
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses.slice(0, 8), Array(8).fill(202));
    assert.equal(statuses[8], 429);
  });
});

Deno.test("accounts per day: 3 per address, 6 per IPv6 /48, whatever the e-mail", async () => {
  await withEnv(async (env) => {
    for (let i = 0; i < CAPS.signupsPerAddress; i++) await account(env, 10 + i, "192.0.2.50");
    await assert.rejects(account(env, 20, "192.0.2.50"), (e) => {
      assert.ok(e instanceof RateLimitedError);
      assert.match(e.message, /at most 3 per day/);
      return true;
    });
    // The next day it may again.
    env.clock.now += 24 * 3600_000 + 1000;
    await account(env, 21, "192.0.2.50");

    let created = 0;
    for (let i = 0; i < 10; i++) {
      try {
        await account(env, 100 + i, in48(0x100 + i));
        created++;
      } catch (e) {
        assert.ok(e instanceof RateLimitedError);
      }
    }
    assert.equal(created, CAPS.signupsPer48);
  });
});

Deno.test("sign-in attempts count in the /48 too", async () => {
  await withEnv(async (env) => {
    let admitted = 0;
    for (let i = 0; i < 40; i++) {
      try {
        await admitAuthAttempt(env.deps, in48(0x200 + i));
        admitted++;
      } catch (e) {
        assert.ok(e instanceof RateLimitedError);
      }
    }
    assert.equal(admitted, CAPS.authAttemptsPer48);
  });
});

Deno.test("MCP: requests in progress are capped per /48 as well as per /64", async () => {
  const env = await startAppEnv({ exclusive: true });
  try {
    // scan_site of a domain that is never finished holds its request for the scan wait.
    const hold = (ip: string, n: number) =>
      Promise.resolve(env.app.request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          "x-forwarded-for": ip,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: n,
          method: "tools/call",
          params: { name: "scan_site", arguments: { url: `held-${n}.example` } },
        }),
      }));
    const held = Array.from(
      { length: CAPS.mcpConcurrentPer48 },
      (_, i) => hold(`2001:db8:dd:${i.toString(16)}::1`, i),
    );
    // Let them all start, then one more from yet another /64 of the same /48.
    await new Promise((r) => setTimeout(r, 200));
    const extra = await hold("2001:db8:dd:ff::1", 99);
    assert.equal(extra.status, 429);
    assert.match((await extra.json()).error.message, /network \(\/48\)/);
    const responses = await Promise.all(held);
    for (const r of responses) await r.body?.cancel();
  } finally {
    await env.close();
  }
});
