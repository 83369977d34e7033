/** discovery.llms_txt: present and in the llmstxt.org format (1 point: optional). */
import assert from "node:assert/strict";
import { llmsTxt } from "../../../../lib/engines/visibility/signals/discovery/llms_txt.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import {
  answer,
  failed,
  fixOf,
  pageCtx,
  pageReport,
  reported,
  siteCtx,
} from "../../../helpers/signal_ctx.ts";

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

Deno.test("discovery.llms_txt - no root file but a subpath llms.txt (v2) is credited for the pages under it", () => {
  const pages = [
    pageReport("/"),
    pageReport("/docs/intro", {
      markdown: "https://shop.example/docs/intro.md",
      describedBy: "https://shop.example/docs/llms.txt",
    }),
    pageReport("/docs/setup"),
    pageReport("/about"),
  ];
  const ctx = siteCtx(pages, {
    llmsFiles: [{
      url: "https://shop.example/docs/llms.txt",
      scope: "/docs/",
      foundVia: 'rel="describedby" on /docs/intro',
      valid: true,
      title: "Docs",
      problems: [],
    }],
  });
  const s = reported(llmsTxt, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.points, 0.5, "2 of 4 sampled pages are covered");
  assert.match(s.detail, /\/docs\/llms\.txt covers the pages under \/docs\//);
  assert.match(s.detail, /2 of the 4 sampled pages are covered \(\/docs\/intro, \/docs\/setup\)/);
  assert.ok(
    s.evidence.includes("/docs/intro: markdown version https://shop.example/docs/intro.md"),
  );
  assert.equal(fixOf(llmsTxt, ctx)!.what, "Publish an llms.txt");
});
