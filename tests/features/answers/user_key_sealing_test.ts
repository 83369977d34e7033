/**
 * [keys] Users' own vendor keys are sealed with WATCH_SECRET_KEY, a key kept outside the store: a
 * copy of KV alone opens none of them. Without that setting the instance refuses them (and says so
 * at start-up), and rotating the key keeps every stored key working: WATCH_SECRET_KEY_PREVIOUS
 * opens the old ones, each is sealed again with the new key when it is next used.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { call, TEST_SEALING_KEY, USER_GEMINI_KEY, world } from "../../helpers/answers_env.ts";
import { answersFromEnv, describeAnswers } from "../../../lib/features/answers/config.ts";
import { answersOf } from "../../../lib/features/answers/context.ts";
import { openUserKey } from "../../../lib/features/answers/user_keys.ts";
import { SecretBox } from "../../../lib/kit/auth/secret_box.ts";
import { keptSecret } from "../../../lib/kit/storage/store_secrets.ts";

const CONTEXT_ACCOUNT = "acct-answers-1";

Deno.test("[keys] users' vendor keys stay off without WATCH_SECRET_KEY, and start-up says why", async () => {
  const settings = answersFromEnv({ ANSWERS_USER_KEYS: "1" }, () => new Map());
  assertEquals([settings.userKeys, settings.userKeysRefused], [false, true]);
  assert(/users' own keys are OFF: ANSWERS_USER_KEYS needs WATCH_SECRET_KEY/.test(
    describeAnswers(settings),
  ));
  const on = answersFromEnv(
    { ANSWERS_USER_KEYS: "1", WATCH_SECRET_KEY: TEST_SEALING_KEY },
    () => new Map(),
  );
  assertEquals([on.userKeys, on.userKeysRefused], [true, false]);

  const w = await world({ WATCH_SECRET_KEY: "" });
  try {
    const put = await call(w.env, w.key, "PUT", "/api/answers/keys/gemini", {
      apiKey: USER_GEMINI_KEY,
    });
    assertEquals(put.status, 403);
    assert(/WATCH_SECRET_KEY/.test((await put.json()).error));
  } finally {
    await w.close();
  }
});

Deno.test("[keys] a stored key opens with WATCH_SECRET_KEY, never with what KV holds", async () => {
  const w = await world();
  try {
    const put = await call(w.env, w.key, "PUT", "/api/answers/keys/gemini", {
      apiKey: USER_GEMINI_KEY,
    });
    assertEquals(put.status, 200);
    const deps = answersOf(w.env.deps);
    const stored = await deps.answers.getKey(CONTEXT_ACCOUNT, "gemini");
    assert(stored, "the key is stored");
    const context = `answers-key:${CONTEXT_ACCOUNT}:gemini`;
    // Everything a copy of the store holds: the sealed value and the secret kept in KV.
    const inKv = await keptSecret(w.env.kv, "watch-secret-box", () => "never-made-here");
    assertEquals(await new SecretBox(inKv).open(stored.sealed, context), null);
    assertEquals(
      await new SecretBox(TEST_SEALING_KEY).open(stored.sealed, context),
      USER_GEMINI_KEY,
    );
  } finally {
    await w.close();
  }
});

Deno.test("[keys] rotation: the previous key opens old values, which are sealed again when used", async () => {
  const w = await world();
  try {
    const put = await call(w.env, w.key, "PUT", "/api/answers/keys/gemini", {
      apiKey: USER_GEMINI_KEY,
    });
    assertEquals(put.status, 200);
    const deps = answersOf(w.env.deps);
    const before = (await deps.answers.getKey(CONTEXT_ACCOUNT, "gemini"))!.sealed;
    const NEW_KEY = "rotated-sealing-key-0123456789abcdef-0002";
    const context = `answers-key:${CONTEXT_ACCOUNT}:gemini`;
    assertEquals(await new SecretBox(NEW_KEY).open(before, context), null, "a new key alone");

    const rotated = {
      ...deps,
      box: () => Promise.resolve(new SecretBox(NEW_KEY, [TEST_SEALING_KEY])),
    };
    assertEquals(await openUserKey(rotated, CONTEXT_ACCOUNT, "gemini"), USER_GEMINI_KEY);
    const after = (await deps.answers.getKey(CONTEXT_ACCOUNT, "gemini"))!.sealed;
    assert(after !== before, "sealed again when used");
    // The previous key can now go: the new key alone opens it, the old one no longer does.
    assertEquals(await new SecretBox(NEW_KEY).open(after, context), USER_GEMINI_KEY);
    assertEquals(await new SecretBox(TEST_SEALING_KEY).open(after, context), null);
    // Sealed with the current key already: nothing to write back.
    assertEquals(await new SecretBox(NEW_KEY, [TEST_SEALING_KEY]).reseal(after, context), null);
  } finally {
    await w.close();
  }
});
