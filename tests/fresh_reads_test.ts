import assert from "node:assert/strict";
import { FreshReads } from "../lib/kit/storage/fresh_reads.ts";
import { createApiKey, findActiveKey, revokeApiKey } from "../lib/kit/auth/keys.ts";
import { createStore } from "../lib/app/server.ts";

/** A load whose calls are counted and settled by hand. */
function manualLoads() {
  const calls: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const load = () =>
    new Promise<string>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, load };
}

Deno.test("[fresh_reads] callers during a running read share the next read, never the running one", async () => {
  const reads = new FreshReads<string>();
  const { calls, load } = manualLoads();
  const first = reads.read("k", load);
  assert.equal(calls.length, 1);
  // These arrive while the first read runs: the value it returns may predate them.
  const late = [reads.read("k", load), reads.read("k", load), reads.read("k", load)];
  assert.equal(calls.length, 1, "the queued read starts only when the running one settles");
  calls[0].resolve("old");
  assert.equal(await first, "old");
  await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(calls.length, 2, "one read for all three late callers");
  calls[1].resolve("new");
  assert.deepEqual(await Promise.all(late), ["new", "new", "new"]);
  assert.equal(reads.size, 0);
});

Deno.test("[fresh_reads] a failed read fails its callers only; the next caller reads again", async () => {
  const reads = new FreshReads<string>();
  const { calls, load } = manualLoads();
  const a = reads.read("k", load);
  const b = reads.read("k", load);
  calls[0].reject(new Error("kv down"));
  await assert.rejects(a, /kv down/);
  await new Promise((r) => setTimeout(r, 0));
  calls[1].resolve("back");
  assert.equal(await b, "back");
  const c = reads.read("k", load);
  assert.equal(calls.length, 3);
  calls[2].resolve("again");
  assert.equal(await c, "again");
});

Deno.test("[fresh_reads] different names never share a read", async () => {
  const reads = new FreshReads<string>();
  const { calls, load } = manualLoads();
  const a = reads.read("a", load);
  const b = reads.read("b", load);
  assert.equal(calls.length, 2);
  calls[0].resolve("A");
  calls[1].resolve("B");
  assert.deepEqual(await Promise.all([a, b]), ["A", "B"]);
});

Deno.test("[fresh_reads] a key revoked while lookups of it are in flight is refused to every later lookup", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = createStore(kv, "visibility");
    const { key, entry } = await createApiKey(store, "uvk_", { name: "busy" });
    // A stream of lookups keeps a read of this key in flight at all times.
    let stop = false;
    const busy = (async () => {
      while (!stop) await Promise.all(Array.from({ length: 8 }, () => findActiveKey(store, key)));
    })();
    await new Promise((r) => setTimeout(r, 20));
    await revokeApiKey(store, entry.id);
    const after = await Promise.all(Array.from({ length: 50 }, () => findActiveKey(store, key)));
    stop = true;
    await busy;
    assert.ok(after.every((e) => e === null), "no lookup that began after the revocation passed");
  } finally {
    kv.close();
  }
});
