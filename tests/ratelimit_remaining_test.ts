/**
 * RateLimit-Remaining on a request that joins a scan already in flight (issue 35): joining
 * consumes nothing, so the header says the caller's real count, however many requests for the
 * domain arrive at once. The in-memory admission counts an admission before its commit finds the
 * domain in flight and takes it back: those moments must never show in anyone's header.
 */
import assert from "node:assert/strict";
import { startAppEnv, type TestEnv } from "./helpers/app_env.ts";
import { LIMITS } from "../lib/kit/limits/limits.ts";

const GOOD = { turnstileToken: "good-token" };

async function joinedAtOnce(env: TestEnv, n: number, auth: string) {
  const answers = await Promise.all(
    Array.from({ length: n }, () => env.scan({ url: "busy.example" }, { auth })),
  );
  const out = [];
  for (const res of answers) {
    const body = await res.json();
    out.push({ status: res.status, remaining: res.headers.get("ratelimit-remaining"), body });
  }
  return out;
}

for (const exclusive of [true, false]) {
  Deno.test(
    `[limits] a joined request reports the caller's real RateLimit-Remaining under concurrency (${
      exclusive ? "in-memory" : "KV"
    } admission)`,
    async () => {
      const env = await startAppEnv({ exclusive });
      try {
        // Someone else starts the scan of busy.example.
        const first = await env.scan({ url: "busy.example", ...GOOD }, { ip: "192.0.2.1" });
        assert.equal(first.status, 202);
        const { scanId } = await first.json();
        // A key that has started nothing joins it 40 times at once: 60 left, every time.
        const { key } = await env.newKey("joiner");
        const joined = await joinedAtOnce(env, 40, `Bearer ${key}`);
        for (const j of joined) {
          assert.equal(j.status, 202);
          assert.equal(j.body.scanId, scanId, "it joined the scan in flight");
        }
        assert.deepEqual(
          [...new Set(joined.map((j) => j.remaining))],
          [String(LIMITS.key)],
          "every joined request says the key's real remaining count",
        );
        // A key that has started 3 scans joins 40 times at once: 57 left, every time.
        const { key: busy } = await env.newKey("busy");
        for (const d of ["a.example", "b.example", "c.example"]) {
          const res = await env.scan({ url: d }, { auth: `Bearer ${busy}` });
          assert.equal(res.status, 202);
          await res.body?.cancel();
        }
        const again = await joinedAtOnce(env, 40, `Bearer ${busy}`);
        assert.deepEqual([...new Set(again.map((j) => j.remaining))], [String(LIMITS.key - 3)]);
      } finally {
        await env.close();
      }
    },
  );
}
