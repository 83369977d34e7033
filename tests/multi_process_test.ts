/**
 * Beyond one process, with real main.ts subprocesses on loopback ports:
 * - a local SQLite KV file is for one process: a second one on the same file stops at once, with
 *   a message that says what to do instead;
 * - two server processes sharing Upstash Redis (a real redis-server behind the REST proxy of
 *   tests/helpers/redis_env.ts) never admit more than the limit between them;
 * - the Deno Deploy mode (DENO_DEPLOYMENT_ID) serves with no file-system write permission at all
 *   and no FFI (passwords on the WASM backend);
 * - a KV Connect URL in KV_PATH: the access token goes to the metadata endpoint and nowhere else,
 *   and a refused token stops start-up with a clear message.
 *
 * KV Connect's data path is not exercised: no denokv server can be run here (it is a Rust binary
 * that no npm package ships), so only the metadata exchange is tested against a local endpoint.
 */
import assert from "node:assert/strict";
import { hasRedisServer, startRedisEnv, warnNoRedis } from "./helpers/redis_env.ts";
import { PIPELINE } from "./helpers/app_env.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("..", import.meta.url).pathname;
const HAVE_REDIS = await hasRedisServer();
if (!HAVE_REDIS) warnNoRedis("tests/multi_process_test.ts");

/** Off-site lookups and scans go to a closed loopback port: nothing leaves this machine. */
const OFFLINE = {
  WIKIDATA_API_URL: "http://offsite.test/w/api.php",
  WIKIPEDIA_API_URL: "http://offsite.test/w/api.php",
  COMMONCRAWL_INDEX_URL: "http://offsite.test",
  OFFSITE_TIMEOUT_MS: "300",
  NO_COLOR: "1",
};

interface Server {
  base: string;
  pid: number;
  output(): string;
  /** Resolves with the exit code once the process has ended (after kill() or on its own). */
  exited: Promise<number>;
  kill(): Promise<void>;
}

/** Starts main.ts with `env` (PORT=0) and `flags`; resolves once it listens, or it exited. */
async function startServer(
  env: Record<string, string>,
  flags: string[] = ["-A"],
): Promise<Server> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, "--unstable-kv", "--unstable-cron", "--no-check", MAIN],
    env: { ...OFFLINE, ...env, PORT: "0" },
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    for await (const chunk of s) text += decoder.decode(chunk, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]).catch(() => {});
  const exited = child.status.then(async (s) => {
    await pumps;
    return s.code;
  });
  let done = false;
  exited.then(() => done = true);
  const until = Date.now() + 30_000;
  let port = 0;
  while (!port && !done && Date.now() < until) {
    const m = text.match(/Listening on http:\/\/[^:]+:(\d+)\//);
    if (m) port = Number(m[1]);
    else await new Promise((r) => setTimeout(r, 25));
  }
  const kill = async () => {
    if (!done) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }
    await exited;
  };
  if (!port && !done) {
    await kill();
    throw new Error(`server did not start:\n${text}`);
  }
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, output: () => text, exited, kill };
}

Deno.test("[multi] two processes on one local KV file: the second stops at once, saying why", async () => {
  const dir = await Deno.makeTempDir();
  const first = await startServer({ KV_PATH: `${dir}/kv.sqlite3` });
  try {
    const second = await startServer({ KV_PATH: `${dir}/kv.sqlite3` });
    const code = await second.exited;
    assert.equal(code, 3, second.output());
    assert.match(second.output(), /already in use by another process \(pid \d+\)/);
    assert.ok(second.output().includes(`(pid ${first.pid})`), "it names the process holding it");
    assert.match(second.output(), /ONE process only/);
    assert.match(second.output(), /KV Connect URL/);
    assert.match(second.output(), /DENO_KV_ACCESS_TOKEN/);
    // The first one is unharmed.
    const res = await fetch(`${first.base}/healthz`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    await first.kill();
  }
  // Once the first has gone, the file is free again (a crash releases the lock too).
  const again = await startServer({ KV_PATH: `${dir}/kv.sqlite3` });
  try {
    assert.ok(again.base.endsWith(String(new URL(again.base).port)));
    const res = await fetch(`${again.base}/healthz`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    await again.kill();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "[multi] two server processes sharing Upstash Redis admit 8 per IP between them, not 16",
  ignore: !HAVE_REDIS,
  fn: async () => {
    const redis = await startRedisEnv();
    const dir = await Deno.makeTempDir();
    const domains = Array.from({ length: 40 }, (_, i) => `par${i}.test`);
    const env = (name: string) => ({
      KV_PATH: `${dir}/${name}.sqlite3`,
      UPSTASH_REDIS_REST_URL: redis.url,
      UPSTASH_REDIS_REST_TOKEN: redis.token,
      PIPELINE_TOKEN: PIPELINE,
      TRUST_PROXY: "1",
      SCAN_RESOLVE: [...domains, "extra0.test", "extra1.test", "offsite.test"]
        .map((d) => `${d}=127.0.0.1:9`).join(","),
      SCAN_TIMEOUT_MS: "2000",
      LOG_REQUESTS: "0",
    });
    const servers = await Promise.all([startServer(env("a")), startServer(env("b"))]);
    try {
      for (const s of servers) {
        const health = await (await fetch(`${s.base}/healthz`)).json();
        assert.equal(health.limiter.kind, "redis");
        assert.equal(health.ok, true, JSON.stringify(health));
        assert.match(s.output(), /Rate limits: Upstash Redis at http:\/\/127\.0\.0\.1:\d+\//);
        assert.ok(!s.output().includes(redis.token), "the token is never printed");
      }
      const results = await Promise.all(domains.map(async (domain, i) => {
        const res = await fetch(`${servers[i % 2].base}/api/scan`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${PIPELINE}`,
            "x-forwarded-for": "198.51.100.77",
          },
          body: JSON.stringify({ url: domain }),
        });
        await res.body?.cancel();
        return { status: res.status, server: i % 2 };
      }));
      const admitted = results.filter((r) => r.status === 202);
      assert.equal(admitted.length, 8, JSON.stringify(results));
      assert.equal(results.filter((r) => r.status === 429).length, 32);
      assert.equal(
        await redis.client.command("ZCARD", "visibility:limits:ip:198.51.100.77"),
        8,
        "exactly 8 admissions in the shared pool",
      );
      // A ninth from either process, later, is still refused with the shared retry-after.
      for (const [i, s] of servers.entries()) {
        const res = await fetch(`${s.base}/api/scan`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${PIPELINE}`,
            "x-forwarded-for": "198.51.100.77",
          },
          body: JSON.stringify({ url: `extra${i}.test` }),
        });
        assert.equal(res.status, 429);
        const body = await res.json();
        assert.ok(body.retryAfterSeconds > 3500 && body.retryAfterSeconds <= 3600);
      }
    } finally {
      await Promise.all(servers.map((s) => s.kill()));
      await redis.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("[multi] Deno Deploy mode runs with no file-system writes and no FFI", async () => {
  const manifest = JSON.parse(await Deno.readTextFile(`${ROOT}static/build/manifest.json`));
  const server = await startServer({
    DENO_DEPLOYMENT_ID: "local-check",
    KV_PATH: ":memory:",
    PIPELINE_TOKEN: PIPELINE,
    SCAN_RESOLVE: "deploy.test=127.0.0.1:9,offsite.test=127.0.0.1:9",
    SCAN_TIMEOUT_MS: "2000",
  }, ["--allow-net", "--allow-read", "--allow-env", "--allow-sys", "--deny-write", "--deny-ffi"]);
  try {
    assert.match(server.output(), /Passwords: argon2id, wasm-worker backend/);
    assert.match(server.output(), /Clean-up: hourly/);
    for (const path of ["/", "/healthz", `/static/build/${manifest.islandsPublic}`]) {
      const res = await fetch(`${server.base}${path}`);
      assert.equal(res.status, 200, path);
      await res.body?.cancel();
    }
    const res = await fetch(`${server.base}/api/scan`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
      body: JSON.stringify({ url: "deploy.test" }),
    });
    assert.equal(res.status, 202);
    await res.body?.cancel();
    let report: Response | null = null;
    for (let i = 0; i < 100; i++) {
      report = await fetch(`${server.base}/api/report/deploy.test.json`);
      if (report.status === 200) break;
      await report.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(report?.status, 200, "the queue worker stored a record");
    assert.equal((await report!.json()).status, "failed");
    assert.doesNotMatch(server.output(), /NotCapable|PermissionDenied|Requires write access/);
  } finally {
    await server.kill();
  }
});

Deno.test("[multi] KV Connect: the access token goes to the metadata endpoint only; a refused one stops start-up", async () => {
  const seen: { auth: string | null; body: string }[] = [];
  const endpoint = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push({ auth: req.headers.get("authorization"), body: await req.text() });
    return new Response("invalid token", { status: 401 });
  });
  const url = `http://127.0.0.1:${(endpoint.addr as Deno.NetAddr).port}/`;
  const token = `kv-token-${crypto.randomUUID()}`;
  try {
    const refused = await startServer({ KV_PATH: url, DENO_KV_ACCESS_TOKEN: token });
    assert.equal(await refused.exited, 3, refused.output());
    assert.ok(refused.output().includes(`Could not open the KV Connect database at ${url}`));
    assert.match(refused.output(), /DENO_KV_ACCESS_TOKEN/);
    assert.ok(!refused.output().includes(token), "the token is never printed");
    assert.equal(seen[0]?.auth, `Bearer ${token}`);
    assert.match(seen[0]?.body ?? "", /supportedVersions/);
    const missing = await startServer({ KV_PATH: url });
    assert.equal(await missing.exited, 2, missing.output());
    assert.match(
      missing.output(),
      /KV_PATH is a KV Connect URL but DENO_KV_ACCESS_TOKEN is not set/,
    );
  } finally {
    await endpoint.shutdown();
  }
});
