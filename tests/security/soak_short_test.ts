/**
 * The short soak that runs in `deno task test` (CI): 12 s of the mixed load of tests/soak/soak.ts
 * against a real server process on loopback. Zero 5xx, zero network errors, every answer the
 * expected one, every admitted scan stored, latency in bounds. Memory is printed; its level-off
 * check belongs to the 2-minute `deno task soak` (12 s is mostly the server's warm-up).
 */
import assert from "node:assert/strict";
import { formatSoak, runSoak } from "../soak/soak.ts";

Deno.test("[security/soak] 12 s of mixed load: no 5xx, no errors, every scan stored", async () => {
  const result = await runSoak({ durationMs: 12_000, rps: 50 });
  console.log(formatSoak(result));
  assert.equal(result.errors5xx, 0);
  assert.equal(result.networkErrors, 0);
  for (const [kind, stats] of Object.entries(result.kinds)) {
    assert.equal(stats.unexpected, 0, `${kind}: ${JSON.stringify(stats.statuses)}`);
    assert.ok(stats.count > 0, `${kind} was exercised`);
    // Generous for a busy 2-core CI machine: loopback requests are ~1-5 ms at p50.
    assert.ok(stats.p99 < 1500, `${kind} p99 ${stats.p99.toFixed(0)} ms`);
  }
  assert.equal(result.newScansStored, result.newScansAdmitted);
  assert.ok(result.requests >= 400, `${result.requests} requests`);
});
