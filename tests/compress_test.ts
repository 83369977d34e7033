/**
 * gzip for what a browser loads (lib/kit/web/compress.ts): pages and static files are compressed when
 * the browser accepts it, and decompress to the very bytes sent uncompressed; pages with form
 * tokens (no-store), answers that set a cookie, and the API are never compressed (BREACH).
 */
import assert from "node:assert/strict";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";

async function gunzip(res: Response): Promise<string> {
  return await new Response(res.body!.pipeThrough(new DecompressionStream("gzip"))).text();
}

Deno.test("[compress] pages and static files are gzipped for browsers that accept it", async (t) => {
  const env = await startAppEnv({ worker: true });
  try {
    assert.equal(
      (await env.scan({ url: "good.test" }, { auth: `Bearer ${PIPELINE}` })).status,
      202,
    );
    for (let i = 0; i < 100 && !(await env.store.getScan("good.test")); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const gzip = { "accept-encoding": "gzip, deflate, br" };
    for (
      const path of ["/", "/report/good.test", "/docs", "/static/app.css", "/static/report.css"]
    ) {
      await t.step(path, async () => {
        const plain = await env.app.request(path);
        assert.equal(plain.status, 200);
        assert.equal(plain.headers.get("content-encoding"), null, "not without Accept-Encoding");
        const text = await plain.text();
        const zipped = await env.app.request(path, { headers: gzip });
        assert.equal(zipped.status, 200);
        assert.equal(zipped.headers.get("content-encoding"), "gzip");
        assert.match(zipped.headers.get("vary") ?? "", /Accept-Encoding/);
        assert.equal(zipped.headers.get("content-length"), null);
        assert.ok(zipped.headers.get("content-security-policy") || path.startsWith("/static"));
        const body = await gunzip(zipped);
        // Pages carry the render time ("just now"): compare them without it.
        assert.equal(body.length, text.length);
        if (path.startsWith("/static")) assert.equal(body, text);
      });
    }
    await t.step("never: no-store pages, the API, small answers", async () => {
      for (const path of ["/account/login", "/account/signup", "/api/report/good.test.json"]) {
        const res = await env.app.request(path, { headers: gzip });
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get("content-encoding"), null, path);
        await res.body?.cancel();
      }
      const small = await env.app.request("/static/favicon.svg", { headers: gzip });
      assert.equal(small.status, 200);
      assert.equal(small.headers.get("content-encoding"), null, "under 1 KB stays as it is");
      await small.body?.cancel();
    });
  } finally {
    await env.close();
  }
});
