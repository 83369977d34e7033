/**
 * POST /api/scan and GET /api/report/:domain.json against ../shared/api/visibility.md: every row of
 * its response, error, authentication and limit tables, in-process (`app.request`), offline.
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv } from "../../helpers/app_env.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";
import { revokeApiKey } from "../../../lib/kit/auth/keys.ts";

const HOUR = 3600_000;
const GOOD = { turnstileToken: "good-token" };

async function expectError(res: Response, status: number, error?: string | RegExp) {
  const body = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(typeof body.error, "string");
  if (typeof error === "string") assert.equal(body.error, error);
  else if (error) assert.match(body.error, error);
  return body;
}

function sampleRecord(domain: string, scannedAt: number): ScanRecord {
  return {
    domain,
    status: "ok",
    scannedAt: new Date(scannedAt).toISOString(),
    result: { score: 77, grade: "B", label: "Good", pillars: [], topIssues: [] },
    offSite: null,
  };
}

async function storeRecord(env: Awaited<ReturnType<typeof startAppEnv>>, record: ScanRecord) {
  await env.store.finishScan(
    {
      kind: "scan",
      service: "visibility",
      jobId: crypto.randomUUID(),
      target: { domain: record.domain, url: `https://${record.domain}/`, host: record.domain },
      credential: "pipeline",
      enqueuedAt: Date.parse(record.scannedAt),
    },
    { record, failure: null, credential: "pipeline", durationMs: 1, jobId: "x" },
  );
}

Deno.test("POST /api/scan - 400 for every kind of bad body or URL, with a reason", async (t) => {
  const env = await startAppEnv();
  try {
    const cases: [string, unknown, RegExp][] = [
      ["malformed JSON", '{"url": ', /not valid JSON/],
      ["an array", "[1,2]", /must be a JSON object/],
      ["missing url", { forceRescan: true }, /url is required/],
      ["url of the wrong type", { url: 42 }, /url must be a string/],
      ["empty url", { url: "  " }, /must not be empty/],
      ["forceRescan of the wrong type", { url: "a.example", forceRescan: "yes" }, /forceRescan/],
      [
        "turnstileToken of the wrong type",
        { url: "a.example", turnstileToken: 1 },
        /turnstileToken/,
      ],
      ["ftp scheme", { url: "ftp://a.example/" }, /only http and https/],
      ["javascript scheme", { url: "javascript:alert(1)" }, /only http and https/],
      ["IPv4 literal", { url: "http://127.0.0.1/" }, /IP addresses/],
      ["decimal IPv4", { url: "http://2130706433/" }, /IP addresses/],
      ["IPv6 literal", { url: "http://[::1]/" }, /IP addresses/],
      ["metadata address", { url: "http://169.254.169.254/latest" }, /IP addresses/],
      ["userinfo", { url: "http://good.example@127.0.0.1/" }, /user name/],
      ["single label", { url: "localhost" }, /no dot/],
      ["a name that does not resolve", { url: "shop.nx.example" }, /does not resolve/],
      ["a name that resolves to a private address", { url: "shop.private.example" }, /private/],
      [
        "a name with one private answer among public ones",
        { url: "x.metadata.example" },
        /private/,
      ],
    ];
    for (const [name, body, reason] of cases) {
      await t.step(name, async () => {
        await expectError(await env.scan(body, { auth: `Bearer ${PIPELINE}` }), 400, reason);
      });
    }
    await t.step("bad input is refused before authentication is even looked at", async () => {
      await expectError(await env.scan({ url: 5 }), 400);
    });
  } finally {
    await env.close();
  }
});

Deno.test("POST /api/scan - 413, 415, 405 and unknown paths are JSON errors", async () => {
  const env = await startAppEnv();
  try {
    const big = JSON.stringify({ url: "a.example", pad: "x".repeat(20_000) });
    await expectError(await env.scan(big, { auth: `Bearer ${PIPELINE}` }), 413, /too large/);
    await expectError(
      await env.scan("url=a.example", {
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
      /application\/json/,
    );
    const get = await env.app.request("/api/scan");
    await expectError(get, 405);
    assert.equal(get.headers.get("allow"), "POST");
    await expectError(
      await env.app.request("/api/report/a.example.json", { method: "DELETE" }),
      405,
    );
    await expectError(await env.app.request("/nope"), 404, "Not found");
  } finally {
    await env.close();
  }
});

Deno.test("POST /api/scan - authentication rules of the spec", async (t) => {
  const env = await startAppEnv();
  try {
    await t.step("a wrong PIPELINE_TOKEN is 401 Unauthorized", async () => {
      await expectError(
        await env.scan({ url: "a.example" }, { auth: "Bearer wrong" }),
        401,
        "Unauthorized",
      );
    });
    await t.step("an unknown client key is 401", async () => {
      await expectError(
        await env.scan({ url: "a.example" }, { auth: "Bearer uvk_doesnotexist" }),
        401,
        "Unauthorized",
      );
    });
    await t.step(
      "a non-Bearer or empty Authorization header is 401, never a fall-back to the challenge",
      async () => {
        await expectError(
          await env.scan({ url: "a.example", ...GOOD }, { auth: "Basic dXNlcjpwYXNz" }),
          401,
          "Unauthorized",
        );
        await expectError(
          await env.scan({ url: "a.example", ...GOOD }, { auth: "" }),
          401,
          "Unauthorized",
        );
        await expectError(
          await env.scan({ url: "a.example", ...GOOD }, { auth: "Bearer " }),
          401,
          "Unauthorized",
        );
      },
    );
    await t.step("a key of the other service is 401", async () => {
      const { key } = await env.newKey();
      await expectError(
        await env.scan({ url: "a.example" }, { auth: `Bearer ${key.replace("uvk_", "usk_")}` }),
        401,
        "Unauthorized",
      );
    });
    await t.step("no Authorization and no challenge token is 403", async () => {
      await expectError(
        await env.scan({ url: "a.example" }),
        403,
        "Verification failed. Please retry.",
      );
    });
    await t.step(
      "an invalid challenge token is 403, and the verifier got secret, response, remoteip",
      async () => {
        await expectError(
          await env.scan({ url: "a.example", turnstileToken: "forged" }, { ip: "198.51.100.7" }),
          403,
        );
        const call = env.turnstile.calls.at(-1)!;
        assert.equal(call.get("response"), "forged");
        assert.equal(call.get("remoteip"), "198.51.100.7");
        assert.ok(call.get("secret"));
      },
    );
    for (const mode of ["500", "garbage", "hang"] as const) {
      await t.step(`a verifier that answers ${mode} fails closed with 403`, async () => {
        env.turnstile.mode = mode;
        const t0 = performance.now();
        await expectError(
          await env.scan({ url: "a.example", ...GOOD }),
          403,
          "Verification failed. Please retry.",
        );
        assert.ok(performance.now() - t0 < 3000, "a hanging verifier does not hang the request");
        env.turnstile.mode = "ok";
      });
    }
    await t.step(
      "a valid challenge token, the pipeline token and a client key are each accepted",
      async () => {
        assert.equal((await env.scan({ url: "c1.example", ...GOOD })).status, 202);
        assert.equal(
          (await env.scan({ url: "c2.example" }, { auth: `Bearer ${PIPELINE}` })).status,
          202,
        );
        const { key } = await env.newKey();
        assert.equal(
          (await env.scan({ url: "c3.example" }, { auth: `bearer ${key}` })).status,
          202,
        );
      },
    );
    await t.step("a revoked key gets 401 on the very next request", async () => {
      const { key, id } = await env.newKey("to revoke");
      assert.equal((await env.scan({ url: "r1.example" }, { auth: `Bearer ${key}` })).status, 202);
      await revokeApiKey(env.store, id);
      await expectError(
        await env.scan({ url: "r2.example" }, { auth: `Bearer ${key}` }),
        401,
        "Unauthorized",
      );
      const cached = await env.scan({ url: "r1.example" }, { auth: `Bearer ${key}` });
      await expectError(cached, 401, "Unauthorized");
    });
  } finally {
    await env.close();
  }
});

Deno.test("POST /api/scan - 202 starts one background scan; GET accepts what POST returned", async () => {
  const env = await startAppEnv();
  try {
    const res = await env.scan({ url: "HTTPS://WWW.Shop.Example./products?x=1", ...GOOD });
    assert.equal(res.status, 202);
    // The contract's { domain }, plus (additive) the scan's id and status URL.
    const accepted = await res.json();
    assert.equal(accepted.domain, "shop.example");
    assert.equal(accepted.statusUrl, `/api/scans/${accepted.scanId}`);
    assert.equal(res.headers.get("location"), "/api/report/shop.example.json");
    assert.equal(res.headers.get("ratelimit-limit"), "8");
    assert.equal(res.headers.get("ratelimit-remaining"), "7");
    // The same domain again, in another spelling, while in flight: 202, no second scan.
    const again = await env.scan({ url: "shop.example", ...GOOD }, { ip: "192.0.2.99" });
    assert.equal(again.status, 202);
    assert.equal(again.headers.get("ratelimit-remaining"), "8", "joining a scan consumes nothing");
    assert.equal((await again.json()).scanId, accepted.scanId, "it follows the scan it joined");
    assert.ok(await env.store.getInflight("shop.example"));
    await expectError(await env.report("shop.example"), 404, "Not found");
  } finally {
    await env.close();
  }
});

Deno.test("POST /api/scan - cache: a record under 24 h is served with 200 and consumes no limit", async (t) => {
  const env = await startAppEnv();
  try {
    const scannedAt = env.clock.now;
    await storeRecord(env, sampleRecord("cached.example", scannedAt));
    await t.step("fresh: 200 with the ScanRecord, twenty times, no limit used", async () => {
      for (let i = 0; i < 20; i++) {
        const res = await env.scan({ url: "www.cached.example", ...GOOD });
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.equal(body.domain, "cached.example");
        assert.equal(body.result.score, 77);
        assert.equal(res.headers.get("ratelimit-remaining"), "8");
      }
    });
    await t.step("one millisecond before 24 h it is still fresh", async () => {
      env.clock.now = scannedAt + 24 * HOUR - 1;
      assert.equal((await env.scan({ url: "cached.example", ...GOOD })).status, 200);
    });
    await t.step("at 24 h it is stale: a new scan starts", async () => {
      env.clock.now = scannedAt + 24 * HOUR;
      assert.equal((await env.scan({ url: "cached.example", ...GOOD })).status, 202);
    });
    await t.step("forceRescan skips a fresh record and consumes the limits", async () => {
      await storeRecord(env, sampleRecord("forced.example", env.clock.now));
      const res = await env.scan({ url: "forced.example", forceRescan: true, ...GOOD }, {
        ip: "192.0.2.50",
      });
      assert.equal(res.status, 202);
      assert.equal(res.headers.get("ratelimit-remaining"), "7");
    });
    await t.step("GET returns the stored record with an ETag, and 304 when unchanged", async () => {
      const res = await env.report("cached.example");
      assert.equal(res.status, 200);
      assert.equal((await res.json()).scannedAt, new Date(scannedAt).toISOString());
      const etag = res.headers.get("etag")!;
      assert.ok(etag);
      assert.match(res.headers.get("cache-control")!, /must-revalidate/);
      const again = await env.report("cached.example", { "if-none-match": etag });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), "");
      assert.equal((await env.report("WWW.Cached.Example")).status, 200);
      const head = await env.app.request("/api/report/cached.example.json", { method: "HEAD" });
      assert.equal(head.status, 200);
    });
    await t.step("GET only accepts <domain>.json", async () => {
      await expectError(await env.app.request("/api/report/cached.example"), 404, "Not found");
      await expectError(await env.app.request("/api/report/cached.example.xml"), 404);
      await expectError(await env.report("never-scanned.example"), 404, "Not found");
      await expectError(await env.report("not a domain"), 400);
    });
  } finally {
    await env.close();
  }
});

// The [limits] tests live in tests/limits_shared_test.ts, run against the KV and the Redis limiter.

Deno.test("POST /api/scan - the server's fast path and the routed app answer alike", async (t) => {
  const env = await startAppEnv();
  try {
    const { key } = await env.newKey();
    const cases: { name: string; headers: Record<string, string>; body: string }[] = [
      { name: "415", headers: { "content-type": "text/plain" }, body: "url=x" },
      { name: "400 not JSON", headers: { "content-type": "application/json" }, body: "{" },
      { name: "400 no url", headers: { "content-type": "application/json" }, body: "{}" },
      {
        name: "400 private",
        headers: { "content-type": "application/json" },
        body: '{"url":"http://localhost/"}',
      },
      {
        name: "401",
        headers: { "content-type": "application/json", authorization: "Bearer uvk_wrong" },
        body: '{"url":"example.com"}',
      },
      {
        name: "403",
        headers: { "content-type": "application/json" },
        body: '{"url":"example.com","turnstileToken":"bad-token"}',
      },
      {
        name: "413",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ url: "x".repeat(20_000) }),
      },
    ];
    const shape = async (res: Response) => ({
      status: res.status,
      body: await res.text(),
      headers: [...res.headers].filter(([k]) => k !== "date" && k !== "content-length").sort(),
    });
    for (const c of cases) {
      await t.step(c.name, async () => {
        const init = () => ({
          method: "POST",
          headers: { "x-forwarded-for": "198.51.100.4", ...c.headers },
          body: c.body,
        });
        const routed = await shape(await env.app.request("/api/scan", init()));
        const direct = await shape(
          await env.handler(new Request("http://localhost/api/scan", init())),
        );
        assert.deepEqual(direct, routed);
        assert.ok(direct.headers.some(([k]) => k === "x-content-type-options"));
        assert.match(direct.body, /^\{"error":/);
      });
    }
    await t.step("202 and a 200 cache hit carry the same headers either way", async () => {
      const first = await env.handler(
        new Request("http://localhost/api/scan", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: '{"url":"parity.example"}',
        }),
      );
      assert.equal(first.status, 202);
      assert.equal(first.headers.get("location"), "/api/report/parity.example.json");
      assert.equal(first.headers.get("cache-control"), "no-store");
      assert.ok(first.headers.get("ratelimit-remaining"));
      assert.equal(first.headers.get("x-frame-options"), "DENY");
      const accepted = await first.json();
      assert.deepEqual(Object.keys(accepted), ["domain", "scanId", "statusUrl"]);
      assert.equal(accepted.domain, "parity.example");
    });
  } finally {
    await env.close();
  }
});
