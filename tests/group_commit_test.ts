import assert from "node:assert/strict";
import { GroupCommit } from "../lib/kit/limits/group_commit.ts";

interface Item {
  name: string;
  value: unknown;
}

/** A KV whose commits are counted. */
async function countingKv() {
  const kv = await Deno.openKv(":memory:");
  const counter = { commits: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = () => {
      counter.commits++;
      return commit();
    };
    return op;
  };
  return { kv, counter };
}

/** Each item claims its name once: a check that the key is new, then the write. */
function claims(kv: Deno.Kv) {
  return new GroupCommit<Item>(kv, (op, item) => {
    op.check({ key: ["claim", item.name], versionstamp: null });
    op.set(["claim", item.name], item.value);
  }, (item) => item.name);
}

Deno.test("[group_commit] writes that arrive together share commits; each is written", async () => {
  const { kv, counter } = await countingKv();
  try {
    const group = claims(kv);
    const out = await Promise.all(
      Array.from({ length: 50 }, (_, i) => group.commit({ name: `n${i}`, value: i })),
    );
    assert.ok(out.every((ok) => ok));
    assert.ok(counter.commits <= 4, `${counter.commits} commits for 50 writes`);
    for (let i = 0; i < 50; i++) assert.equal((await kv.get(["claim", `n${i}`])).value, i);
  } finally {
    kv.close();
  }
});

Deno.test("[group_commit] a lone write is committed at once, in one commit", async () => {
  const { kv, counter } = await countingKv();
  try {
    assert.equal(await claims(kv).commit({ name: "alone", value: 1 }), true);
    assert.equal(counter.commits, 1);
  } finally {
    kv.close();
  }
});

Deno.test("[group_commit] a failed check fails only its own write", async () => {
  const { kv } = await countingKv();
  try {
    await kv.set(["claim", "taken"], "before");
    const group = claims(kv);
    const out = await Promise.all([
      group.commit({ name: "a", value: 1 }),
      group.commit({ name: "b", value: 2 }),
      group.commit({ name: "taken", value: 3 }),
      group.commit({ name: "c", value: 4 }),
    ]);
    assert.deepEqual(out, [true, true, false, true]);
    assert.equal((await kv.get(["claim", "taken"])).value, "before");
    assert.equal((await kv.get(["claim", "c"])).value, 4);
  } finally {
    kv.close();
  }
});

Deno.test("[group_commit] of writes with one conflict key, exactly one commits", async () => {
  const { kv } = await countingKv();
  try {
    const group = claims(kv);
    const out = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) => group.commit({ name: i % 2 ? "same" : `x${i}`, value: i }),
      ),
    );
    assert.equal(out.filter((ok, i) => i % 2 === 1 && ok).length, 1);
    assert.ok(out.filter((_, i) => i % 2 === 0).every((ok) => ok));
  } finally {
    kv.close();
  }
});

Deno.test("[group_commit] a write that throws rejects alone; the others are written", async () => {
  const { kv } = await countingKv();
  try {
    const group = claims(kv);
    const tooBig = "x".repeat(70_000); // over Deno KV's 64 KiB value limit
    const results = await Promise.allSettled([
      group.commit({ name: "ok1", value: 1 }),
      group.commit({ name: "ok2", value: 2 }),
      group.commit({ name: "big", value: tooBig }),
      group.commit({ name: "ok3", value: 3 }),
    ]);
    assert.deepEqual(results.map((r) => r.status), [
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    assert.equal((await kv.get(["claim", "ok3"])).value, 3);
    assert.equal((await kv.get(["claim", "big"])).value, null);
  } finally {
    kv.close();
  }
});
