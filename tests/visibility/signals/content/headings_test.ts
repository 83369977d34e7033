/** content.headings: one h1 and sections. */
import assert from "node:assert/strict";
import { headings } from "../../../../lib/engines/visibility/signals/content/headings.ts";
import { fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const html = (body: string) =>
  `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

Deno.test("content.headings - one h1 and two sections pass", () => {
  const s = reported(headings, pageCtx());
  assert.equal(s.status, "pass");
  assert.equal(s.detail, "One h1 and 2 h2/h3 sections.");
});

Deno.test("content.headings - two h1s warn; no headings at all fail; the fix asks for one h1", () => {
  const two = pageCtx({ html: html("<h1>A</h1><h1>B</h1>") });
  assert.equal(reported(headings, two).status, "warn");
  assert.match(reported(headings, two).detail, /^The page has 2 h1 headings/);
  const none = pageCtx({ html: html("<p>text</p>") });
  assert.equal(reported(headings, none).status, "fail");
  assert.match(fixOf(headings, none)!.how, /exactly one <h1>/);
});
