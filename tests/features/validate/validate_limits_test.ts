/**
 * The validate pool counts per address and per IPv6 /48 (issue 26: 180 of 180 admitted from
 * three /64s of one /48): two /64s' worth per /48, and another /48 is not touched. Code that
 * takes its thread past the thread's bounds is the client's 4xx.
 */
import assert from "node:assert/strict";
import { startAppEnv } from "../../helpers/app_env.ts";
import { VALIDATE_LIMIT, VALIDATE_LIMIT_PER_48 } from "../../../lib/kit/limits/limits.ts";
import { startScanThreads } from "../../../lib/kit/isolate/scan_threads.ts";
import {
  ValidateInputError,
  validateRequest,
} from "../../../lib/features/validate/validate_request.ts";
import { createStore } from "../../../lib/app/server.ts";

const CODE = JSON.stringify({ jsonld: { "@context": "https://schema.org", "@type": "Thing" } });

Deno.test("[validate limits] three /64s of one /48 stop at the /48's pool", async () => {
  const env = await startAppEnv({ env: { SERVICE: "schema" } });
  try {
    const post = async (ip: string) => {
      const res = await env.app.request("http://generator.test/api/validate", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": ip },
        body: CODE,
      });
      await res.body?.cancel();
      return res.status;
    };
    let admitted = 0;
    for (const net of ["1", "2", "3"]) {
      for (let i = 0; i < VALIDATE_LIMIT; i++) {
        if ((await post(`2001:db8:77:${net}::${i + 1}`)) === 200) admitted++;
      }
    }
    assert.equal(admitted, VALIDATE_LIMIT_PER_48);
    assert.ok(VALIDATE_LIMIT_PER_48 < 3 * VALIDATE_LIMIT);
    assert.equal(await post("2001:db8:78:1::1"), 200, "another /48 has its own pool");
  } finally {
    await env.close();
  }
});

Deno.test("[validate limits] code that takes its scan thread past its heap limit (the thread parses it) is a 422 that says so; the next one is answered", async () => {
  const threads = startScanThreads({
    heapMb: 32,
    timeoutMs: 60_000,
    maxThreads: 1,
    jobs: {
      "validate-code":
        new URL("../../../lib/features/validate/validate_job.ts", import.meta.url).href,
    },
  });
  const kv = await Deno.openKv(":memory:");
  try {
    const deps = { store: createStore(kv, "schema"), now: () => Date.now(), threads };
    const body = JSON.stringify({ jsonld: `[${Array(340_000).fill("{}").join(",")}]` });
    const error = await validateRequest(deps, "192.0.2.9", {
      as: "json",
      headers: new Headers({ "content-type": "application/json" }),
      // The body as the server reads it: bytes, which only the thread parses.
      read: () => Promise.resolve(new TextEncoder().encode(body)),
    }).then(() => null, (e) => e);
    assert.ok(error instanceof ValidateInputError, String(error));
    assert.equal(error.status, 422);
    assert.equal(
      error.message,
      "The code could not be validated: it is too large or too complex to analyse (it needed " +
        "more than 32 MB of memory).",
    );
    // The thread was replaced: the next validation is answered.
    const ok = await validateRequest(deps, "192.0.2.9", { input: { jsonld: '{"@type":"Thing"}' } });
    assert.equal(JSON.parse(ok.json).result.summary.types[0], "Thing");
  } finally {
    await threads.close();
    kv.close();
  }
});
