/** discovery.llms_txt: present and in the llmstxt.org format (1 point: optional). */
import assert from "node:assert/strict";
import { llmsTxt } from "../../../../lib/visibility/signals/discovery/llms_txt.ts";
import { evaluate } from "../../../../lib/visibility/signal.ts";
import { answer, failed, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

const text = (body: string) => answer("/llms.txt", body, 200, { "content-type": "text/plain" });

Deno.test("discovery.llms_txt - a well-formed file passes", () => {
  const s = reported(
    llmsTxt,
    pageCtx({
      llms: text(
        "# Shop\n\n> Coffee.\n\n## Pages\n\n- [About](https://shop.example/about): who we are\n",
      ),
    }),
  );
  assert.equal(s.status, "pass", s.detail);
});

Deno.test("discovery.llms_txt - none fails with low impact and the fix is a skeleton from the site's pages", () => {
  const ctx = pageCtx();
  const check = evaluate(llmsTxt, ctx)!;
  assert.equal(check.signal.status, "fail");
  assert.equal(check.impact, "low");
  assert.equal(check.fix!.what, "Publish an llms.txt");
  assert.match(check.fix!.how, /Create https:\/\/shop\.example\/llms\.txt/);
});

Deno.test('discovery.llms_txt - a file that breaks the format is not "missing": its fix repairs it', () => {
  const ctx = pageCtx({ llms: text("no heading here\n") });
  const s = reported(llmsTxt, ctx);
  assert.ok(s.status === "warn" || s.status === "fail");
  assert.match(s.detail, /^llms\.txt exists but does not follow the format/);
  assert.equal(fixOf(llmsTxt, ctx)!.what, "Fix llms.txt to follow the llmstxt.org format");
  assert.equal(reported(llmsTxt, pageCtx({ llms: failed("/llms.txt") })).status, "unknown");
});
