/**
 * The validate pool counts per address and per IPv6 /48 (issue 26: 180 of 180 admitted from
 * three /64s of one /48): two /64s' worth per /48, and another /48 is not touched.
 */
import assert from "node:assert/strict";
import { startAppEnv } from "./helpers/app_env.ts";
import { VALIDATE_LIMIT, VALIDATE_LIMIT_PER_48 } from "../lib/limits/limits.ts";

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
