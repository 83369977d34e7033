/**
 * The account's server-log pages in process: the upload needs the session's form token (the body
 * is the log, so the token comes in its header), an upload's progress is the account's own, the
 * pages are the visibility service's, and the dashboard links to them there only.
 */
import assert from "node:assert/strict";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { WebClient } from "../../helpers/web_client.ts";
import { rangeDir, RENDER, SCENARIO } from "./log_fixtures.ts";

async function signedIn(env: TestEnv, ip: string) {
  const client = new WebClient(env, ip);
  const res = await client.signUp(
    `a${crypto.randomUUID().slice(0, 8)}@example.com`,
    "correct horse battery staple",
  );
  assert.equal(res.status, 303);
  // The session's form token, as the dashboard's forms carry it (the upload island has the same).
  const { html } = await client.page("/account");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  return { client, csrf };
}

Deno.test("[logs/account] an upload from the page: its token checked, its progress the account's own", async () => {
  const env = await startAppEnv({
    env: {
      LOG_IP_RANGES_DIR: await rangeDir(),
      LOG_REVERSE_DNS: "off",
      LOG_IP_RANGES_FETCH: "off",
    },
  });
  try {
    const a = await signedIn(env, "198.51.100.211");
    const b = await signedIn(env, "198.51.100.212");
    const log = RENDER.combined(SCENARIO);
    const send = (who: typeof a, token: string | null, id: string) =>
      who.client.request(`/account/logs/shop.test?upload=${id}`, {
        method: "POST",
        body: log,
        json: true,
        headers: {
          "content-length": String(new TextEncoder().encode(log).length),
          ...(token ? { "x-csrf-token": token } : {}),
        },
      });
    const refused = await send(a, null, "11111111-aaaa");
    assert.equal(refused.status, 403);
    assert.equal((await send(a, b.csrf, "11111111-aaaa")).status, 403);

    const ok = await send(a, a.csrf, "22222222-bbbb");
    assert.equal(ok.status, 200, await ok.clone().text());
    const body = await ok.json();
    assert.equal(body.read.lines, SCENARIO.length);
    assert.equal(body.report.totals.verified, 6);

    const progress = await a.client.request("/account/log-uploads/22222222-bbbb", { json: true });
    assert.equal(progress.status, 200);
    assert.deepEqual(
      { ...(await progress.json()), received: undefined },
      {
        domain: "shop.test",
        stated: new TextEncoder().encode(log).length,
        received: undefined,
        bytes: new TextEncoder().encode(log).length,
        lines: SCENARIO.length,
        state: "done",
      },
    );
    // Another account never sees it.
    const other = await b.client.request("/account/log-uploads/22222222-bbbb", { json: true });
    assert.equal(other.status, 404);

    const page = await a.client.page("/account/logs/shop.test");
    assert.equal(page.res.status, 200);
    assert.match(page.html, /Server logs of shop\.test/);
    const dashboard = await a.client.page("/account");
    assert.match(dashboard.html, /href="\/account\/logs"/);
  } finally {
    await env.close();
  }
});

Deno.test("[logs/account] the schema service has no logs pages, and its dashboard no link to them", async () => {
  const env = await startAppEnv({ env: { SERVICE: "schema" } });
  try {
    const client = new WebClient(env, "198.51.100.213");
    await client.signUp(
      `s${crypto.randomUUID().slice(0, 8)}@example.com`,
      "correct horse battery staple",
    );
    const page = await client.page("/account/logs");
    assert.equal(page.res.status, 404);
    const dashboard = await client.page("/account");
    assert.doesNotMatch(dashboard.html, /href="\/account\/logs"/);
  } finally {
    await env.close();
  }
});
