/**
 * Code validation under attack, against the server started as `deno task start:schema` starts it
 * (the start task's V8 flags and permissions; tests/helpers/start_task_server.ts), issue 26:
 * - 24 concurrent maximal validations (1 MiB of `[{},{},...]`, once a 95 MB answer each) from one
 *   address: the server stays up, /healthz keeps answering, each answer is 200 or 429 and a 200
 *   is at most twice its input plus 64 KiB;
 * - the /validate form with 100,000 objects (once 60 s, /healthz stalled 15 s) is answered;
 * - JSON nested 8,000 deep is a 400 naming the limit, never a 500.
 */
import assert from "node:assert/strict";
import { startLikeStartTask } from "../helpers/start_task_server.ts";
import { probeHealth } from "./helpers/health_probe.ts";
import { MAX_CODE_BYTES } from "../../lib/features/validate/validate_code.ts";
import { MAX_JSON_DEPTH, maxAnswerBytes } from "../../lib/features/validate/validate_job.ts";

/** `[{},{},...]` of about `bytes` bytes. */
function emptyObjects(bytes: number): string {
  return `[${Array(Math.floor(bytes / 3)).fill("{}").join(",")}]`;
}

async function validate(
  base: string,
  body: string,
  type = "application/json",
  path = "/api/validate",
) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
  const text = await res.text();
  return { status: res.status, bytes: new TextEncoder().encode(text).byteLength, text };
}

Deno.test({
  name:
    "[security/validate] start task: 24 concurrent maximal validations from one address, a 100,000-object form, deep JSON",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const server = await startLikeStartTask({
      SERVICE: "schema",
      KV_PATH: `${dir}/kv.sqlite3`,
      LOG_REQUESTS: "0",
      WORKER_CONCURRENCY: "2",
    });
    try {
      // The largest code accepted, less the HTML it is wrapped in.
      const body = JSON.stringify({ jsonld: emptyObjects(MAX_CODE_BYTES - 200) });
      const health = probeHealth(server.base);
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 24 }, () => validate(server.base, body)),
      );
      const floodMs = Math.round(performance.now() - started);
      const h = await health.stop();
      console.log(
        `24 validations in ${floodMs} ms: ${
          JSON.stringify(answers.map((a) => `${a.status}:${a.bytes}`))
        }; /healthz ${JSON.stringify(h)}`,
      );
      assert.equal(server.exited(), false, "the server is up");
      for (const a of answers) assert.ok([200, 429].includes(a.status), `${a.status} ${a.text}`);
      const ok = answers.filter((a) => a.status === 200);
      assert.ok(ok.length >= 1, "the caller's first validation is answered");
      for (const a of ok) {
        assert.ok(
          a.bytes <= maxAnswerBytes(body.length) + 200,
          `an answer of ${a.bytes} bytes for ${body.length}`,
        );
        const answer = JSON.parse(a.text);
        assert.equal(answer.status, "ok");
        assert.ok(answer.result.summary.errors > 300_000, "every finding is counted");
      }
      for (const a of answers.filter((a) => a.status === 429)) {
        assert.match(JSON.parse(a.text).error, /code validations/);
      }
      assert.deepEqual(h.failures, []);
      assert.ok(h.worstRun < 3, `/healthz slower than 200 ms ${h.worstRun} times in a row`);

      // The form with 100,000 objects: answered, and /healthz answers meanwhile.
      const formHealth = probeHealth(server.base);
      const form = new URLSearchParams({ code: emptyObjects(300_000), url: "" }).toString();
      const t = performance.now();
      const page = await validate(
        server.base,
        form,
        "application/x-www-form-urlencoded",
        "/validate",
      );
      const formMs = Math.round(performance.now() - t);
      const fh = await formHealth.stop();
      console.log(`form of 100,000 objects: ${page.status} in ${formMs} ms; ${JSON.stringify(fh)}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /more like this/);
      assert.ok(formMs < 30_000, `${formMs} ms`);
      assert.ok(fh.worstRun < 3, `/healthz slower than 200 ms ${fh.worstRun} times in a row`);

      // Nested 8,000 deep: as an object in the body, and as JSON-LD text.
      const deep = `{"jsonld":${'{"a":'.repeat(8000)}1${"}".repeat(8000)}}`;
      const tooDeep = await validate(server.base, deep);
      assert.equal(tooDeep.status, 400, tooDeep.text);
      assert.match(JSON.parse(tooDeep.text).error, new RegExp(`${MAX_JSON_DEPTH} levels`));
      const deepText = JSON.stringify({
        jsonld: `{"@context":"https://schema.org","@type":"Thing","x":${'{"x":'.repeat(8000)}1${
          "}".repeat(8000)
        }}`,
      });
      const text = await validate(server.base, deepText);
      assert.ok([200, 400].includes(text.status), `${text.status} ${text.text.slice(0, 300)}`);
      assert.equal(typeof JSON.parse(text.text), "object");
      assert.equal(server.exited(), false);
    } finally {
      await server.kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
