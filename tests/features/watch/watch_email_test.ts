/**
 * E-mail alerts (issue 44, item 5) through the operator's SMTP server, here a local one the test
 * starts (npm smtp-server): a watch's address gets a confirmation mail first; the link's page
 * confirms nothing until its button is pressed; after a regression the confirmed address gets
 * one alert with its unsubscribe link and the one-click headers (RFC 8058); the unsubscribe link
 * stops the e-mails at once; the address is sealed at rest.
 */
import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { startAppEnv, type TestEnv } from "../../helpers/app_env.ts";
import { startMutableSite } from "../../helpers/watch_env.ts";
import { createApiKey } from "../../../lib/kit/auth/keys.ts";
import { watchOf } from "../../../lib/features/watch/context.ts";

/** A mail as the local server got it: its raw text (headers and body). */
interface Mail {
  to: string[];
  raw: string;
}

function startSmtp(): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(
      stream: { on(e: string, f: (c?: Uint8Array) => void): void },
      session: { envelope: { rcptTo: { address: string }[] } },
      done: () => void,
    ) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c) => chunks.push(c!));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: new TextDecoder().decode(Buffer.concat(chunks)),
        });
        done();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: (server.server.address() as { port: number }).port,
        mails,
        close: () => new Promise((r) => server.close(() => r(undefined))),
      });
    });
  });
}

/** The body of a mail, soft line breaks of quoted-printable undone. */
function bodyOf(m: Mail): string {
  return m.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
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

async function scansStored(env: TestEnv): Promise<void> {
  const w = watchOf(env.deps);
  for (let i = 0; i < 600; i++) {
    let done = true;
    for (const p of await w.watches.pending(100)) {
      const entry = (await w.watches.get(p.accountId, p.id)).value;
      if (entry?.pending && !(await env.store.history.lookup(entry.pending.scanId))) done = false;
    }
    if (done) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the watch's scan was not stored in time");
}

Deno.test({
  name:
    "watch email - confirmation first; after a regression one alert reaches the SMTP server; the unsubscribe link stops them",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const smtp = await startSmtp();
    const site = await startMutableSite();
    const env = await startAppEnv({
      worker: true,
      extraResolve: [`watched.test=127.0.0.1:${site.port}`],
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: "alerts@checker.example.org",
        PUBLIC_URL: "https://checker.example.org",
      },
    });
    try {
      const { key } = await createApiKey(env.store, env.service.keyPrefix, {
        name: "ci",
        accountId: "acct-email-1",
        now: env.clock.now,
      });
      const created = await api(env, key, "POST", "/api/watches", {
        url: "https://watched.test/",
        schedule: "daily",
        email: "Owner@Example.com",
      });
      assert.equal(created.status, 201, await created.clone().text());
      const { watch } = await created.json();
      assert.deepEqual(watch.email, { display: "o…@example.com", state: "pending" });
      // The address is sealed at rest.
      let kv = "";
      for await (const e of env.kv.list({ prefix: [] })) kv += JSON.stringify(e.value);
      assert.ok(!kv.includes("owner@example.com"));

      // The first tick sends the confirmation (and runs the first scan: the baseline).
      await env.server.watchTick();
      assert.equal(smtp.mails.length, 1);
      const confirm = smtp.mails[0];
      assert.deepEqual(confirm.to, ["owner@example.com"]);
      assert.match(confirm.raw, /Subject: Confirm the alerts for watched\.test/);
      const link = bodyOf(confirm).match(
        /https:\/\/checker\.example\.org(\/watch\/email\/confirm\?token=[\w-]+)/,
      )![1];
      // Opening the link confirms nothing; its button does.
      const opened = await env.handler(new Request(`http://localhost${link}`));
      assert.equal(opened.status, 200);
      assert.match(await opened.text(), /<button type="submit">Confirm<\/button>/);
      assert.equal(
        (await watchOf(env.deps).watches.get("acct-email-1", watch.id)).value!.email!.state,
        "pending",
      );
      const pressed = await env.handler(new Request(`http://localhost${link}`, { method: "POST" }));
      assert.equal(pressed.status, 200);
      assert.match(await pressed.text(), /Confirmed/);
      // A foreign page cannot press it for someone.
      const forged = await env.handler(
        new Request(`http://localhost${link}`, {
          method: "POST",
          headers: { origin: "https://evil.example" },
        }),
      );
      assert.equal(forged.status, 403);

      await scansStored(env);
      await env.server.watchTick();
      // robots.txt now blocks OAI-SearchBot: the next run alerts by mail, once.
      site.setRobots(site.blockingRobots);
      const next = Date.parse(
        (await (await api(env, key, "GET", `/api/watches/${watch.id}`)).json()).watch.nextRunAt,
      );
      env.clock.now = next;
      await env.server.watchTick();
      await scansStored(env);
      const report = await env.server.watchTick();
      assert.equal(report.alerts, 1);
      await env.server.watchTick();
      assert.equal(smtp.mails.length, 2, "one alert after the confirmation");
      const alert = smtp.mails[1];
      assert.match(alert.raw, /Subject: watched\.test got worse/);
      assert.match(bodyOf(alert), /robots\.txt now blocks OAI-SearchBot/);
      assert.match(alert.raw, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
      const unsubscribe = bodyOf(alert).match(
        /https:\/\/checker\.example\.org(\/watch\/email\/unsubscribe\?token=[\w-]+)/,
      )![1];
      // The header as the mail has it (a long header is folded onto indented lines).
      const header = alert.raw.replace(/\r?\n[ \t]+/g, "").match(/List-Unsubscribe:\s*(.*)/)![1];
      assert.equal(header.trim(), `<https://checker.example.org${unsubscribe}>`, header);

      // The one-click POST a mail program sends: the e-mails stop, the watch goes on.
      const stopped = await env.handler(
        new Request(`http://localhost${unsubscribe}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
      );
      assert.equal(stopped.status, 200);
      assert.match(await stopped.text(), /No more e-mails for watched\.test/);
      const after = (await watchOf(env.deps).watches.get("acct-email-1", watch.id)).value!;
      assert.equal(after.email, null);
      // The link is spent.
      const again = await env.handler(
        new Request(`http://localhost${unsubscribe}`, { method: "POST" }),
      );
      assert.equal(again.status, 404);
    } finally {
      await env.close();
      await site.close();
      await smtp.close();
    }
  },
});

Deno.test("watch email - without an SMTP server an address is refused; a bad address is a 400", async () => {
  const env = await startAppEnv({});
  try {
    const { key } = await createApiKey(env.store, env.service.keyPrefix, {
      name: "ci",
      accountId: "acct-email-2",
      now: env.clock.now,
    });
    const res = await api(env, key, "POST", "/api/watches", {
      url: "example.com",
      email: "a@example.com",
    });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /not set up on this instance/);
  } finally {
    await env.close();
  }
  const smtp = await startSmtp();
  const env2 = await startAppEnv({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
  try {
    const { key } = await createApiKey(env2.store, env2.service.keyPrefix, {
      name: "ci",
      accountId: "acct-email-3",
      now: env2.clock.now,
    });
    const res = await api(env2, key, "POST", "/api/watches", {
      url: "example.com",
      email: "not an address",
    });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /email must be one address/);
  } finally {
    await env2.close();
    await smtp.close();
  }
});
