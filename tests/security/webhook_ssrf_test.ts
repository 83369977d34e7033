/**
 * Server-side request forgery through a watch's webhook URL (lib/features/watch/webhook_url.ts, delivered by
 * lib/features/watch/delivery.ts through the guarded fetcher): the same canaries as ssrf_test.ts. Counting
 * listeners wait at 127.0.0.1, 127.0.0.2 and [::1] (and 80/443 when the process may bind them);
 * a connect spy refuses and records any socket to a non-loopback address. Every webhook URL that
 * is, or resolves to, a loopback, private or metadata address is refused when the watch is
 * created (400, nothing stored), a name that rebinds to one after creation is refused at delivery
 * before any connection (and not retried), and SCAN_RESOLVE (an operator's map for scanning) never
 * applies to webhooks. The suite ends by asserting that no sentinel accepted a connection and no
 * connection was attempted off loopback.
 */
import assert from "node:assert/strict";
import { installConnectSpy, startSentinels } from "./helpers/net_guard.ts";
import { lookupSpy, startSecurityEnv } from "./helpers/security_env.ts";
import { createApiKey } from "../../lib/kit/auth/keys.ts";
import { accountStoreOf } from "../../lib/app/server.ts";
import { watchOf } from "../../lib/features/watch/context.ts";
import { deliverDue } from "../../lib/features/watch/delivery.ts";

Deno.test({
  name: "[security/webhook] no webhook URL reaches loopback, private or metadata addresses",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const sentinels = startSentinels();
    const spy = installConnectSpy();
    const P = sentinels.port;
    const dns = lookupSpy({
      "loopback.evil.example": ["127.0.0.1"],
      "ten.evil.example": ["10.0.0.1"],
      "metadata.evil.example": ["169.254.169.254"],
      "metadata.google.internal": ["169.254.169.254"],
      "ec2v6.evil.example": ["fd00:ec2::254"],
      "mixed.evil.example": ["93.184.216.34", "10.0.0.1"],
      "mapped.evil.example": ["::ffff:127.0.0.1"],
      "nat64.evil.example": ["64:ff9b::a9fe:a9fe"],
      // Public when the watch is created, loopback when the alert is sent.
      "rebind.evil.example": (n) => n === 0 ? ["93.184.216.34"] : ["127.0.0.1"],
      "site.example": ["93.184.216.34"],
    });
    const env = await startSecurityEnv({
      lookup: dns.lookup,
      // An operator's scanning map: must not open a way to post to that address.
      scanResolve: `intranet.test=127.0.0.1:${P}`,
    });
    try {
      const accounts = accountStoreOf(env.store);
      const accountId = crypto.randomUUID();
      await accounts.createAccount({
        id: accountId,
        email: "owner@example.com",
        passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$x$y",
        createdAt: env.clock.now,
        lastLoginAt: null,
        activeKeys: 1,
        keysCreated: 1,
      });
      const { key } = await createApiKey(env.store, "uvk_", { name: "ci", accountId });
      const create = (webhookUrl: string) =>
        env.app.request("/api/watches", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ url: "site.example", webhookUrl }),
        });

      await t.step(
        "every notation of a non-public webhook host is a 400, nothing stored",
        async () => {
          const refused = [
            `https://127.0.0.1:${P}/hook`,
            `https://127.0.0.2:${P}/hook`,
            `https://[::1]:${P}/hook`,
            "https://2130706433/",
            "https://0x7f000001/",
            "https://0177.0.0.1/",
            "https://127.1/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:169.254.169.254]/",
            "https://169.254.169.254/latest/meta-data/",
            "https://[fd00:ec2::254]/",
            "https://10.0.0.1/",
            "https://localhost/",
            "https://hooks.localhost/",
            `https://loopback.evil.example:${P}/`,
            "https://ten.evil.example/",
            "https://metadata.evil.example/",
            "https://metadata.google.internal/computeMetadata/v1/",
            "https://ec2v6.evil.example/",
            "https://mixed.evil.example/",
            "https://mapped.evil.example/",
            "https://nat64.evil.example/",
            `https://intranet.test:${P}/`,
            `http://site.example/`,
            `https://user:pw@site.example/`,
          ];
          for (const url of refused) {
            const res = await create(url);
            const body = await res.json();
            assert.equal(res.status, 400, `${url}: ${JSON.stringify(body)}`);
            assert.match(body.error, /webhookUrl/, url);
          }
          assert.deepEqual(await watchOf(env.deps).watches.list(accountId), []);
        },
      );

      await t.step(
        "a name that rebinds to loopback after creation is refused at delivery",
        async () => {
          const res = await create(`https://rebind.evil.example:${P}/hook`);
          assert.equal(res.status, 201, await res.clone().text());
          const { watch } = await res.json();
          const test = await env.app.request(`/api/watches/${watch.id}/test`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}` },
          });
          assert.equal(test.status, 202);
          const report = { delivered: 0, failed: 0, retried: 0 };
          await deliverDue(watchOf(env.deps), env.clock.now, 10, report);
          assert.deepEqual(report, { delivered: 0, failed: 1, retried: 0 }, "refused, not retried");
          const [d] = await watchOf(env.deps).watches.deliveries(accountId);
          assert.equal(d.state, "failed");
          assert.equal(d.attempts[0].status, null);
          assert.match(d.attempts[0].answer, /^blocked: Address 127\.0\.0\.1 is not public/);
        },
      );

      await t.step(
        "no sentinel accepted a connection, no socket was attempted off loopback",
        () => {
          assert.equal(sentinels.total(), 0, JSON.stringify(sentinels.accepted()));
          assert.deepEqual(spy.toPort(P), []);
          assert.deepEqual(spy.offLoopback(), []);
        },
      );
    } finally {
      spy.restore();
      await env.close();
      await sentinels.close();
    }
  },
});
