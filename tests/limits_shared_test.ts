/**
 * The spec's limits (../shared/api/visibility.md, "Limits"), run against every engine the limits
 * can live in: Deno KV written by one process (the default for a local file: decided in memory,
 * lib/kit/limits/limiter_local.ts, then one commit with the in-flight mark and the enqueue), Deno KV shared
 * by many processes (KV Connect or Deploy: read, decide, commit with versionstamp checks), and
 * Redis through the Upstash REST API (lib/kit/limits/limiter_redis.ts: one Lua script, then the KV
 * commit, with a refund when the domain went in flight meanwhile). The same tests, the same
 * numbers: per IP, per domain, per key, exact retryAfterSeconds, and 200 parallel requests that
 * admit exactly the limit.
 *
 * The Redis runs start Debian's redis-server and an Upstash-compatible REST proxy per test
 * (tests/helpers/redis_env.ts); without redis-server they are skipped, loudly.
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv, type TestEnv } from "./helpers/app_env.ts";
import { hasRedisServer, startRedisEnv, warnNoRedis } from "./helpers/redis_env.ts";

const HOUR = 3600_000;
const GOOD = { turnstileToken: "good-token" };

const HAVE_REDIS = await hasRedisServer();
if (!HAVE_REDIS) warnNoRedis("tests/limits_shared_test.ts");

/** Where the limits live in a run. */
type Backend = "kv" | "kv-shared" | "redis";
const BACKENDS: Backend[] = ["kv", "kv-shared", "redis"];

function test(
  backend: Backend,
  name: string,
  fn: (t: Deno.TestContext) => Promise<void>,
): void {
  Deno.test({
    name: `[limits:${backend}] ${name}`,
    ignore: backend === "redis" && !HAVE_REDIS,
    fn,
  });
}

/** A test API whose limits live in `backend` (a fresh redis-server for "redis"). */
async function limitEnv(
  backend: Backend,
  options: Parameters<typeof startAppEnv>[0] = {},
): Promise<TestEnv> {
  if (backend === "kv") return await startAppEnv({ ...options, exclusive: true });
  if (backend === "kv-shared") return await startAppEnv({ ...options, exclusive: false });
  const redis = await startRedisEnv();
  try {
    const env = await startAppEnv({ ...options, redis: { url: redis.url, token: redis.token } });
    const close = env.close;
    env.close = async () => {
      await close();
      await redis.close();
    };
    return env;
  } catch (error) {
    await redis.close();
    throw error;
  }
}

async function expectError(res: Response, status: number, error?: string | RegExp) {
  const body = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(typeof body.error, "string");
  if (typeof error === "string") assert.equal(body.error, error);
  else if (error) assert.match(body.error, error);
  return body;
}

for (const backend of BACKENDS) {
  test(
    backend,
    "per IP: 8 new scans an hour, a 9th is 429 with an accurate retryAfterSeconds",
    async () => {
      const env = await limitEnv(backend);
      try {
        const t0 = env.clock.now;
        for (let i = 0; i < 8; i++) {
          env.clock.now = t0 + i * 60_000;
          const res = await env.scan({ url: `ip${i}.example`, ...GOOD });
          assert.equal(res.status, 202, `scan ${i + 1}`);
          assert.equal(res.headers.get("ratelimit-remaining"), String(7 - i));
        }
        env.clock.now = t0 + 10 * 60_000;
        const res = await env.scan({ url: "ip8.example", ...GOOD });
        const body = await expectError(res, 429, /8 new scans per hour from this IP/);
        assert.equal(
          body.retryAfterSeconds,
          3000,
          "the oldest scan leaves the window 50 minutes later",
        );
        assert.equal(res.headers.get("retry-after"), "3000");
        // Other IPs are not affected; cache hits still work.
        assert.equal(
          (await env.scan({ url: "ip8.example", ...GOOD }, { ip: "203.0.113.11" })).status,
          202,
        );
        env.clock.now = t0 + HOUR + 1;
        assert.equal(
          (await env.scan({ url: "ip9.example", ...GOOD })).status,
          202,
          "room again after an hour",
        );
      } finally {
        await env.close();
      }
    },
  );

  test(backend, "PIPELINE_TOKEN shares the per-IP pool with the public form", async () => {
    const env = await limitEnv(backend);
    try {
      for (let i = 0; i < 4; i++) {
        assert.equal((await env.scan({ url: `f${i}.example`, ...GOOD })).status, 202);
      }
      for (let i = 0; i < 4; i++) {
        assert.equal(
          (await env.scan({ url: `p${i}.example` }, { auth: `Bearer ${PIPELINE}` })).status,
          202,
        );
      }
      await expectError(await env.scan({ url: "p9.example" }, { auth: `Bearer ${PIPELINE}` }), 429);
      await expectError(await env.scan({ url: "f9.example", ...GOOD }), 429);
    } finally {
      await env.close();
    }
  });

  test(backend, "per domain: 3 new scans an hour whoever asks", async () => {
    const env = await limitEnv(backend);
    try {
      const { key } = await env.newKey();
      const t0 = env.clock.now;
      for (let i = 0; i < 3; i++) {
        env.clock.now = t0 + i * 1000;
        const res = await env.scan({ url: "busy.example", forceRescan: true, ...GOOD }, {
          ip: `198.51.100.${i}`,
        });
        assert.equal(res.status, 202);
        await env.store.releaseInflight({ ...(await jobOf(env, "busy.example")) });
      }
      const res = await env.scan({ url: "busy.example", forceRescan: true }, {
        auth: `Bearer ${key}`,
      });
      const body = await expectError(res, 429, /3 new scans per hour of this domain/);
      assert.equal(body.retryAfterSeconds, 3598, "the first of the three leaves the window first");
    } finally {
      await env.close();
    }
  });

  test(backend, "a client key has its own 60/h pool, independent of the caller's IP", async () => {
    const env = await limitEnv(backend);
    try {
      const ip = "192.0.2.77";
      for (let i = 0; i < 8; i++) {
        assert.equal((await env.scan({ url: `a${i}.example`, ...GOOD }, { ip })).status, 202);
      }
      await expectError(await env.scan({ url: "a8.example", ...GOOD }, { ip }), 429);
      const { key } = await env.newKey();
      const other = await env.newKey("other");
      for (let i = 0; i < 60; i++) {
        const res = await env.scan({ url: `k${i}.example` }, { ip, auth: `Bearer ${key}` });
        assert.equal(res.status, 202, `key scan ${i + 1}`);
      }
      const res = await env.scan({ url: "k60.example" }, { ip, auth: `Bearer ${key}` });
      await expectError(res, 429, /60 new scans per hour for this API key/);
      assert.equal(
        (await env.scan({ url: "o1.example" }, { ip, auth: `Bearer ${other.key}` })).status,
        202,
      );
      const fromElsewhere = await env.scan({ url: "k61.example" }, {
        ip: "203.0.113.200",
        auth: `Bearer ${key}`,
      });
      await expectError(fromElsewhere, 429, /API key/);
    } finally {
      await env.close();
    }
  });

  test(backend, "200 parallel requests admit exactly the limit", async (t) => {
    const env = await limitEnv(backend);
    try {
      await t.step("one IP pool: exactly 8 of 200", async () => {
        const results = await Promise.all(
          Array.from(
            { length: 200 },
            // PIPELINE_TOKEN callers share the IP pool; no challenge round-trip under load.
            (_, i) =>
              env.scan({ url: `par${i}.example` }, {
                ip: "198.18.0.1",
                auth: `Bearer ${PIPELINE}`,
              }),
          ),
        );
        const statuses = results.map((r) => r.status);
        await Promise.all(results.map((r) => r.body?.cancel()));
        assert.equal(statuses.filter((s) => s === 202).length, 8);
        assert.equal(statuses.filter((s) => s === 429).length, 192);
      });
      await t.step("one key pool: exactly 60 of 200", async () => {
        const { key } = await env.newKey();
        const results = await Promise.all(
          Array.from(
            { length: 200 },
            (_, i) =>
              env.scan({ url: `kpar${i}.example` }, {
                ip: `10.1.${i % 250}.1`,
                auth: `Bearer ${key}`,
              }),
          ),
        );
        const statuses = results.map((r) => r.status);
        await Promise.all(results.map((r) => r.body?.cancel()));
        assert.equal(statuses.filter((s) => s === 202).length, 60);
        assert.equal(statuses.filter((s) => s === 429).length, 140);
      });
      await t.step("one domain, 200 callers: one scan starts, the rest join it", async () => {
        const results = await Promise.all(
          Array.from(
            { length: 200 },
            (_, i) => env.scan({ url: "same.example", ...GOOD }, { ip: `198.19.0.${i}` }),
          ),
        );
        await Promise.all(results.map((r) => r.body?.cancel()));
        assert.ok(results.every((r) => r.status === 202));
        const usage = await env.store.poolUsage({
          pool: "domain",
          id: "same.example",
          limit: 3,
          windowMs: HOUR,
        }, env.clock.now);
        assert.equal(usage.used, 1, "exactly one scan was admitted");
      });
    } finally {
      await env.close();
    }
  });

  test(backend, "the client IP comes from X-Forwarded-For only with TRUST_PROXY=1", async () => {
    const env = await limitEnv(backend, { env: { TRUST_PROXY: "0" } });
    try {
      // Without a trusted proxy every request here has the same (unknown) connection address, so
      // rotating X-Forwarded-For values cannot buy more than 8 scans.
      for (let i = 0; i < 8; i++) {
        assert.equal(
          (await env.scan({ url: `x${i}.example`, ...GOOD }, { ip: `203.0.113.${i}` })).status,
          202,
        );
      }
      await expectError(
        await env.scan({ url: "x8.example", ...GOOD }, { ip: "203.0.113.99" }),
        429,
      );
    } finally {
      await env.close();
    }
  });
}

async function jobOf(env: Awaited<ReturnType<typeof startAppEnv>>, domain: string) {
  const mark = (await env.store.getInflight(domain))!;
  return {
    kind: "scan" as const,
    service: "visibility",
    jobId: mark.jobId,
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: mark.credential,
    enqueuedAt: mark.since,
  };
}
