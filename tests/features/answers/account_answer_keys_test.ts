/**
 * The dashboard's "Your AI vendor keys" section and its forms (lib/features/answers/routes/account/answer_keys.ts,
 * lib/features/answers/views/answer_keys_section.tsx), in-process with a signed-in browser: a key set, replaced and
 * removed from the page, shown only as "set since <date>" (never the key, nor a part of it, in the
 * page, the log lines or anywhere in KV), the key really stored for the calls; the refusals (no
 * form token, signed out, an unknown vendor, not a key, users' keys off), each leaving nothing
 * stored. The clock is the test's own (2026-11-21 10:00 UTC), never today's.
 */
import assert from "node:assert/strict";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { formToken, WebClient } from "../../helpers/web_client.ts";
import { answersOf } from "../../../lib/features/answers/context.ts";
import { openUserKey, setUserKey } from "../../../lib/features/answers/user_keys.ts";
import { TEST_SEALING_KEY } from "../../helpers/answers_env.ts";

const PASSWORD = "correct horse battery staple";
const FIRST_KEY = "AIza-first-account-page-key-Qz7Wx9";
const SECOND_KEY = "AIza-second-account-page-key-Jm4Rt2";
/** Ends of the keys a masked display would show ("...Qz7Wx9"). */
const KEY_ENDS = ["Qz7Wx9", "Jm4Rt2", "AIza-f", "AIza-s"];
const PROVIDER_NAMES = [
  "ChatGPT search (OpenAI)",
  "Perplexity (Sonar)",
  "Claude (Anthropic)",
  "Gemini (Google)",
];
const SET_GEMINI = "/account/answer-keys/gemini";
const DELETE_GEMINI = "/account/answer-keys/gemini/delete";

let ipCounter = 1;

async function signedIn(env: TestEnv) {
  const email = `keys${ipCounter}@example.com`;
  const w = new WebClient(env, `198.51.100.${100 + ipCounter++}`);
  const res = await w.signUp(email, PASSWORD);
  assert.equal(res.status, 303, await res.clone().text());
  const account = await env.deps.accounts.getAccountByEmail(email);
  assert.ok(account);
  return { w, accountId: account.id };
}

/** Every KV entry's key and value, as one string (to prove a secret is not stored in clear). */
async function dumpKv(env: TestEnv): Promise<string> {
  const parts: string[] = [];
  for await (const e of env.kv.list({ prefix: [] })) parts.push(JSON.stringify([e.key, e.value]));
  return parts.join("\n");
}

/** The KV entries of users' vendor keys. */
async function storedKeys(env: TestEnv): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const e of env.kv.list({ prefix: [] })) {
    if (e.key.includes("answer_keys")) keys.push(e.key);
  }
  return keys;
}

/** The section's table row of a vendor (by its display name). */
function row(html: string, name: string): string {
  const at = html.indexOf(`<td data-label="Vendor">${name}</td>`);
  assert.ok(at >= 0, `a row for ${name}`);
  return html.slice(html.lastIndexOf("<tr", at), html.indexOf("</tr>", at));
}

/** Asserts no key, nor an end of one, is in `text`. */
function assertNoKey(text: string, where: string) {
  for (const s of [FIRST_KEY, SECOND_KEY, ...KEY_ENDS]) {
    assert.ok(!text.includes(s), `${s} is not in ${where}`);
  }
}

Deno.test("account answer keys - set, replace and remove from the page; the key is never shown, logged or stored in clear", async () => {
  const env = await startAppEnv({
    env: { ANSWERS_USER_KEYS: "1", WATCH_SECRET_KEY: TEST_SEALING_KEY },
  });
  try {
    const { w, accountId } = await signedIn(env);
    const answers = answersOf(env.deps);
    const empty = (await w.page("/account")).html;
    assert.ok(empty.includes('id="answer-keys"'));
    assert.ok(empty.includes("Your AI vendor keys"));
    for (const name of PROVIDER_NAMES) {
      const r = row(empty, name);
      assert.match(r, /not set/);
      assert.match(r, /<input[^>]*type="password"[^>]*autocomplete="off"/);
      assert.match(r, /<label for="answer-key-[a-z]+"/);
      assert.ok(!r.includes("/delete"), `no remove button for ${name} without a key`);
    }

    const set = await w.request(SET_GEMINI, {
      form: { csrf: formToken(empty, SET_GEMINI), apiKey: FIRST_KEY },
    });
    assert.equal(set.status, 303);
    assert.equal(set.headers.get("location"), "/account#answer-keys");
    assert.equal(set.headers.get("cache-control"), "no-store");
    assert.equal(await openUserKey(answers, accountId, "gemini"), FIRST_KEY, "stored for calls");

    const saved = (await w.page("/account")).html;
    assert.ok(saved.includes("Your Gemini (Google) key is saved."), "the confirmation");
    const gemini = row(saved, "Gemini (Google)");
    assert.match(gemini, /set since <time[^>]*>2026-11-21 10:00 UTC<\/time>/);
    assert.ok(gemini.includes(`action="${DELETE_GEMINI}"`), "a remove button");
    for (const name of PROVIDER_NAMES.slice(0, 3)) assert.match(row(saved, name), /not set/);
    // The confirmation is shown once.
    assert.ok(!(await w.page("/account")).html.includes("key is saved"));

    // Replaced a day later: the new key is used, the date is the new one.
    env.clock.now += 86_400_000;
    const replaced = await w.request(SET_GEMINI, {
      form: { csrf: formToken(saved, SET_GEMINI), apiKey: SECOND_KEY },
    });
    assert.equal(replaced.status, 303);
    assert.equal(await openUserKey(answers, accountId, "gemini"), SECOND_KEY);
    const after = (await w.page("/account")).html;
    assert.match(row(after, "Gemini (Google)"), /set since <time[^>]*>2026-11-22 10:00 UTC</);

    // A fetch gets JSON, without the key.
    const json = await w.request("/account/answer-keys/openai", {
      form: { csrf: formToken(after, "/account/answer-keys/openai"), apiKey: FIRST_KEY },
      json: true,
    });
    assert.equal(json.status, 200);
    const body = await json.text();
    assert.deepEqual(JSON.parse(body), {
      key: { provider: "openai", set: true, addedAt: "2026-11-22T10:00:00.000Z" },
    });
    assertNoKey(body, "the JSON answer");

    const everything = [saved, after, (await w.page("/account")).html].join("\n");
    assertNoKey(everything, "the page");
    assert.ok(env.logs.some((e) => e.event === "answers.key_set"), "the log lines were captured");
    assertNoKey(JSON.stringify(env.logs), "the log lines");
    assert.equal((await storedKeys(env)).length, 2);
    assertNoKey(await dumpKv(env), "KV");

    // Removed: the page says not set again, the key no longer opens, its entry is gone.
    const removed = await w.request(DELETE_GEMINI, {
      form: { csrf: formToken(after, DELETE_GEMINI) },
    });
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.get("location"), "/account#answer-keys");
    assert.equal(await openUserKey(answers, accountId, "gemini"), null);
    const gone = (await w.page("/account")).html;
    assert.ok(gone.includes("Your Gemini (Google) key is removed."));
    assert.match(row(gone, "Gemini (Google)"), /not set/);
    assert.ok(!row(gone, "Gemini (Google)").includes("/delete"));
    assert.match(row(gone, "ChatGPT search (OpenAI)"), /set since/, "the other key is kept");
    assert.equal((await storedKeys(env)).length, 1);
    // Removing it again (a second click): 404, nothing else changes.
    const again = await w.request(DELETE_GEMINI, { form: { csrf: formToken(gone, SET_GEMINI) } });
    assert.equal(again.status, 404);
    assert.match(await again.text(), /No key of that provider is set/);
    const jsonDelete = await w.request("/account/answer-keys/openai/delete", {
      form: { csrf: formToken(gone, SET_GEMINI) },
      json: true,
    });
    assert.deepEqual(await jsonDelete.json(), { deleted: true });
    assert.deepEqual(await storedKeys(env), []);
  } finally {
    await env.close();
  }
});

Deno.test("account answer keys - refused: no form token, signed out, an unknown vendor, not a key; nothing stored", async (t) => {
  const env = await startAppEnv({
    env: { ANSWERS_USER_KEYS: "1", WATCH_SECRET_KEY: TEST_SEALING_KEY },
  });
  try {
    const { w } = await signedIn(env);
    const html = (await w.page("/account")).html;
    const csrf = formToken(html, SET_GEMINI);

    await t.step("without the session's form token: 403", async () => {
      const forms: Record<string, string>[] = [
        { apiKey: FIRST_KEY },
        { apiKey: FIRST_KEY, csrf: "x".repeat(43) },
      ];
      for (const form of forms) {
        const res = await w.request(SET_GEMINI, { form });
        assert.equal(res.status, 403);
        assert.match(await res.text(), /Request refused/);
      }
      const json = await w.request(SET_GEMINI, { form: { apiKey: FIRST_KEY }, json: true });
      assert.equal(json.status, 403);
      assert.match((await json.json()).error, /expired|not sent from this site/);
      const del = await w.request(DELETE_GEMINI, { form: {} });
      assert.equal(del.status, 403);
      await del.body?.cancel();
    });

    await t.step("signed out: sent to sign in (a fetch: 401)", async () => {
      const stranger = new WebClient(env, "198.51.100.250");
      const res = await stranger.request(SET_GEMINI, { form: { csrf, apiKey: FIRST_KEY } });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/account/login");
      const json = await stranger.request(SET_GEMINI, {
        form: { csrf, apiKey: FIRST_KEY },
        json: true,
      });
      assert.equal(json.status, 401);
      await json.body?.cancel();
    });

    await t.step("an unknown vendor: 404, a page or JSON", async () => {
      const res = await w.request("/account/answer-keys/nope", {
        form: { csrf, apiKey: FIRST_KEY },
      });
      assert.equal(res.status, 404);
      assert.match(res.headers.get("content-type") ?? "", /text\/html/);
      assert.match(await res.text(), /No provider nope/);
      const json = await w.request("/account/answer-keys/nope/delete", {
        form: { csrf },
        json: true,
      });
      assert.equal(json.status, 404);
      assert.deepEqual(await json.json(), { error: "No provider nope" });
    });

    await t.step("not a key (too short, spaces): 400 with the reason by its form", async () => {
      for (const apiKey of ["k3y!Q", "has spaces in it"]) {
        const res = await w.request(SET_GEMINI, { form: { csrf, apiKey } });
        assert.equal(res.status, 400);
        const page = await res.text();
        assert.match(
          row(page, "Gemini (Google)"),
          /id="answer-key-gemini-error"[^>]*>apiKey must be the vendor's key: 8 to 512 printable/,
        );
        assert.ok(!page.includes(apiKey), "what was typed is not repeated");
      }
      const json = await w.request(SET_GEMINI, { form: { csrf, apiKey: "short" }, json: true });
      assert.equal(json.status, 400);
      assert.match((await json.json()).error, /8 to 512 printable characters/);
    });

    await t.step("nothing was stored by any of them", async () => {
      assert.deepEqual(await storedKeys(env), []);
      assertNoKey(await dumpKv(env), "KV");
      for (const name of PROVIDER_NAMES) {
        assert.match(row((await w.page("/account")).html, name), /not set/);
      }
    });
  } finally {
    await env.close();
  }
});

Deno.test("account answer keys - the operator does not allow users' keys: no section, the form refused", async () => {
  const env = await startAppEnv({ env: { ANSWERS_USER_KEYS: "0" } });
  try {
    const { w, accountId } = await signedIn(env);
    const html = (await w.page("/account")).html;
    assert.ok(html.includes("Your account"), "the dashboard itself");
    assert.ok(!html.includes('id="answer-keys"'));
    assert.ok(!html.includes("Your AI vendor keys"));
    assert.ok(!html.includes("/account/answer-keys/"));

    const csrf = formToken(html, "/account/keys");
    const res = await w.request(SET_GEMINI, { form: { csrf, apiKey: FIRST_KEY } });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /does not accept users' own vendor keys/);
    const json = await w.request(SET_GEMINI, { form: { csrf, apiKey: FIRST_KEY }, json: true });
    assert.equal(json.status, 403);
    assert.match((await json.json()).error, /ANSWERS_USER_KEYS/);
    assert.deepEqual(await storedKeys(env), []);

    // A key stored before the operator turned them off can still be removed (as over the API).
    const answers = answersOf(env.deps);
    const on = { ...answers.config, answers: { ...answers.config.answers, userKeys: true } };
    await setUserKey({ ...answers, config: on }, accountId, "gemini", FIRST_KEY);
    assert.equal((await storedKeys(env)).length, 1);
    const removed = await w.request(DELETE_GEMINI, { form: { csrf } });
    assert.equal(removed.status, 303);
    assert.deepEqual(await storedKeys(env), []);
  } finally {
    await env.close();
  }
});
