/** access.edge: what the CDN or firewall answers AI crawlers' User-Agents. */
import assert from "node:assert/strict";
import { edge } from "../../../../lib/visibility/signals/access/edge.ts";
import { answer, failed, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const CHALLENGE = "<!doctype html><title>Just a moment...</title><p>Checking your browser</p>";

Deno.test("access.edge - the same page for AI crawlers passes", () => {
  const s = reported(edge, pageCtx());
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, [
    "OAI-SearchBot User-Agent: HTTP 200",
    "GPTBot User-Agent: HTTP 200",
  ]);
});

Deno.test("access.edge - a challenge for the AI search crawler fails, raises the gate and names the challenge", () => {
  const blocked = answer("/", CHALLENGE, 403);
  const ctx = pageCtx({ edgeSearch: blocked, edgeTraining: blocked });
  const s = reported(edge, ctx);
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "edge_blocks_ai", cap: 35 });
  assert.deepEqual(s.evidence, [
    "OAI-SearchBot User-Agent: a challenge page (HTTP 403)",
    "GPTBot User-Agent: a challenge page (HTTP 403)",
  ]);
  const fix = fixOf(edge, ctx)!;
  assert.match(fix.how, /curl -A 'OAI-SearchBot\/1\.3' -I 'https:\/\/shop\.example\/'/);
});

Deno.test("access.edge - a plain 403 is named as such; training blocked alone still passes", () => {
  const s = reported(edge, pageCtx({ edgeSearch: answer("/", "no", 403) }));
  assert.equal(s.evidence[0], "OAI-SearchBot User-Agent: HTTP 403");
  const training = reported(edge, pageCtx({ edgeTraining: answer("/", "no", 403) }));
  assert.equal(training.status, "pass");
  assert.match(training.detail, /a training crawler's User-Agent gets HTTP 403/);
});

Deno.test("access.edge - a failed probe is unknown, out of the score", () => {
  const s = reported(edge, pageCtx({ edgeSearch: failed() }));
  assert.equal(s.status, "unknown");
  assert.equal(s.maxPoints, 0);
});
