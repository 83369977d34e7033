/**
 * A full disk under the real server (started as `deno task start` does, its KV file on a small
 * tmpfs): /healthz fails, new scans get 503 with Retry-After instead of generic 500s, and both
 * recover when space is back. Needs permission to mount a tmpfs (root in CI containers); ignored
 * where it is not available. tests/ops_test.ts proves the same against an injected KV that fails
 * its writes as a full disk does, everywhere.
 */
import assert from "node:assert/strict";
import { startServer, startTaskV8Flags } from "./helpers/server_process.ts";
import { startTaskArgs } from "../helpers/start_task_server.ts";

const PIPELINE = "store-full-pipeline-token-0123456789";

async function run(cmd: string, ...args: string[]): Promise<boolean> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** Mounts an 8 MB tmpfs on a new directory, or returns null where mounting is not allowed. */
async function smallDisk(): Promise<string | null> {
  const dir = await Deno.makeTempDir({ prefix: "kv-small-disk-" });
  if (await run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir)) return dir;
  await Deno.remove(dir);
  return null;
}

const disk = Deno.build.os === "linux" ? await smallDisk() : null;

async function get(url: string): Promise<Response> {
  return await fetch(url, { signal: AbortSignal.timeout(10_000) });
}

async function scan(base: string, domain: string): Promise<Response> {
  return await fetch(`${base}/api/scan`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
    body: JSON.stringify({ url: domain }),
    signal: AbortSignal.timeout(10_000),
  });
}

/** Polls /healthz until it answers `status` (the route keeps an answer for a second). */
async function healthBecomes(base: string, status: number): Promise<Record<string, unknown>> {
  const end = Date.now() + 20_000;
  for (;;) {
    const res = await get(`${base}/healthz`);
    const body = await res.json();
    if (res.status === status) return body;
    if (Date.now() > end) throw new Error(`/healthz still ${res.status}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

Deno.test({
  name:
    "[store] a full disk: /healthz 503, new scans 503 + Retry-After, recovery when space is back",
  ignore: disk === null,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({
      KV_PATH: `${disk}/kv.sqlite3`,
      PIPELINE_TOKEN: PIPELINE,
      LOG_REQUESTS: "0",
      // Resolves, so the scan reaches admission; nothing is fetched while the disk is full.
      SCAN_RESOLVE: "full.test=127.0.0.1:9,later.test=127.0.0.1:9",
    }, { v8Flags: startTaskV8Flags() });
    const filler = `${disk}/filler`;
    try {
      await healthBecomes(server.base, 200);
      // Fill the disk.
      const file = await Deno.open(filler, { write: true, create: true });
      const chunk = new Uint8Array(64 * 1024).fill(1);
      try {
        for (;;) await file.write(chunk);
      } catch (error) {
        assert.match(String(error), /No space left|os error 28/i);
      } finally {
        file.close();
      }
      const body = await healthBecomes(server.base, 503) as { ok: boolean; kv: unknown };
      assert.equal(body.ok, false);
      assert.deepEqual((body.kv as { write: { ok: boolean } }).write.ok, false);
      const refused = await scan(server.base, "full.test");
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("retry-after"), "30");
      assert.match((await refused.json()).error, /cannot store results/);
      // Space again: healthy, and scans are admitted.
      await Deno.remove(filler);
      await healthBecomes(server.base, 200);
      const admitted = await scan(server.base, "later.test");
      assert.equal(admitted.status, 202);
      await admitted.body?.cancel();
      assert.doesNotMatch(server.output(), /uncaught/i);
    } finally {
      await server.kill();
      await Deno.remove(filler).catch(() => {});
    }
  },
});

Deno.test({
  name: "[store] a read-only KV at start-up: the KV message and exit code 3, no uncaught exception",
  ignore: disk === null,
  fn: async () => {
    const dir = `${disk}/readonly`;
    await Deno.mkdir(dir);
    const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
    await kv.set(["x"], 1);
    kv.close();
    const ro = await smallDisk();
    assert.ok(ro);
    try {
      // The store's directory on a read-only mount: a bind mount of it, remounted read-only.
      assert.ok(await run("mount", "--bind", dir, ro));
      assert.ok(await run("mount", "-o", "remount,bind,ro", ro));
      const out = await new Deno.Command(Deno.execPath(), {
        // As `deno task start` runs it (its permissions, not -A), from the repository's root.
        args: [...(await startTaskArgs())],
        cwd: new URL("../../", import.meta.url).pathname,
        env: { KV_PATH: `${ro}/kv.sqlite3`, PORT: "0", NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 3, stderr);
      assert.match(stderr, /cannot be opened for writing/);
      assert.doesNotMatch(stderr, /uncaught/i);
    } finally {
      await run("umount", ro);
      await run("umount", ro);
      await Deno.remove(ro, { recursive: true }).catch(() => {});
    }
  },
});

if (disk) {
  globalThis.addEventListener("unload", () => {
    new Deno.Command("umount", { args: [disk] }).outputSync();
    Deno.removeSync(disk, { recursive: true });
  });
}
