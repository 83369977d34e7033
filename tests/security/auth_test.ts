/**
 * Authentication of POST /api/scan:
 * - guessing is not timing-observable: wrong PIPELINE_TOKENs close to and far from the real one,
 *   and unknown, revoked and malformed client keys, take the same time within noise (interleaved
 *   samples, medians compared with a generous threshold: this is a regression guard against a
 *   path that does visibly more work for some guesses, not a proof at nanosecond resolution);
 * - revoked keys never pass, in any spelling of the header;
 * - keys, key hashes, the pipeline token and challenge tokens never appear in a response or in a
 *   log line, in-process (the app's log sink) and from a real server process (its stdout/stderr).
 *
 * To extend: admin login and account sessions (expired and revoked sessions never pass, session
 * tokens never logged), CSRF on the account and admin forms, password-guessing timing. (HTML/JS
 * from scanned content in the report page: injection_test.ts.)
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../../lib/kit/auth/crypto.ts";
import { createApiKey, revokeApiKey } from "../../lib/kit/auth/keys.ts";
import { installConnectSpy } from "./helpers/net_guard.ts";
import { lookupSpy, PIPELINE, startSecurityEnv } from "./helpers/security_env.ts";
import { decentSite, startSiteServer } from "./helpers/sites.ts";
import { poll200, startServer } from "./helpers/server_process.ts";
import { createStore } from "../../lib/app/server.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Mean of the middle half: robust to the scheduler's outliers on a busy machine. */
function trimmedMean(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.slice(Math.floor(s.length / 4), Math.ceil((s.length * 3) / 4));
  return mid.reduce((a, b) => a + b, 0) / mid.length;
}

function randomKeyLike(prefix: string, length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return prefix + [...bytes].map((b) => alphabet[b % 64]).join("");
}

/** Timing differences tolerated between classes of wrong guesses. */
const MAX_DIFF_MS = 1.0;
const MAX_DIFF_RATIO = 0.5;

Deno.test("[security/auth] wrong guesses are not timing-observable", async () => {
  const spy = installConnectSpy();
  const env = await startSecurityEnv({ lookup: lookupSpy({}, () => ["93.184.216.34"]).lookup });
  try {
    const { key: revoked, id } = await env.newKey("to revoke");
    await revokeApiKey(env.store, id);
    const real = await env.newKey("real");
    const flip = (s: string, i: number) =>
      s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const classes: Record<string, () => string> = {
      // PIPELINE_TOKEN guesses.
      "pipeline: all but the last character right": () => flip(PIPELINE, PIPELINE.length - 1),
      "pipeline: first character wrong": () => flip(PIPELINE, 0),
      "pipeline: random, same length": () => randomKeyLike("", PIPELINE.length),
      "pipeline: random, 8 characters": () => randomKeyLike("", 8),
      // Client key guesses.
      "key: unknown, well-formed": () => randomKeyLike("uvk_", 43),
      "key: revoked": () => revoked,
      "key: the real key but the last character": () => flip(real.key, real.key.length - 1),
      "key: malformed (too short)": () => randomKeyLike("uvk_", 5),
      "key: malformed (other service's prefix)": () => randomKeyLike("usk_", 43),
    };
    const names = Object.keys(classes);
    const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const body = JSON.stringify({ url: "timing.example" });
    const once = async (token: string) => {
      const t0 = performance.now();
      const res = await env.app.request("/api/scan", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": "192.0.2.1",
          authorization: `Bearer ${token}`,
        },
        body,
      });
      const ms = performance.now() - t0;
      assert.equal(res.status, 401);
      await res.body?.cancel();
      return ms;
    };
    // Warm up (JIT, KV caches), then interleave the classes in a random order every round, so
    // load on the machine falls on all of them alike.
    for (let i = 0; i < 100; i++) await once(classes[names[i % names.length]]());
    const rounds = 300;
    for (let r = 0; r < rounds; r++) {
      const order = [...names].sort(() => Math.random() - 0.5);
      for (const n of order) samples[n].push(await once(classes[n]()));
    }
    const stats = names.map((n) => ({
      n,
      median: median(samples[n]),
      trimmed: trimmedMean(samples[n]),
    }));
    const lo = Math.min(...stats.map((s) => s.trimmed));
    const hi = Math.max(...stats.map((s) => s.trimmed));
    console.log(`Auth timing, ${rounds} interleaved samples per class (ms):`);
    for (const s of stats) {
      console.log(
        `  ${s.n.padEnd(44)} median ${s.median.toFixed(3)}  trimmed mean ${s.trimmed.toFixed(3)}`,
      );
    }
    console.log(
      `  spread of trimmed means: ${(hi - lo).toFixed(3)} ms (allowed: ${MAX_DIFF_MS} ms or ${
        MAX_DIFF_RATIO * 100
      }% of the fastest, whichever is larger)`,
    );
    assert.ok(
      hi - lo <= Math.max(MAX_DIFF_MS, lo * MAX_DIFF_RATIO),
      `guess classes differ by ${(hi - lo).toFixed(3)} ms`,
    );
  } finally {
    spy.restore();
    await env.close();
  }
});

Deno.test("[security/auth] revoked keys never pass, in any spelling", async () => {
  const env = await startSecurityEnv({ lookup: lookupSpy({}, () => ["93.184.216.34"]).lookup });
  try {
    const { key, id } = await env.newKey("short-lived");
    const ok = await env.scan({ url: "before-revoke.example" }, { auth: `Bearer ${key}` });
    assert.equal(ok.status, 202);
    await ok.body?.cancel();
    await revokeApiKey(env.store, id);
    const spellings = [
      `Bearer ${key}`,
      `bearer ${key}`,
      `BEARER ${key}`,
      `Bearer   ${key}`,
      `Bearer ${key} `,
      `Bearer ${key}\t`,
      `Bearer ${key.toUpperCase()}`,
      `Bearer ${key}=`,
      `Bearer ${key.slice(0, -1)}`,
      `Bearer ${key},Bearer ${key}`,
      `Bearer ${PIPELINE.slice(0, 4)}${key}`,
    ];
    for (const auth of spellings) {
      for (const url of ["after-revoke.example", "before-revoke.example"]) {
        const res = await env.scan({ url, forceRescan: true }, { auth, ip: "192.0.2.77" });
        const body = await res.json();
        assert.equal(res.status, 401, `${JSON.stringify(auth)} -> ${res.status}`);
        assert.deepEqual(body, { error: "Unauthorized" });
      }
    }
    // Revoking again changes nothing; the key stays revoked.
    await revokeApiKey(env.store, id);
    const entry = await env.store.keys.getKeyById(id);
    assert.ok(entry?.revokedAt);
  } finally {
    await env.close();
  }
});

/** Fails when any secret occurs in `text`. */
function assertNoSecrets(text: string, secrets: Record<string, string>, where: string) {
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(!text.includes(value), `${name} appears in ${where}`);
  }
}

Deno.test("[security/auth] keys and tokens never appear in responses or logs (in-process)", async () => {
  const env = await startSecurityEnv({ lookup: lookupSpy({}, () => ["93.184.216.34"]).lookup });
  try {
    const live = await env.newKey("live");
    const gone = await env.newKey("gone");
    await revokeApiKey(env.store, gone.id);
    const secrets = {
      "the pipeline token": PIPELINE,
      "a live key": live.key,
      "a revoked key": gone.key,
      "a live key's hash": await sha256Hex(live.key),
      "a revoked key's hash": await sha256Hex(gone.key),
      "the challenge secret": "test-turnstile-secret",
    };
    const auths = [
      `Bearer ${PIPELINE}`,
      `Bearer ${live.key}`,
      `Bearer ${gone.key}`,
      `Bearer ${PIPELINE}x`,
      `Bearer ${live.key}x`,
      `Basic ${btoa(`u:${PIPELINE}`)}`,
      `${PIPELINE}`,
      undefined,
    ];
    const bodies = [
      { url: "leak-check.example" },
      { url: "leak-check.example", forceRescan: true },
      { url: 42, turnstileToken: PIPELINE },
      { url: "leak-check.example", turnstileToken: live.key },
      { url: "10.0.0.1" },
      "not json",
    ];
    let n = 0;
    for (const auth of auths) {
      for (const body of bodies) {
        const res = await env.scan(body, { auth, ip: `192.0.2.${(n++ % 200) + 1}` });
        const text = await res.text();
        const headers = JSON.stringify([...res.headers]);
        assert.ok(res.status < 500, `${res.status} ${text}`);
        assertNoSecrets(text + headers, secrets, `a ${res.status} response`);
      }
    }
    const report = await env.report("leak-check.example");
    assertNoSecrets(await report.text(), secrets, "a report");
    assertNoSecrets(JSON.stringify(env.logs), secrets, "the app's log");
    // The turnstile fake is the only party that legitimately receives the challenge secret.
    assert.ok(env.turnstile.calls.length > 0);
  } finally {
    await env.close();
  }
});

Deno.test({
  name: "[security/auth] a real server process never prints a key or the pipeline token",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const sites = startSiteServer({}, { fallback: decentSite });
    const kvPath = `${dir}/kv.sqlite3`;
    // Keys are created before the server starts, as the account pages would.
    const kv = await Deno.openKv(kvPath);
    const store = createStore(kv, "visibility");
    const live = await createApiKey(store, "uvk_", { name: "live" });
    const gone = await createApiKey(store, "uvk_", { name: "gone" });
    await revokeApiKey(store, gone.entry.id);
    kv.close();
    const hosts = ["leak1.test", "leak2.test"];
    const server = await startServer({
      KV_PATH: kvPath,
      PIPELINE_TOKEN: PIPELINE,
      SCAN_RESOLVE: `${sites.scanResolve(hosts)},offsite.test=127.0.0.1:9`,
      WIKIDATA_API_URL: "http://offsite.test/w/api.php",
      WIKIPEDIA_API_URL: "http://offsite.test/w/api.php",
      COMMONCRAWL_INDEX_URL: "http://offsite.test",
      OFFSITE_TIMEOUT_MS: "300",
      SCAN_TIMEOUT_MS: "5000",
    });
    try {
      const post = async (auth: string | undefined, body: unknown) => {
        const res = await fetch(`${server.base}/api/scan`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(auth ? { authorization: auth } : {}),
          },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, text: text + JSON.stringify([...res.headers]) };
      };
      const responses = [
        await post(`Bearer ${PIPELINE}`, { url: "leak1.test" }),
        await post(`Bearer ${live.key}`, { url: "leak2.test" }),
        await post(`Bearer ${gone.key}`, { url: "leak1.test", forceRescan: true }),
        await post(`Bearer ${PIPELINE}x`, { url: "leak1.test" }),
        await post(`Bearer ${live.key}`, { url: "127.0.0.1" }),
        await post(undefined, { url: "leak1.test", turnstileToken: PIPELINE }),
      ];
      assert.deepEqual(responses.map((r) => r.status), [202, 202, 401, 401, 400, 403]);
      for (const h of hosts) {
        await poll200(() => fetch(`${server.base}/api/report/${h}.json`), 20_000);
      }
      // The worker logged both finished scans; give the output a moment to be read.
      for (let i = 0; i < 50 && (server.output().match(/scan\.finished/g) ?? []).length < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await server.kill();
      const output = server.output();
      assert.match(output, /PIPELINE_TOKEN: set/);
      assert.equal((output.match(/scan\.finished/g) ?? []).length, 2, output);
      const secrets = {
        "the pipeline token": PIPELINE,
        "a live key": live.key,
        "a revoked key": gone.key,
        "a live key's hash": live.entry.hash,
        "a revoked key's hash": gone.entry.hash,
      };
      assertNoSecrets(output, secrets, "the server's stdout/stderr");
      for (const r of responses) assertNoSecrets(r.text, secrets, `a ${r.status} response`);
    } finally {
      await server.kill();
      await sites.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
