/**
 * Watches run when asked (issue 44, item 6): "run now" from the API (the owner's key, or the
 * operator's PIPELINE_TOKEN for any watch), from the account page and from `deno task watch run`
 * starts the watch's scan at once (queued on the scan queue, the watch waiting for it); the owner
 * may ask once per watch every 10 minutes (429, Retry-After); creating and removing watches is rate
 * limited per account and per address (429, Retry-After); the links in answers and alerts come
 * from the public URL or the request, never `localhost:0` with PORT=0.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { PIPELINE, startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { createApiKey } from "../../../lib/kit/auth/keys.ts";
import { setListeningOrigin, watchOf } from "../../../lib/features/watch/context.ts";
import { main as watchCli } from "../../../lib/features/watch/cli.ts";
import { CAPS } from "../../../lib/kit/limits/limits.ts";
import { startMutableSite } from "../../helpers/watch_env.ts";

const DOMAIN = "good.test";

function api(
  env: TestEnv,
  auth: string | null,
  method: string,
  path: string,
  body?: unknown,
  ip?: string,
) {
  return Promise.resolve(env.handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        ...(auth ? { authorization: auth } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(ip ? { "x-forwarded-for": ip } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  ));
}

async function keyOf(env: TestEnv, accountId: string): Promise<string> {
  const { key } = await createApiKey(env.store, env.service.keyPrefix, {
    name: "ci",
    accountId,
    now: env.clock.now,
  });
  return key;
}

async function withEnv(fn: (env: TestEnv) => Promise<void>, extra: Record<string, string> = {}) {
  const site = await startMutableSite(DOMAIN);
  const env = await startAppEnv({
    extraResolve: [`${DOMAIN}=127.0.0.1:${site.port}`],
    env: { TRUST_PROXY: "1", ...extra },
  });
  try {
    await fn(env);
  } finally {
    await env.close();
    await site.close();
  }
}

Deno.test("watch run now - the owner's key and the operator's token start the scan at once; again too soon is 429", async () => {
  await withEnv(async (env) => {
    const key = await keyOf(env, "acct-run-1");
    const created = await api(env, `Bearer ${key}`, "POST", "/api/watches", { url: DOMAIN });
    assertEquals(created.status, 201);
    const { watch } = await created.json();
    // Nothing scanned yet: nothing in flight.
    assertEquals(await env.store.getInflight(DOMAIN), null);
    const res = await api(env, `Bearer ${key}`, "POST", `/api/watches/${watch.id}/run`);
    assertEquals(res.status, 202);
    const body = await res.json();
    assertEquals(body.joined, false);
    assertEquals(res.headers.get("location"), body.statusUrl);
    // Queued at once: the domain's scan is in flight under the answer's id, the watch waits for it.
    assertEquals((await env.store.getInflight(DOMAIN))?.jobId, body.scanId);
    const stored = (await watchOf(env.deps).watches.get("acct-run-1", watch.id)).value!;
    assertEquals(stored.pending?.scanId, body.scanId);
    assert(/run now by its owner/.test(stored.lastRun!.detail));
    // The owner again within 10 minutes: 429 with Retry-After, nothing queued.
    const again = await api(env, `Bearer ${key}`, "POST", `/api/watches/${watch.id}/run`);
    assertEquals(again.status, 429);
    assertEquals(Number(again.headers.get("retry-after")), CAPS.watchRunNowMinutes * 60);
    // The operator's token runs any watch (joining the scan in flight).
    const op = await api(env, `Bearer ${PIPELINE}`, "POST", `/api/watches/${watch.id}/run`);
    assertEquals(op.status, 202);
    assertEquals((await op.json()).joined, true);
    // Another account's key: not its watch.
    const other = await keyOf(env, "acct-run-2");
    assertEquals(
      (await api(env, `Bearer ${other}`, "POST", `/api/watches/${watch.id}/run`)).status,
      404,
    );
    assertEquals((await api(env, null, "POST", `/api/watches/${watch.id}/run`)).status, 401);
  });
});

Deno.test("watch run now - from the account page: the button posts, the report shows the scan running", async () => {
  await withEnv(async (env) => {
    const client = new WebClient(env, "198.51.100.201");
    assertEquals(
      (await client.signUp(
        `run${crypto.randomUUID().slice(0, 6)}@example.com`,
        "correct horse battery staple",
      ))
        .status,
      303,
    );
    let { html } = await client.page("/account");
    const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
    assertEquals(
      (await client.request("/account/watches", { form: { csrf, url: DOMAIN } })).status,
      303,
    );
    ({ html } = await client.page("/account"));
    const action = html.match(/action="(\/account\/watches\/[^"/]+\/run)"/)![1];
    assert(/Run now/.test(html));
    const res = await client.request(action, { form: { csrf } });
    assertEquals(res.status, 303);
    assertEquals(res.headers.get("location"), `/report/${DOMAIN}`);
    assert(await env.store.getInflight(DOMAIN), "the scan is in flight");
    const report = await client.page(`/report/${DOMAIN}`);
    assert(/ScanProgress/.test(report.html), "the report page shows the running scan");
  });
});

Deno.test("watch run now - deno task watch run: the operator's CLI starts it through the server's API", async () => {
  await withEnv(async (env) => {
    const key = await keyOf(env, "acct-run-cli");
    const { watch } =
      await (await api(env, `Bearer ${key}`, "POST", "/api/watches", { url: DOMAIN }))
        .json();
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, env.handler);
    try {
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
      const base = `http://localhost:${server.addr.port}`;
      assertEquals(
        await watchCli(["run", watch.id, "--url", base], { PIPELINE_TOKEN: PIPELINE }, io),
        0,
      );
      assert(/Started the scan of good\.test/.test(out.join("\n")), out.join("\n"));
      assert(await env.store.getInflight(DOMAIN));
      // No such watch: refused, exit 1; no token: exit 2.
      assertEquals(
        await watchCli(["run", "nope", "--url", base], { PIPELINE_TOKEN: PIPELINE }, io),
        1,
      );
      assertEquals(await watchCli(["run", watch.id, "--url", base], {}, io), 2);
    } finally {
      await server.shutdown();
    }
  });
});

Deno.test("watch limits - creating and removing watches: 429 with Retry-After per account, then per address", async () => {
  await withEnv(async (env) => {
    const ip = "203.0.113.40";
    const a = await keyOf(env, "acct-churn-a");
    // Create and remove until the account's changes of the hour are used up.
    let changes = 0;
    while (changes < CAPS.watchChangesPerAccount) {
      const made = await api(env, `Bearer ${a}`, "POST", "/api/watches", { url: DOMAIN }, ip);
      assertEquals(made.status, 201);
      changes++;
      const { watch } = await made.json();
      if (changes === CAPS.watchChangesPerAccount) break;
      assertEquals(
        (await api(env, `Bearer ${a}`, "DELETE", `/api/watches/${watch.id}`, undefined, ip)).status,
        200,
      );
      changes++;
    }
    const refused = await api(
      env,
      `Bearer ${a}`,
      "POST",
      "/api/watches",
      { url: "other.test" },
      ip,
    );
    assertEquals(refused.status, 429);
    assert(Number(refused.headers.get("retry-after")) > 0);
    assert(/per account/.test((await refused.json()).error));
    // Another account from the same address: the address's pool fills at 30.
    const b = await keyOf(env, "acct-churn-b");
    let status = 0;
    for (let i = 0; i < CAPS.watchChangesPerAddress; i++) {
      const made = await api(env, `Bearer ${b}`, "POST", "/api/watches", { url: DOMAIN }, ip);
      status = made.status;
      if (status !== 201) {
        assertEquals(status, 429);
        assert(/from one address/.test((await made.json()).error));
        break;
      }
      const { watch } = await made.json();
      await api(env, `Bearer ${b}`, "DELETE", `/api/watches/${watch.id}`, undefined, ip);
    }
    assertEquals(status, 429);
    // From another address the account still may (its own pool is not full).
    const c = await keyOf(env, "acct-churn-c");
    assertEquals(
      (await api(env, `Bearer ${c}`, "POST", "/api/watches", { url: DOMAIN }, "203.0.113.41"))
        .status,
      201,
    );
  });
});

Deno.test("watch links - PORT=0: answers link to the request's origin, alerts to where the server listens", async () => {
  await withEnv(async (env) => {
    const key = await keyOf(env, "acct-links");
    const w = watchOf(env.deps);
    assertEquals(
      w.origin,
      "http://localhost:0",
      "before listening, the configured port is all it knows",
    );
    const made = await api(env, `Bearer ${key}`, "POST", "/api/watches", { url: DOMAIN });
    const { watch } = await made.json();
    assertEquals(watch.feed, `http://localhost/api/report/${DOMAIN}/changes.atom`);
    setListeningOrigin(w, "0.0.0.0", 41234);
    assertEquals(w.origin, "http://localhost:41234");
    setListeningOrigin(w, "127.0.0.1", 41235);
    assertEquals(w.origin, "http://127.0.0.1:41235");
  }, { PORT: "0" });
  // PUBLIC_URL names it: always that.
  await withEnv(async (env) => {
    const key = await keyOf(env, "acct-links-2");
    const { watch } =
      await (await api(env, `Bearer ${key}`, "POST", "/api/watches", { url: DOMAIN })).json();
    assertEquals(watch.feed, `https://checker.example.org/api/report/${DOMAIN}/changes.atom`);
    setListeningOrigin(watchOf(env.deps), "0.0.0.0", 41236);
    assertEquals(watchOf(env.deps).origin, "https://checker.example.org");
  }, { PORT: "0", PUBLIC_URL: "https://checker.example.org" });
});
