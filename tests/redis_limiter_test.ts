/**
 * The Redis limiter (lib/kit/limits/limiter_redis.ts) against a real redis-server behind an Upstash-compatible
 * REST proxy (tests/helpers/redis_env.ts), through `npm:@upstash/redis`: the Lua script's rules,
 * the same decisions as the KV window logs on a random history, the refund when the KV commit
 * finds the domain in flight, the sign-in attempt windows, and failing closed (503) when Redis
 * cannot be reached. The API-level limit tests run in tests/limits_shared_test.ts.
 */
import assert from "node:assert/strict";
import { hasRedisServer, type RedisEnv, startRedisEnv, warnNoRedis } from "./helpers/redis_env.ts";
import { RedisLimiter } from "../lib/kit/limits/limiter_redis.ts";
import { KvLimiter, type Limiter, LimiterUnavailableError } from "../lib/kit/limits/limiter.ts";
import { type PoolSpec, type ScanJob } from "../lib/kit/storage/store.ts";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";
import { accountStoreOf, createStore } from "../lib/app/server.ts";

const HAVE_REDIS = await hasRedisServer();
if (!HAVE_REDIS) warnNoRedis("tests/redis_limiter_test.ts");

const HOUR = 3600_000;
const T0 = Date.parse("2026-11-21T10:00:00Z");

function redisTest(name: string, fn: (redis: RedisEnv) => Promise<void>): void {
  Deno.test({
    name: `[redis] ${name}`,
    ignore: !HAVE_REDIS,
    fn: async () => {
      const redis = await startRedisEnv();
      try {
        await fn(redis);
      } finally {
        await redis.close();
      }
    },
  });
}

const limiterOf = (redis: RedisEnv, service = "visibility") =>
  new RedisLimiter({ url: redis.url, token: redis.token, service });

const ip = (id: string, limit = 8): PoolSpec => ({ pool: "ip", id, limit, windowMs: HOUR });
const domain = (id: string, limit = 3): PoolSpec => ({ pool: "domain", id, limit, windowMs: HOUR });

redisTest("an admission counts in every pool or in none, and names the fullest pool", async (r) => {
  const l = limiterOf(r);
  for (let i = 0; i < 3; i++) {
    const a = await l.admit([ip("a"), domain("d.example")], T0 + i * 1000, `m${i}`);
    assert.deepEqual(a, { status: "admitted", used: [i + 1, i + 1] });
  }
  // The domain pool is full: nothing is added to the IP pool either.
  const refused = await l.admit([ip("a"), domain("d.example")], T0 + 5000, "m3");
  assert.equal(refused.status, "limited");
  assert.equal(refused.status === "limited" && refused.pool.pool, "domain");
  assert.equal(refused.status === "limited" && refused.retryAfterMs, HOUR - 5000);
  assert.equal((await l.usage(ip("a"), T0 + 5000)).used, 3);
  // Both full: the answer is the pool whose room comes back last.
  for (let i = 3; i < 8; i++) {
    assert.equal((await l.admit([ip("a")], T0 + 10_000 + i, `n${i}`)).status, "admitted");
  }
  // Both full: the answer is the pool whose room comes back last.
  for (let i = 0; i < 8; i++) {
    assert.equal((await l.admit([ip("a2")], T0 + 30_000 + i, `o${i}`)).status, "admitted");
  }
  const both = await l.admit([ip("a2"), domain("d.example")], T0 + 40_000, "m4");
  assert.equal(both.status === "limited" && both.pool.pool, "ip");
  assert.equal(both.status === "limited" && both.retryAfterMs, HOUR - 10_000);
  const ipOnly = await l.admit([ip("a"), domain("other.example")], T0 + 20_000, "m5");
  assert.equal(ipOnly.status === "limited" && ipOnly.pool.pool, "ip");
  assert.equal(ipOnly.status === "limited" && ipOnly.retryAfterMs, HOUR - 20_000);
});

redisTest("sliding window: room comes back exactly when the oldest admission leaves", async (r) => {
  const l = limiterOf(r);
  for (let i = 0; i < 8; i++) {
    assert.equal((await l.admit([ip("b")], T0 + i, `m${i}`)).status, "admitted");
  }
  const full = await l.admit([ip("b")], T0 + HOUR - 1, "x");
  assert.deepEqual(full.status === "limited" && full.retryAfterMs, 1);
  assert.equal((await l.admit([ip("b")], T0 + HOUR, "y")).status, "admitted");
  assert.equal((await l.admit([ip("b")], T0 + HOUR, "z")).status, "limited");
  assert.deepEqual(await l.usage(ip("b"), T0 + HOUR), { used: 8, resetMs: 1 });
});

redisTest(
  "keys are prefixed by the service and expire one window after the newest admission",
  async (r) => {
    await limiterOf(r, "visibility").admit([ip("c")], T0, "v1");
    await limiterOf(r, "schema").admit([ip("c", 1)], T0, "s1");
    const keys = (await r.client.command("KEYS", "*") as Uint8Array[]).map((k) =>
      new TextDecoder().decode(k)
    ).sort();
    assert.deepEqual(keys, ["schema:limits:ip:c", "visibility:limits:ip:c"]);
    const ttl = await r.client.command("PTTL", "visibility:limits:ip:c") as number;
    assert.ok(ttl > HOUR - 5000 && ttl <= HOUR, `ttl ${ttl}`);
    // The services do not share pools: schema's pool of 1 is full, visibility's is not.
    assert.equal((await limiterOf(r, "schema").admit([ip("c", 1)], T0, "s2")).status, "limited");
    assert.equal((await limiterOf(r, "visibility").admit([ip("c")], T0, "v2")).status, "admitted");
  },
);

redisTest(
  "a retried call with the same admission id is counted once; a refund takes it back",
  async (r) => {
    const l = limiterOf(r);
    assert.deepEqual(await l.admit([ip("d"), domain("e.example")], T0, "job-1"), {
      status: "admitted",
      used: [1, 1],
    });
    assert.deepEqual(await l.admit([ip("d"), domain("e.example")], T0, "job-1"), {
      status: "admitted",
      used: [1, 1],
    });
    await l.refund([ip("d"), domain("e.example")], "job-1");
    assert.equal((await l.usage(ip("d"), T0)).used, 0);
    assert.equal((await l.usage(domain("e.example"), T0)).used, 0);
  },
);

redisTest("a claim makes concurrent admissions of one domain wait: busy, then free", async (r) => {
  const l = limiterOf(r);
  const a = await l.admit([ip("e")], T0, "first", { claim: "domain:x.example", claimTtlMs: 5000 });
  assert.equal(a.status, "admitted");
  assert.deepEqual(
    await l.admit([ip("f")], T0, "second", { claim: "domain:x.example" }),
    { status: "busy" },
  );
  assert.equal((await l.usage(ip("f"), T0)).used, 0, "a busy answer counts nothing");
  await l.release("domain:x.example", "someone-else");
  assert.equal(
    (await l.admit([ip("f")], T0, "third", { claim: "domain:x.example" })).status,
    "busy",
  );
  await l.release("domain:x.example", "first");
  assert.equal(
    (await l.admit([ip("f")], T0, "fourth", { claim: "domain:x.example" })).status,
    "admitted",
  );
  // A claim whose holder died expires on its own.
  await l.admit([ip("g")], T0, "dies", { claim: "domain:y.example", claimTtlMs: 100 });
  await new Promise((res) => setTimeout(res, 150));
  assert.equal(
    (await l.admit([ip("g")], T0, "later", { claim: "domain:y.example" })).status,
    "admitted",
  );
});

redisTest("the same decisions as the KV window logs over a random history", async (r) => {
  const redis = limiterOf(r);
  const kv = await Deno.openKv(":memory:");
  try {
    const kvLimiter: Limiter = new KvLimiter(kv, (p, id) => ["limits", p, id], () => ["limits"]);
    let seed = 42;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let now = T0;
    for (let i = 0; i < 300; i++) {
      now += rand(4) * 60_000 + rand(1000);
      const pools = [ip(`ip${rand(3)}`, 4), domain(`d${rand(4)}.example`, 2)];
      const [a, b] = await Promise.all([
        redis.admit(pools, now, `m${i}`),
        kvLimiter.admit(pools, now, `m${i}`),
      ]);
      assert.deepEqual(a, b, `step ${i}`);
      for (const p of pools) {
        assert.deepEqual(await redis.usage(p, now), await kvLimiter.usage(p, now), `usage ${i}`);
      }
    }
  } finally {
    kv.close();
  }
});

redisTest("200 concurrent admissions into one pool admit exactly the limit", async (r) => {
  const l = limiterOf(r);
  const results = await Promise.all(
    Array.from(
      { length: 200 },
      (_, i) => l.admit([ip("h", 8), domain(`p${i}.example`)], T0, `m${i}`),
    ),
  );
  assert.equal(results.filter((x) => x.status === "admitted").length, 8);
  assert.equal(results.filter((x) => x.status === "limited").length, 192);
  assert.ok((r.requests["/pipeline"] ?? 0) + (r.requests["/"] ?? 0) > 0);
});

redisTest(
  "admitScan refunds the Redis admission when the KV commit finds the domain in flight",
  async (r) => {
    const kv = await Deno.openKv(":memory:");
    try {
      const real = limiterOf(r);
      const store0 = createStore(kv, "visibility", { limiter: real });
      // Another process marks the domain in flight right after this one's Redis admission.
      const racing: Limiter = {
        ...Object.fromEntries(
          (["refund", "release", "usage", "windows", "ping"] as const).map((
            m,
          ) => [m, real[m].bind(real)]),
        ) as Pick<Limiter, "refund" | "release" | "usage" | "windows" | "ping">,
        kind: "redis",
        admit: async (...args) => {
          const decision = await real.admit(...args);
          await kv.set(["visibility", "inflight", "race.example"], {
            jobId: "other-process",
            since: T0,
            credential: "pipeline",
          });
          return decision;
        },
      };
      const store = createStore(kv, "visibility", { limiter: racing });
      const job: ScanJob = {
        kind: "scan",
        service: "visibility",
        jobId: "job-race",
        target: { domain: "race.example", url: "https://race.example/", host: "race.example" },
        credential: "pipeline",
        enqueuedAt: T0,
      };
      const pools = [ip("198.51.100.1"), domain("race.example")];
      assert.deepEqual(await store.admitScan(job, pools, T0, 60_000), { status: "inflight" });
      assert.equal((await store0.poolUsage(pools[0], T0)).used, 0, "the IP slot was refunded");
      assert.equal((await store0.poolUsage(pools[1], T0)).used, 0, "the domain slot was refunded");
      assert.equal((await store.getInflight("race.example"))?.jobId, "other-process");
      assert.equal(await r.client.command("EXISTS", "visibility:claim:domain:race.example"), 0);
      // Without the race the same job is admitted, marked in flight and its claim dropped.
      await kv.delete(["visibility", "inflight", "race.example"]);
      assert.deepEqual(await store0.admitScan(job, pools, T0, 60_000), {
        status: "admitted",
        used: [1, 1],
      });
      assert.equal((await store0.getInflight("race.example"))?.jobId, "job-race");
      assert.equal(await r.client.command("EXISTS", "visibility:claim:domain:race.example"), 0);
    } finally {
      kv.close();
    }
  },
);

redisTest(
  "sign-in attempts share the Redis limiter: 10 per 15 minutes under concurrency",
  async (r) => {
    const kv = await Deno.openKv(":memory:");
    try {
      const store = createStore(kv, "visibility", { limiter: limiterOf(r) });
      const accounts = accountStoreOf(store);
      const results = await Promise.all(
        Array.from({ length: 50 }, () => accounts.admitAttempt("192.0.2.9", 10, 15 * 60_000, T0)),
      );
      assert.equal(results.filter((x) => x.ok).length, 10);
      const refused = results.find((x) => !x.ok);
      assert.deepEqual(refused, {
        ok: false,
        retryAfterMs: 15 * 60_000,
        pool: { pool: "auth", id: "192.0.2.9", limit: 10, windowMs: 15 * 60_000 },
      });
      const listed = await accounts.listAttempts(T0, 15 * 60_000);
      assert.deepEqual(listed, [{ ip: "192.0.2.9", used: 10, resetMs: 15 * 60_000 }]);
      assert.equal(await r.client.command("EXISTS", "visibility:limits:auth:192.0.2.9"), 1);
      const windows = await store.limiter.windows({ pool: "auth" });
      assert.deepEqual(windows.map((w) => [w.pool, w.id, w.times.length]), [[
        "auth",
        "192.0.2.9",
        10,
      ]]);
      assert.deepEqual(await store.listLimitWindows(), [], "the scan pools' view leaves them out");
    } finally {
      kv.close();
    }
  },
);

redisTest(
  "Redis unreachable or a wrong token: 503 with Retry-After, never an admission",
  async (r) => {
    const errors: string[] = [];
    const wrong = new RedisLimiter({
      url: r.url,
      token: "wrong",
      service: "visibility",
      onError: (e) => errors.push(e),
    });
    await assert.rejects(() => wrong.admit([ip("i")], T0, "m"), LimiterUnavailableError);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /Unauthorized/);
    assert.doesNotMatch(errors[0], /limits:ip|wrong|command/, "no keys, ids or token in it");
    const env = await startAppEnv({ redis: { url: r.url, token: r.token } });
    try {
      r.setDown(true);
      const res = await env.scan({ url: "down.example" }, { auth: `Bearer ${PIPELINE}` });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get("retry-after"), "5");
      const body = await res.json();
      assert.match(body.error, /rate limiter is unavailable/);
      assert.ok(!JSON.stringify(body).includes(r.token));
      assert.equal(await env.store.getInflight("down.example"), null, "nothing was enqueued");
      r.setDown(false);
      const ok = await env.scan({ url: "down.example" }, { auth: `Bearer ${PIPELINE}` });
      assert.equal(ok.status, 202);
      await ok.body?.cancel();
    } finally {
      r.setDown(false);
      await env.close();
    }
  },
);
