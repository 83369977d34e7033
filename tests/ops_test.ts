/**
 * Operations: /healthz (KV, queue backlog, limiter; 503 when one fails; no secret in it), the
 * structured logs (one JSON line per request, never a credential), the periodic clean-up with an
 * injected clock, the WASM password backend used where FFI is not available (Deno Deploy), and
 * the polled job queue used where KV has no queues (KV Connect).
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv, type TestEnv } from "./helpers/app_env.ts";
import { hasRedisServer, startRedisEnv } from "./helpers/redis_env.ts";
import { createHandler } from "../lib/app/app.ts";
import { ReportCache } from "../lib/kit/storage/report_cache.ts";
import { ipClass, jsonLogger, redact, withRequestLog } from "../lib/kit/log.ts";
import { checkHealth, storeWriteHealth } from "../lib/kit/health.ts";
import { errorAnswer } from "../lib/kit/web/errors.ts";
import { KvOpenError, openKv } from "../lib/kit/storage/kv_open.ts";
import { cleanUp } from "../lib/kit/storage/cleanup.ts";
import { sha256Hex } from "../lib/kit/auth/crypto.ts";
import {
  closePasswordWorker,
  hashPassword,
  passwordBackend,
  usePasswordBackend,
  verifyPassword,
} from "../lib/kit/auth/password.ts";
import { KvPolledQueue } from "../lib/kit/storage/job_queue.ts";
import { ScanRecordSchema } from "../lib/engines/visibility/record.ts";
import { accountStoreOf, createStore } from "../lib/app/server.ts";

const HAVE_REDIS = await hasRedisServer();
const DAY = 24 * 3600_000;

Deno.test("[ops] /healthz: KV, queue and limiter checked; 200 when healthy, 503 when not", async () => {
  const env = await startAppEnv();
  try {
    const res = await env.app.request("/healthz");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const body = await res.json();
    assert.equal(body.ok, true);
    assert.equal(body.service, "visibility");
    assert.equal(body.version, "0.1.0");
    assert.equal(body.kv.ok, true);
    assert.equal(typeof body.kv.ms, "number");
    assert.deepEqual(body.limiter.kind, "kv");
    assert.equal(body.limiter.ok, true);
    assert.deepEqual({ ...body.queue }, { ok: true, kind: "queue", inflight: 0, oldestMs: null });
    // A scan admitted and waiting shows in the backlog.
    const scan = await env.scan({ url: "queued.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(scan.status, 202);
    const health = await checkHealth(env.store, () => env.clock.now + 5000);
    assert.equal(health.queue.inflight, 1);
    assert.equal(health.queue.oldestMs, 5000);
    assert.equal("threads" in health, false, "no threads, no section");
    // Worker processes: killed workers are counted and replaced; no slot is ever lost, so the
    // section is ok however many were killed.
    const processes = {
      kind: "process" as const,
      workers: 2,
      busy: 1,
      waiting: 3,
      killed: 7,
      lost: 0,
      maxWorkers: 2,
    };
    const killed = await checkHealth(env.store, Date.now, processes);
    assert.equal(killed.ok, true);
    assert.deepEqual(killed.threads, {
      ok: true,
      kind: "process",
      max: 2,
      busy: 1,
      waiting: 3,
      killed: 7,
      lost: 0,
    });
    // Scan threads (SCAN_ISOLATION=thread) lost in code Deno cannot stop: one of two is a warning
    // in the body; all of them is 503, as no scan can run until a restart.
    const threads = { ...processes, kind: "thread" as const, killed: 0 };
    const oneLost = await checkHealth(env.store, Date.now, { ...threads, lost: 1 });
    assert.equal(oneLost.ok, true);
    assert.equal(oneLost.threads?.lost, 1);
    const allLost = await checkHealth(env.store, Date.now, { ...threads, lost: 2 });
    assert.equal(allLost.ok, false);
    assert.equal(allLost.threads?.ok, false);
    assert.equal((await env.app.request("/healthz", { method: "POST" })).status, 405);
    // KV gone: 503, and the body says which check failed.
    const kv = await Deno.openKv(":memory:");
    const store = createStore(kv, "visibility");
    kv.close();
    const broken = await checkHealth(store);
    assert.equal(broken.ok, false);
    assert.equal(broken.kv.ok, false);
  } finally {
    await env.close();
  }
});

/** The error Deno KV throws for a write when its disk is full (measured on a full tmpfs). */
const DISK_FULL = "database or disk is full";

/** A KV whose writes (set, delete, enqueue, atomic commits) fail as on a full disk while `full`. */
function fillableKv(kv: Deno.Kv, state: { full: boolean }): Deno.Kv {
  const fail = () => Promise.reject(new TypeError(DISK_FULL));
  return new Proxy(kv, {
    get(target, prop) {
      if (state.full && (prop === "set" || prop === "delete" || prop === "enqueue")) return fail;
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const wrapped: Deno.AtomicOperation = new Proxy(op, {
            get(t, p) {
              if (p === "commit" && state.full) return fail;
              const v = Reflect.get(t, p, t);
              return typeof v === "function"
                ? (...args: unknown[]) => {
                  const r = v.apply(t, args);
                  return r === t ? wrapped : r;
                }
                : v;
            },
          });
          return wrapped;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

Deno.test("[ops] a store that cannot write: /healthz 503, new scans 503 with Retry-After, then recovery", async () => {
  const state = { full: false };
  const env = await startAppEnv({ wrapKv: (kv) => fillableKv(kv, state) });
  try {
    const healthy = await checkHealth(env.store, () => env.clock.now);
    assert.equal(healthy.ok, true);
    assert.deepEqual(healthy.kv.write.ok, true);
    state.full = true;
    // The admission's commit fails: a clear 503 the client can retry, never a generic 500.
    const refused = await env.scan({ url: "full-disk.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "30");
    assert.match(refused.headers.get("content-type") ?? "", /application\/json/);
    assert.match((await refused.json()).error, /cannot store results/);
    // /healthz fails and says it is the store's writes.
    const res = await env.app.request("/healthz");
    assert.equal(res.status, 503);
    const body = await res.json();
    assert.equal(body.ok, false);
    assert.equal(body.kv.ok, false);
    assert.equal(body.kv.write.ok, false);
    assert.ok(!JSON.stringify(body).includes(DISK_FULL), "no dependency error text");
    // Space again: the probe writes, the mark clears, scans are admitted.
    state.full = false;
    const back = await checkHealth(env.store, () => env.clock.now);
    assert.equal(back.ok, true);
    const admitted = await env.scan({ url: "full-disk.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(admitted.status, 202);
    await admitted.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("[ops] a write failure marks the store unwritable for 30 s of the injected clock", async () => {
  const state = { full: false };
  const env = await startAppEnv({ wrapKv: (kv) => fillableKv(kv, state) });
  try {
    state.full = true;
    const first = await env.scan({ url: "a.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(first.status, 503);
    await first.body?.cancel();
    // The disk has room again, but nothing has probed it: scans are still refused for a while
    // (a store that just failed a write is not trusted with a record)...
    state.full = false;
    env.clock.now += 29_000;
    const held = await env.scan({ url: "b.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(held.status, 503);
    assert.equal(held.headers.get("retry-after"), "30");
    await held.body?.cancel();
    // ...and admitted once the mark is 30 s old.
    env.clock.now += 1_000;
    const later = await env.scan({ url: "b.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(later.status, 202);
    await later.body?.cancel();
  } finally {
    await env.close();
  }
});

Deno.test("[ops] any request whose KV write fails for lack of space: 503 + Retry-After, logged, store marked", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "visibility");
    const logs: Record<string, unknown>[] = [];
    const a = errorAnswer(new TypeError(DISK_FULL), { path: "/account/signup", method: "POST" }, {
      store,
      now: () => 5_000,
      log: (e) => logs.push(e),
    });
    assert.equal(a.status, 503);
    assert.equal(a.headers["Retry-After"], "30");
    assert.match(String(a.body.error), /cannot store results/);
    assert.equal(logs[0].event, "store.write_failed");
    assert.equal(storeWriteHealth(kv).writable(5_000 + 29_999), false);
    assert.equal(storeWriteHealth(kv).writable(5_000 + 30_000), true);
    // Other errors are still ours: a 500.
    assert.equal(
      errorAnswer(new TypeError("boom"), { path: "/", method: "GET" }, {
        log: () => {},
      }).status,
      500,
    );
  } finally {
    kv.close();
  }
});

Deno.test("[ops] a KV file that cannot be written at start-up: KvOpenError with what to do", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv-ro-" });
  try {
    // A path whose directory is a file: creating the lock file fails, as on a read-only mount.
    await Deno.writeTextFile(`${dir}/not-a-dir`, "");
    await assert.rejects(
      () =>
        openKv({ onDeploy: false, kvPath: `${dir}/not-a-dir/kv.sqlite3`, kvAccessTokenSet: false }),
      (e: unknown) => {
        assert.ok(e instanceof KvOpenError, String(e));
        assert.match(e.message, /cannot be opened for writing/);
        assert.match(e.message, /not mounted read-only|disk is not full/);
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "[ops] /healthz with the Redis limiter: 503 while Redis is down, never its URL or token",
  ignore: !HAVE_REDIS,
  fn: async () => {
    const redis = await startRedisEnv();
    const env = await startAppEnv({ redis: { url: redis.url, token: redis.token } });
    try {
      const up = await (await env.app.request("/healthz")).json();
      assert.equal(up.limiter.kind, "redis");
      assert.equal(up.limiter.ok, true);
      redis.setDown(true);
      const health = await checkHealth(env.store);
      assert.equal(health.ok, false);
      assert.equal(health.limiter.ok, false);
      assert.equal(health.kv.ok, true);
      await new Promise((r) => setTimeout(r, 1000)); // the route keeps an answer for 1 s
      const res = await env.app.request("/healthz");
      assert.equal(res.status, 503);
      const text = await res.text();
      assert.ok(!text.includes(redis.token) && !text.includes(redis.url), text);
    } finally {
      redis.setDown(false);
      await env.close();
      await redis.close();
    }
  },
});

Deno.test("[ops] logs: one JSON line per request, the client's network only, no credential anywhere", async () => {
  const env = await startAppEnv();
  try {
    const lines: string[] = [];
    const handler = withRequestLog(createHandler(env.app, new ReportCache()), {
      log: jsonLogger({ service: "visibility" }, (l) => lines.push(l)),
      trustProxy: true,
    });
    const { key } = await env.newKey();
    const secrets = [
      PIPELINE,
      key,
      "query-secret-4711",
      "cookie-secret-0815",
      "pw-secret-correct-horse",
    ];
    const send = (path: string, init: RequestInit = {}) =>
      Promise.resolve(handler(new Request(`http://localhost${path}`, init))).then(async (r) => {
        await r.body?.cancel();
        return r.status;
      });
    const xff = { "x-forwarded-for": "203.0.113.77" };
    const statuses = [
      await send("/api/scan", {
        method: "POST",
        headers: {
          ...xff,
          "content-type": "application/json",
          authorization: `Bearer ${PIPELINE}`,
        },
        body: JSON.stringify({ url: "logged.example" }),
      }),
      await send("/api/scan", {
        method: "POST",
        headers: { ...xff, "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ url: "logged2.example" }),
      }),
      await send("/api/report/logged.example.json?token=query-secret-4711", { headers: xff }),
      await send("/account/login", {
        method: "POST",
        headers: {
          ...xff,
          "content-type": "application/x-www-form-urlencoded",
          cookie: "sid=cookie-secret-0815",
        },
        body: "email=a%40example.com&password=pw-secret-correct-horse&turnstileToken=x&csrf=y",
      }),
      await send("/healthz", { headers: { "x-forwarded-for": "2001:db8:1:2:3:4:5:6" } }),
    ];
    assert.equal(lines.length, statuses.length, "one line per request");
    const entries = lines.map((l) => JSON.parse(l));
    entries.forEach((e, i) => {
      assert.equal(e.event, "http.request");
      assert.equal(e.service, "visibility");
      assert.equal(e.status, statuses[i]);
      assert.equal(typeof e.ms, "number");
      assert.ok(!Number.isNaN(Date.parse(e.ts)));
    });
    assert.deepEqual(entries.map((e) => `${e.method} ${e.path}`), [
      "POST /api/scan",
      "POST /api/scan",
      "GET /api/report/logged.example.json",
      "POST /account/login",
      "GET /healthz",
    ]);
    assert.deepEqual(entries.map((e) => e.ip), [
      "203.0.113.0/24",
      "203.0.113.0/24",
      "203.0.113.0/24",
      "203.0.113.0/24",
      "2001:db8:1::/48",
    ]);
    for (const line of lines) {
      for (const secret of secrets) assert.ok(!line.includes(secret), `${secret} in ${line}`);
      assert.doesNotMatch(line, /203\.0\.113\.77/, "never the full address");
    }
  } finally {
    await env.close();
  }
});

Deno.test("[ops] logs: credentials are scrubbed from any field, however they got there", () => {
  const lines: string[] = [];
  const log = jsonLogger({ service: "schema" }, (l) => lines.push(l));
  log({
    event: "scan.finished",
    failure: "fetch https://user:hunter2@site.example/ failed; Authorization: Bearer abc.def.ghi",
    headers: { authorization: "Bearer xyz", cookie: "sid=1", "x-ok": "fine" },
    password: "p",
    token: "t",
    apiKey: "k",
    note:
      "created uvk_0123456789abcdefghijABCDEFGHIJ and $argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    nested: [{ secret: "s", domain: "shop.example" }],
  });
  const e = JSON.parse(lines[0]);
  assert.equal(e.service, "schema");
  assert.equal(
    e.failure,
    "fetch https://[redacted]@site.example/ failed; Authorization: Bearer [redacted]",
  );
  assert.deepEqual(e.headers, {
    authorization: "[redacted]",
    cookie: "[redacted]",
    "x-ok": "fine",
  });
  assert.equal(e.password, "[redacted]");
  assert.equal(e.token, "[redacted]");
  assert.equal(e.apiKey, "[redacted]");
  assert.equal(e.note, "created u?k_[redacted] and $argon2[redacted]");
  assert.deepEqual(e.nested, [{ secret: "[redacted]", domain: "shop.example" }]);
  assert.deepEqual(redact({ domain: "a.example", durationMs: 5 }), {
    domain: "a.example",
    durationMs: 5,
  });
  assert.equal(ipClass("198.51.100.23"), "198.51.100.0/24");
  assert.equal(ipClass("2001:db8:aa:bb::/64"), "2001:db8:aa::/48");
  assert.equal(ipClass("unknown"), "unknown");
});

Deno.test("[ops] clean-up deletes expired records, sessions and counters, and only those", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = Date.parse("2026-11-21T12:00:00Z");
    const v = (...k: Deno.KvKeyPart[]) => ["visibility", ...k];
    const record = (domain: string, at: number) => ({
      record: { domain, status: "ok", scannedAt: new Date(at).toISOString(), result: null },
      failure: null,
      credential: "pipeline",
      durationMs: 1,
      jobId: "j",
    });
    const session = (expiresAt: number) => ({ accountId: "a", createdAt: 0, expiresAt, csrf: "c" });
    const [expired, live, expiredAdmin] = [sha256Hex("t1"), sha256Hex("t2"), sha256Hex("t3")];
    await kv.atomic()
      .set(v("records", "old.example"), record("old.example", now - 31 * DAY))
      .set(v("records", "recent.example"), record("recent.example", now - 29 * DAY))
      .set(v("scans_by_time", now - 8 * DAY, "old.example"), {})
      .set(v("scans_by_time", now - DAY, "recent.example"), {})
      .set(v("inflight", "stuck.example"), { jobId: "x", since: now - 3600_000, credential: "key" })
      .set(v("inflight", "running.example"), { jobId: "y", since: now - 10_000, credential: "key" })
      .set(v("limits", "ip", "192.0.2.1"), [now - 2 * 3600_000, now - 3600_000])
      .set(v("limits", "ip", "192.0.2.2"), [now - 2 * 3600_000, now - 10 * 60_000])
      .set(v("auth_attempts", "192.0.2.3"), [now - 20 * 60_000])
      .set(v("auth_attempts", "192.0.2.4"), [now - 60_000])
      .set(v("sessions", expired), session(now - 1))
      .set(v("sessions", live), session(now + 3600_000))
      .set(v("admin_sessions", expiredAdmin), session(now))
      .set(v("session_flash", expired), { iv: "", data: "" })
      .set(v("session_flash", live), { iv: "", data: "" })
      .set(["schema", "records", "old.example"], record("old.example", now - 40 * DAY))
      .commit();
    const stores = [createStore(kv, "visibility"), createStore(kv, "schema")];
    const accounts = Object.fromEntries(stores.map((s) => [s.service, accountStoreOf(s)]));
    const options = { now, retentionMs: 30 * DAY, inflightTtlMs: 80_000, accounts };
    const report = await cleanUp(stores, options);
    assert.deepEqual(report.visibility, {
      records: 1,
      scanLog: 1,
      inflight: 1,
      limitWindows: 1,
      sessions: 2,
      flashes: 1,
      attemptWindows: 1,
      historyEntries: 0,
      historyParts: 0,
    });
    assert.equal(report.schema.records, 1);
    const left: string[] = [];
    for await (const e of kv.list({ prefix: [] })) {
      left.push(e.key.slice(0, 3).map(String).join("/"));
    }
    assert.deepEqual(
      left.sort(),
      [
        "visibility/auth_attempts/192.0.2.4",
        "visibility/inflight/running.example",
        "visibility/limits/ip",
        `visibility/records/recent.example`,
        `visibility/scans_by_time/${now - DAY}`,
        `visibility/session_flash/${live}`,
        `visibility/sessions/${live}`,
      ].sort(),
    );
    // A second run finds nothing more to do.
    const again = await cleanUp(stores, options);
    assert.ok(Object.values(again.visibility).every((n) => n === 0));
  } finally {
    kv.close();
  }
});

Deno.test("[ops] passwords without FFI: WASM argon2id in a worker, interchangeable with native", async () => {
  try {
    usePasswordBackend("wasm");
    assert.equal(await passwordBackend(), "wasm-worker");
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    const wasm = await hashPassword("correct horse battery staple");
    const elapsed = performance.now() - started;
    clearInterval(timer);
    assert.match(wasm, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // Hashing on this thread would hold the timer for the whole hash (0-1 ticks); off it, a 5 ms
    // timer ticks while the hash runs. Only "at least twice": a loaded machine delays timers.
    assert.ok(
      elapsed < 20 || ticks >= 2,
      `the event loop kept running (${ticks} ticks in ${elapsed.toFixed(0)} ms)`,
    );
    assert.equal(await verifyPassword(wasm, "correct horse battery staple"), true);
    assert.equal(await verifyPassword(wasm, "correct horse battery stapler"), false);
    closePasswordWorker();
    usePasswordBackend("native");
    assert.equal(await passwordBackend(), "native");
    assert.equal(
      await verifyPassword(wasm, "correct horse battery staple"),
      true,
      "native reads WASM's",
    );
    const native = await hashPassword("another long password");
    usePasswordBackend("wasm");
    assert.equal(
      await verifyPassword(native, "another long password"),
      true,
      "WASM reads native's",
    );
  } finally {
    closePasswordWorker();
    usePasswordBackend("auto");
  }
});

Deno.test("[ops] polled job queue (KV Connect has no queues): a scan runs end to end", async () => {
  const env: TestEnv = await startAppEnv({ worker: true, queue: "poll" });
  try {
    const res = await env.scan({ url: "good.test" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(res.status, 202);
    let done: Response | null = null;
    for (let i = 0; i < 150 && done?.status !== 200; i++) {
      await done?.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
      done = await env.report("good.test");
    }
    assert.equal(done?.status, 200);
    assert.equal(ScanRecordSchema.parse(await done!.json()).status, "ok");
    const health = await (await env.app.request("/healthz")).json();
    assert.equal(health.queue.kind, "poll");
    assert.equal(await env.store.queue.backlog(), 0, "the job entry is gone once stored");
  } finally {
    await env.close();
  }
});

Deno.test("[ops] polled job queue: a failed delivery comes back after its lease, then is removed", async () => {
  const kv = await Deno.openKv(":memory:");
  const queue = new KvPolledQueue(kv, { leaseMs: 150, pollMs: 20, log: () => {} });
  const calls: unknown[] = [];
  const listening = queue.listen((message) => {
    calls.push(message);
    return calls.length === 1 ? Promise.reject(new Error("crash")) : Promise.resolve();
  });
  try {
    const op = kv.atomic();
    queue.add(op, { jobId: "j1", enqueuedAt: 1 });
    await op.commit();
    for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(calls.length, 2, "redelivered once the lease ended");
    for (let i = 0; i < 50 && (await queue.backlog()) !== 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(await queue.backlog(), 0);
  } finally {
    await listening.stop();
    kv.close();
  }
});
