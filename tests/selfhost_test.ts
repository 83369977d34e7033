/**
 * Self-hosting as a new user does it: a LICENSE, both services side by side on one machine with
 * nothing but the quick-start commands (each its own default port and KV file), the bind address
 * (HOST, loopback unless asked) printed as it really is, and a start-up summary that names every
 * security-relevant setting, the administrator included.
 */
import assert from "node:assert/strict";
import { isLoopbackHost, loadConfig } from "../lib/kit/config.ts";
import { SERVICE_DEFAULTS, SERVICE_NAMES } from "../lib/kit/service_defaults.ts";
import { SERVICES } from "../lib/app/server.ts";
import { describeConfig, listenAddress } from "../main.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("the repository carries the MIT licence the pages promise", async () => {
  const text = await Deno.readTextFile(new URL("LICENSE", ROOT));
  assert.match(text, /^MIT License/);
  assert.match(text, /Permission is hereby granted, free of charge/);
});

Deno.test("each service has its own default port and KV file", () => {
  const vis = loadConfig({});
  const schema = loadConfig({ SERVICE: "schema" });
  assert.equal(vis.port, 8000);
  assert.equal(schema.port, 8001);
  assert.notEqual(vis.port, schema.port);
  assert.equal(vis.kvPath, SERVICE_DEFAULTS.visibility.kvPath);
  assert.equal(schema.kvPath, SERVICE_DEFAULTS.schema.kvPath);
  assert.notEqual(vis.kvPath, schema.kvPath);
  // Explicit settings win; Deno Deploy keeps its own KV.
  assert.equal(loadConfig({ SERVICE: "schema", PORT: "9000" }).port, 9000);
  assert.equal(loadConfig({ SERVICE: "schema", KV_PATH: ":memory:" }).kvPath, ":memory:");
  assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "x" }).kvPath, undefined);
});

Deno.test("one list of services: every SERVICE name is registered, and the sister links the other", () => {
  assert.deepEqual(Object.keys(SERVICES).sort(), [...SERVICE_NAMES].sort());
  for (const name of SERVICE_NAMES) {
    assert.equal(SERVICES[name].name, name);
    const sister = SERVICE_DEFAULTS[name].sister;
    assert.notEqual(sister, name);
    assert.equal(
      loadConfig({ SERVICE: name }).sisterUrl,
      `http://localhost:${SERVICE_DEFAULTS[sister].port}/`,
    );
  }
  assert.throws(() => loadConfig({ SERVICE: "other" }));
});

Deno.test("HOST: loopback by default, every interface only when asked", () => {
  const local = loadConfig({});
  assert.equal(local.hostname, "127.0.0.1");
  assert.equal(local.loopbackOnly, true);
  const all = loadConfig({ HOST: "0.0.0.0" });
  assert.equal(all.hostname, "0.0.0.0");
  assert.equal(all.loopbackOnly, false);
  assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "x" }).hostname, "0.0.0.0");
  assert.ok(isLoopbackHost("::1") && isLoopbackHost("localhost") && isLoopbackHost("127.0.0.2"));
  assert.ok(!isLoopbackHost("::") && !isLoopbackHost("192.0.2.1"));
  assert.equal(listenAddress("::1", 8000), "http://[::1]:8000/");
  assert.equal(listenAddress("0.0.0.0", 8001), "http://0.0.0.0:8001/");
});

Deno.test("the start-up summary names every security-relevant setting", () => {
  const text = (env: Record<string, string>) => describeConfig(loadConfig(env)).join("\n");
  const local = text({});
  assert.match(local, /on http:\/\/127\.0\.0\.1:8000\/ \(this machine only/);
  assert.match(local, /Administrator: not configured/);
  assert.match(local, /PUBLIC_URL: not set/);
  assert.match(local, /MCP: Host localhost, 127\.0\.0\.1, ::1; browser origins: its own/);
  assert.match(local, /PIPELINE_TOKEN: not set/);
  assert.match(local, /Client IP: the connection's address/);
  assert.match(local, /User-Agent: AIVisibilityBot\//);

  const pub = text({
    HOST: "0.0.0.0",
    ADMIN_PASSWORD_HASH: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
    TURNSTILE_SITE_KEY: "site",
    TURNSTILE_SECRET_KEY: "very-secret",
    PIPELINE_TOKEN: "also-very-secret",
  });
  assert.match(pub, /every interface/);
  assert.match(pub, /WARNING: PUBLIC_URL is not set/);
  assert.match(pub, /Administrator: configured \(ADMIN_PASSWORD_HASH\)/);
  // No names known on every interface: loopback names and IP addresses only (safe by default).
  assert.match(
    pub,
    /MCP: Host localhost, 127\.0\.0\.1, ::1 and IP addresses \(other names are refused/,
  );
  assert.match(pub, /hostnames not checked/);
  for (const secret of ["very-secret", "also-very-secret", "aGFzaGhh"]) {
    assert.ok(!pub.includes(secret), `never a secret: ${secret}`);
  }
  const named = text({ HOST: "::", PUBLIC_URL: "https://checker.example.org" });
  assert.match(named, /PUBLIC_URL: https:\/\/checker\.example\.org/);
  assert.match(named, /Host checker\.example\.org, localhost/);
  assert.match(text({ ADMIN_PASSWORD: "local-only-password" }), /clear-text ADMIN_PASSWORD/);
});

/** Starts main.ts like `deno task start` would (no KV_PATH, no HOST), in `cwd`. */
async function start(service: string, cwd: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-check",
      "--config",
      new URL("deno.json", ROOT).pathname,
      new URL("main.ts", ROOT).pathname,
    ],
    cwd,
    env: { SERVICE: service, PORT: "0", NO_COLOR: "1", LOG_REQUESTS: "0" },
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
  let exited = false;
  child.status.then(() => (exited = true));
  const until = Date.now() + 60_000;
  let base = "";
  while (!base) {
    const m = text.match(/Listening on (http:\/\/[^\s]+)\//);
    if (m) base = m[1];
    else if (exited || Date.now() > until) break;
    else await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base,
    output: () => text,
    async stop() {
      if (!exited) child.kill("SIGTERM");
      await child.status;
      await pumps;
    },
  };
}

Deno.test({
  name: "both services start side by side with the quick-start defaults, on loopback",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "selfhost-" });
    const vis = await start("visibility", dir);
    const schema = await start("schema", dir);
    try {
      assert.match(vis.base, /^http:\/\/127\.0\.0\.1:\d+$/, vis.output());
      assert.match(schema.base, /^http:\/\/127\.0\.0\.1:\d+$/, schema.output());
      for (const s of [vis, schema]) {
        const res = await fetch(`${s.base}/healthz`);
        assert.equal(res.status, 200, s.output());
        // The scan threads' pool is what /healthz reads (lib/kit/isolate/scan_threads.ts): none lost.
        const { threads } = await res.json();
        assert.equal(threads.ok, true);
        assert.equal(threads.lost, 0);
        assert.ok(threads.max >= 1, JSON.stringify(threads));
      }
      // Each took its own KV file in ./data, so neither hit the other's lock.
      const files = [...Deno.readDirSync(`${dir}/data`)].map((e) => e.name);
      assert.ok(files.includes("kv.sqlite3"), files.join(", "));
      assert.ok(files.includes("schema-kv.sqlite3"), files.join(", "));
    } finally {
      await vis.stop();
      await schema.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
