/**
 * The fair queue of expensive work (lib/kit/limits/fair_gate.ts): bounded in all and per caller,
 * callers take turns, a caller past its queue is refused at once, an IPv6 /48 counts together.
 */
import assert from "node:assert/strict";
import { FairGate } from "../lib/kit/limits/fair_gate.ts";
import { RateLimitedError } from "../lib/kit/errors.ts";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => resolve = r);
  return { promise, resolve };
}

Deno.test("[fair gate] concurrency, per-caller slots, refusal past the queue, turns", async () => {
  const gate = new FairGate({ concurrency: 2, perCaller: 1, maxQueued: 2, what: "jobs" });
  const order: string[] = [];
  const hold = deferred();
  const job = (name: string) => async () => {
    order.push(name);
    await hold.promise;
  };
  const a = [1, 2, 3].map((i) => gate.run("198.51.100.1", job(`a${i}`)));
  await assert.rejects(gate.run("198.51.100.1", job("a4")), RateLimitedError);
  const b = [1, 2].map((i) => gate.run("198.51.100.2", job(`b${i}`)));
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(order, ["a1", "b1"], "one per caller runs, up to two in all");
  assert.equal(gate.running, 2);
  hold.resolve();
  await Promise.all([...a, ...b]);
  // After the first two, callers took turns: a's backlog did not run before b's second job.
  assert.deepEqual(order.slice(0, 4).sort(), ["a1", "a2", "b1", "b2"]);
  assert.equal(gate.running, 0);
});

Deno.test("[fair gate] the /64s of one IPv6 /48 share a bound", async () => {
  const gate = new FairGate({
    concurrency: 1,
    perCaller: 1,
    maxQueued: 5,
    perPrefix48: 3,
    what: "jobs",
  });
  const hold = deferred();
  const runs = ["1", "2", "3"].map((n) => gate.run(`2001:db8:5:${n}::/64`, () => hold.promise));
  await assert.rejects(gate.run("2001:db8:5:9::/64", () => Promise.resolve()), /\/48/);
  const other = gate.run("2001:db8:6:1::/64", () => Promise.resolve());
  hold.resolve();
  await Promise.all([...runs, other]);
});

Deno.test("[fair gate] a task that throws frees its slot", async () => {
  const gate = new FairGate({ concurrency: 1, perCaller: 1, maxQueued: 1, what: "jobs" });
  await assert.rejects(gate.run("x", () => Promise.reject(new Error("boom"))), /boom/);
  assert.equal(await gate.run("x", () => Promise.resolve(7)), 7);
  assert.equal(gate.running, 0);
});
