/**
 * [keys] Webhook signing secrets (and URLs) and the key that seals them (docs/security.md "Keys
 * and links"). Without WATCH_SECRET_KEY webhooks keep working, sealed with a key kept in KV beside
 * them: a copy of the store opens them (shown here), and start-up says so. With WATCH_SECRET_KEY
 * set, the next start seals every existing webhook again with it and deletes the kept key, so a
 * copy of the store opens none; rotation: WATCH_SECRET_KEY_PREVIOUS opens the old values, each
 * sealed again with the new key when it is used and at the next start.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";
import { describeConfig, KEPT_KEY_WARNING } from "../../../main.ts";
import { loadConfig } from "../../../lib/kit/config.ts";
import { createApiKey } from "../../../lib/kit/auth/keys.ts";
import { secretKey } from "../../../lib/kit/storage/store_secrets.ts";
import { deliverDue } from "../../../lib/features/watch/delivery.ts";
import { watchOf } from "../../../lib/features/watch/context.ts";
import { KEPT_KEY_NAME, SecretBox } from "../../../lib/kit/auth/secret_box.ts";
import type { Watch } from "../../../lib/features/watch/store_types.ts";
import { AnswersStore } from "../../../lib/features/answers/store.ts";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { type Receiver, startReceiver } from "../../helpers/watch_env.ts";
import { startLikeStartTask } from "../../helpers/start_task_server.ts";

const KEY_1 = "webhook-sealing-key-0123456789abcdef-0001";
const KEY_2 = "webhook-sealing-key-0123456789abcdef-0002";
const ACCOUNT = "acct-webhooks-1";
const STEP = { sanitizeResources: false, sanitizeOps: false } as const;

/** The app on a KV file (so it can be restarted on the same store), with a webhook receiver. */
async function app(kvPath: string, receiver: Receiver, env: Record<string, string>) {
  return await startAppEnv({
    kvPath,
    env: { WEBHOOK_RESOLVE: `hooks.test=127.0.0.1:${receiver.port}`, ...env },
  });
}

function api(env: TestEnv, key: string, method: string, path: string, body?: unknown) {
  return Promise.resolve(env.handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    }),
  ));
}

/** Creates a watch with a webhook; its id and signing secret (shown once). */
async function watchWithWebhook(env: TestEnv, domain: string) {
  const { key } = await createApiKey(env.store, env.service.keyPrefix, {
    name: "ci",
    accountId: ACCOUNT,
    now: env.clock.now,
  });
  const res = await api(env, key, "POST", "/api/watches", {
    url: domain,
    webhookUrl: `https://hooks.test/${domain}`,
  });
  assert.equal(res.status, 201, await res.clone().text());
  const body = await res.json();
  return { key, id: body.watch.id as string, secret: body.webhookSecret as string };
}

/** The stored watch. */
async function stored(env: TestEnv, id: string): Promise<Watch> {
  const watch = (await watchOf(env.deps).watches.get(ACCOUNT, id)).value;
  assert.ok(watch?.webhook, "the watch and its webhook are stored");
  return watch;
}

/** Every string a copy of the store holds, anywhere in its keys and values. */
async function everyStoredString(kv: Deno.Kv): Promise<string[]> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  for await (const e of kv.list({ prefix: [] })) {
    walk(e.key);
    walk(e.value);
  }
  return [...out];
}

/** What a copy of the store opens of a watch's secret, trying everything it holds as the key. */
async function openedByACopy(kv: Deno.Kv, watch: Watch): Promise<string[]> {
  const opened: string[] = [];
  for (const material of await everyStoredString(kv)) {
    const plain = await new SecretBox(material).open(watch.webhook!.secret, watch.id);
    if (plain) opened.push(plain);
  }
  return opened;
}

/** Sends a test delivery of the watch and returns what the receiver got. */
async function ping(env: TestEnv, key: string, id: string, receiver: Receiver) {
  const before = receiver.received.length;
  assert.equal((await api(env, key, "POST", `/api/watches/${id}/test`)).status, 202);
  const report = { delivered: 0, failed: 0, retried: 0 };
  await deliverDue(watchOf(env.deps), env.clock.now, 50, report);
  assert.equal(report.delivered, 1, JSON.stringify(report));
  assert.equal(receiver.received.length, before + 1);
  return receiver.received[before];
}

/** The receiver's own check, from the documented algorithm (Standard Webhooks). */
function signedWith(secret: string, d: { headers: Headers; body: string }): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signed = `${d.headers.get("webhook-id")}.${d.headers.get("webhook-timestamp")}.${d.body}`;
  const expected = `v1,${createHmac("sha256", key).update(signed).digest("base64")}`;
  return (d.headers.get("webhook-signature") ?? "").split(" ").includes(expected);
}

Deno.test("[keys] start-up warns while webhook secrets are sealed with a key kept beside them", async () => {
  const text = (env: Record<string, string>) => describeConfig(loadConfig(env));
  assert.ok(text({}).includes(KEPT_KEY_WARNING));
  assert.match(KEPT_KEY_WARNING, /a copy of the KV file lets someone forge your alerts/);
  assert.match(KEPT_KEY_WARNING, /Set WATCH_SECRET_KEY/);
  const keyed = text({ WATCH_SECRET_KEY: KEY_1 });
  assert.ok(!keyed.includes(KEPT_KEY_WARNING));
  assert.match(keyed.join("\n"), /webhook secrets sealed with WATCH_SECRET_KEY(;|$)/m);
  assert.match(
    text({ WATCH_SECRET_KEY: KEY_2, WATCH_SECRET_KEY_PREVIOUS: KEY_1 }).join("\n"),
    /sealed with WATCH_SECRET_KEY \(WATCH_SECRET_KEY_PREVIOUS opens older ones\)/,
  );
  // Watches off: no webhook is delivered, nothing to warn about.
  assert.ok(!text({ WATCH_MAX_PER_ACCOUNT: "0" }).includes(KEPT_KEY_WARNING));

  // Printed by the server as the start task starts it.
  const dir = await Deno.makeTempDir();
  const server = await startLikeStartTask({ KV_PATH: `${dir}/kv.sqlite3`, LOG_REQUESTS: "0" });
  try {
    assert.ok(server.output().includes(KEPT_KEY_WARNING), server.output());
  } finally {
    await server.kill();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "[keys] setting WATCH_SECRET_KEY: the next start seals every webhook with it and deletes the kept key",
  ...STEP,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite3`;
    const receiver = startReceiver();
    try {
      // Without the setting: webhooks work, and a copy of the store opens their secrets.
      let env = await app(kvPath, receiver, {});
      const a = await watchWithWebhook(env, "one.example");
      const b = await watchWithWebhook(env, "two.example");
      try {
        assert.ok(signedWith(a.secret, await ping(env, a.key, a.id, receiver)));
        assert.deepEqual(await openedByACopy(env.kv, await stored(env, a.id)), [a.secret]);
      } finally {
        await env.close();
      }

      env = await app(kvPath, receiver, { WATCH_SECRET_KEY: KEY_1 });
      try {
        const said = env.logs.find((e) => e.event === "watch.sealed_again");
        assert.deepEqual(said, {
          event: "watch.sealed_again",
          resealed: 2,
          unopened: 0,
          busy: 0,
          keptKeyDeleted: true,
        });
        assert.equal((await env.kv.get(secretKey(KEPT_KEY_NAME))).value, null);
        for (const w of [a, b]) {
          const watch = await stored(env, w.id);
          // A copy of the store opens none; the setting opens each, to the same secret.
          assert.deepEqual(await openedByACopy(env.kv, watch), []);
          assert.equal(await new SecretBox(KEY_1).open(watch.webhook!.secret, w.id), w.secret);
          assert.equal(
            await new SecretBox(KEY_1).open(watch.webhook!.url, w.id),
            `https://hooks.test/${watch.target}`,
          );
        }
        // Deliveries go on, signed with the secret the user was given.
        assert.ok(signedWith(b.secret, await ping(env, b.key, b.id, receiver)));
      } finally {
        await env.close();
      }

      // The next start has nothing left to do.
      env = await app(kvPath, receiver, { WATCH_SECRET_KEY: KEY_1 });
      try {
        assert.equal(env.logs.find((e) => e.event === "watch.sealed_again"), undefined);
      } finally {
        await env.close();
      }
    } finally {
      await receiver.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[keys] rotation: the previous key opens old webhook secrets, sealed again when used and at start",
  ...STEP,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite3`;
    const receiver = startReceiver();
    try {
      let env = await app(kvPath, receiver, { WATCH_SECRET_KEY: KEY_1 });
      const a = await watchWithWebhook(env, "one.example");
      const b = await watchWithWebhook(env, "two.example");
      try {
        // Nothing is kept in the store with the setting from the start.
        assert.equal((await env.kv.get(secretKey(KEPT_KEY_NAME))).value, null);
        const before = await stored(env, a.id);
        assert.equal(await new SecretBox(KEY_2).open(before.webhook!.secret, a.id), null);
        // Used with the new key and the old one as previous: delivered, and sealed again.
        const rotated = {
          ...watchOf(env.deps),
          box: () => Promise.resolve(new SecretBox(KEY_2, [KEY_1])),
        };
        assert.equal((await api(env, a.key, "POST", `/api/watches/${a.id}/test`)).status, 202);
        const report = { delivered: 0, failed: 0, retried: 0 };
        await deliverDue(rotated, env.clock.now, 50, report);
        assert.equal(report.delivered, 1);
        assert.ok(signedWith(a.secret, receiver.received.at(-1)!));
        const after = await stored(env, a.id);
        assert.notEqual(after.webhook!.secret, before.webhook!.secret, "sealed again when used");
        assert.equal(await new SecretBox(KEY_2).open(after.webhook!.secret, a.id), a.secret);
        assert.equal(await new SecretBox(KEY_1).open(after.webhook!.secret, a.id), null);
      } finally {
        await env.close();
      }

      // Restarted with the new key and the previous one: the watch not used yet is sealed again.
      env = await app(kvPath, receiver, {
        WATCH_SECRET_KEY: KEY_2,
        WATCH_SECRET_KEY_PREVIOUS: KEY_1,
      });
      try {
        assert.deepEqual(env.logs.find((e) => e.event === "watch.sealed_again"), {
          event: "watch.sealed_again",
          resealed: 1,
          unopened: 0,
          busy: 0,
          keptKeyDeleted: false,
        });
        for (const w of [a, b]) {
          const watch = await stored(env, w.id);
          assert.equal(await new SecretBox(KEY_2).open(watch.webhook!.secret, w.id), w.secret);
          assert.equal(await new SecretBox(KEY_1).open(watch.webhook!.secret, w.id), null);
        }
      } finally {
        await env.close();
      }

      // WATCH_SECRET_KEY_PREVIOUS can go: the new key alone delivers.
      env = await app(kvPath, receiver, { WATCH_SECRET_KEY: KEY_2 });
      try {
        assert.ok(signedWith(b.secret, await ping(env, b.key, b.id, receiver)));
      } finally {
        await env.close();
      }
    } finally {
      await receiver.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[keys] setting WATCH_SECRET_KEY also seals again e-mail alert addresses and users' vendor keys before the kept key goes",
  ...STEP,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite3`;
    const receiver = startReceiver();
    const keyContext = `answers-key:${ACCOUNT}:openai`;
    try {
      // Without the setting: a watch with a webhook and an e-mail address, and a user's vendor
      // key, all sealed with the key kept in KV (as an earlier version sealed vendor keys).
      let env = await app(kvPath, receiver, {});
      const a = await watchWithWebhook(env, "mail.example");
      try {
        const deps = watchOf(env.deps);
        const kept = await deps.box();
        const entry = await deps.watches.get(ACCOUNT, a.id);
        const email = {
          address: await kept.seal("owner@mail.example", a.id),
          display: "o***@mail.example",
          state: "confirmed" as const,
          confirmHash: "confirm-hash",
          unsubscribe: await kept.seal("unsubscribe-token-1", a.id),
          unsubscribeHash: "unsubscribe-hash",
        };
        assert.ok(
          await deps.watches.save(entry as Deno.KvEntry<Watch>, { ...entry.value!, email }),
        );
        await new AnswersStore(env.kv, env.service.name).putKey(ACCOUNT, "openai", {
          sealed: await kept.seal("sk-vendor-key-0001", keyContext),
          addedAt: 0,
        });
      } finally {
        await env.close();
      }

      env = await app(kvPath, receiver, { WATCH_SECRET_KEY: KEY_1 });
      try {
        // One watch (its webhook and e-mail values) and one vendor key sealed again.
        assert.deepEqual(env.logs.find((e) => e.event === "watch.sealed_again"), {
          event: "watch.sealed_again",
          resealed: 2,
          unopened: 0,
          busy: 0,
          keptKeyDeleted: true,
        });
        const watch = await stored(env, a.id);
        const box = new SecretBox(KEY_1);
        assert.equal(await box.open(watch.email!.address, a.id), "owner@mail.example");
        assert.equal(await box.open(watch.email!.unsubscribe, a.id), "unsubscribe-token-1");
        const key = await new AnswersStore(env.kv, env.service.name).getKey(ACCOUNT, "openai");
        assert.equal(await box.open(key!.sealed, keyContext), "sk-vendor-key-0001");
        // A copy of the store opens none of them.
        for (const material of await everyStoredString(env.kv)) {
          const copy = new SecretBox(material);
          assert.equal(await copy.open(watch.email!.address, a.id), null);
          assert.equal(await copy.open(key!.sealed, keyContext), null);
        }
      } finally {
        await env.close();
      }
    } finally {
      await receiver.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
