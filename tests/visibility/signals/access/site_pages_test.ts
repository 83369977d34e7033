/** access.site_pages: the share of sampled pages each AI search crawler may read. */
import assert from "node:assert/strict";
import { sitePages } from "../../../../lib/engines/visibility/signals/access/site_pages.ts";
import { crawlersByRole } from "../../../../lib/engines/visibility/crawlers.ts";
import { audit, fixOf, pageCtx, pageReport, siteCtx } from "../../../helpers/signal_ctx.ts";
import { codeBlocksOf } from "../../../../lib/engines/visibility/fix_text.ts";
import { robotsVerdicts } from "../../../../lib/engines/visibility/robots_fix.ts";
import { evaluate } from "../../../../lib/engines/visibility/signal.ts";
import { readSteps } from "../../../../lib/engines/visibility/fix_steps.ts";

const ALL = crawlersByRole("search").map((c) => c.token);

Deno.test("access.site_pages - every crawler may read every page: pass", () => {
  const ctx = siteCtx([pageReport("/"), pageReport("/a"), pageReport("/b")]);
  const s = evaluate(sitePages, ctx)!.signal;
  assert.equal(s.status, "pass");
  assert.deepEqual(s.evidence, ["every AI search crawler: may read 3 of 3 pages"]);
});

const SECTIONS = (over: Parameters<typeof pageReport>[1]) => [
  pageReport("/"),
  pageReport("/2024/01/a", { type: "article", ...over }),
  pageReport("/2024/02/b", { type: "article", ...over }),
  pageReport("/docs/x"),
  pageReport("/docs/y"),
];

Deno.test("access.site_pages - one crawler kept from a section by robots.txt: the robots.txt fix, pages in words", () => {
  const robots = "User-agent: *\nAllow: /\n\nUser-agent: PerplexityBot\nDisallow: /2024/\n";
  const ctx = pageCtx({ robots, audit: audit(SECTIONS({ blockedFor: ["PerplexityBot"] })) });
  const s = evaluate(sitePages, ctx)!.signal;
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.match(s.detail, /^PerplexityBot may not read 2 of 5 pages: \/2024\/01\/a, \/2024\/02\/b/);
  assert.ok(s.evidence.includes("PerplexityBot: may read 3 of 5 pages"));
  const fix = fixOf(sitePages, ctx)!;
  // The pages in words, never a glob; the cause is the AI crawlers' robots.txt groups.
  assert.equal(
    fix.what,
    "Allow PerplexityBot on your article pages (such as /2024/01/a) in robots.txt",
  );
  assert.equal(fix.cause?.key, "robots.txt:ai-access");
  assert.doesNotMatch(fix.what + fix.how.replace(/```[\s\S]*?```/g, ""), /\/\*/);
  // The change is the site's own group corrected, checked by our parser on those pages.
  const [code] = codeBlocksOf(fix.how);
  const patched = robots.replace("User-agent: PerplexityBot\nDisallow: /2024/", code);
  const v = robotsVerdicts(patched, "https://shop.example/", ["/2024/01/a", "/2024/02/b"]);
  assert.equal(v.get("PerplexityBot /2024/01/a"), true, code);
  assert.equal(v.get("PerplexityBot /2024/02/b"), true);
});

Deno.test("access.site_pages - pages closed by noindex: the pages' fix, in words and in the site's terms", () => {
  const ctx = siteCtx(SECTIONS({ blockedFor: ALL, noindex: true }));
  const fix = fixOf(sitePages, ctx)!;
  assert.equal(fix.what, "Remove the noindex from your article pages (such as /2024/01/a)");
  // A static site (no engine seen): the pages themselves, each robots meta tag replaced.
  assert.deepEqual(fix.cause, {
    key: "template:article",
    title: "Update your article pages (such as /2024/01/a)",
  });
  const steps = readSteps(fix.how);
  assert.equal(steps[0].kind, "head");
  assert.deepEqual(steps[0].urls, [
    "https://shop.example/2024/01/a",
    "https://shop.example/2024/02/b",
  ]);
  assert.deepEqual(steps[0].code, ['<meta name="robots" content="index, follow">']);
  // A header only the server sends is changed by hand, with the command that shows it.
  assert.ok(steps.some((s) => s.kind === "by-hand" && /X-Robots-Tag/.test(s.text)));
  assert.ok(steps.some((s) => s.kind === "check" && /curl -sI/.test(s.code.join())));
});

Deno.test("access.site_pages - most inner pages closed to every crawler raise the gate", () => {
  const hidden = { blockedFor: ALL };
  const ctx = siteCtx([
    pageReport("/"),
    pageReport("/a/1", hidden),
    pageReport("/b/1", hidden),
    pageReport("/c/1"),
  ]);
  const s = evaluate(sitePages, ctx)!.signal;
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "pages_blocked_for_ai_search", cap: 35 });
  assert.match(
    s.detail,
    /^2 of 3 pages sampled beyond the home page are closed to every AI search crawler/,
  );
});

Deno.test("access.site_pages - left out when the home page is closed to all, or with no sample", () => {
  assert.equal(
    sitePages.check(
      siteCtx([pageReport("/", { blockedFor: ALL }), pageReport("/a")], {}, {
        robots: "User-agent: *\nDisallow: /\n",
      }),
    ),
    null,
  );
  assert.equal(sitePages.check(pageCtx()), null);
  assert.equal(
    sitePages.check(siteCtx([pageReport("/"), pageReport("/a")], { requested: 1 })),
    null,
  );
});

Deno.test("access.site_pages - crawlers robots.txt turns away from the whole site are not called 'every AI search crawler'", () => {
  // As the blocks-search fixture: two AI search crawlers kept out of everything; the others open.
  const closed = ["OAI-SearchBot", "PerplexityBot"];
  const robots = `User-agent: *\nAllow: /\n\n${
    closed.map((t) => `User-agent: ${t}\nDisallow: /\n`).join("\n")
  }`;
  const pages = ["/", "/a", "/b"].map((p) => pageReport(p, { blockedFor: closed }));
  const s = evaluate(sitePages, siteCtx(pages, {}, { robots }))!.signal;
  // They are counted once, in the search crawlers' check: this one passes on the others' reading,
  // and says whose reading it is (the page table lists the two as blocked on every page).
  assert.equal(s.status, "pass");
  const open = ALL.length - closed.length;
  assert.equal(
    s.detail,
    `Each of the ${open} AI search crawlers the home page lets in may read all 3 sampled pages (robots.txt rules per path and robots directives per agent).`,
  );
  assert.deepEqual(s.evidence, [
    `each of the ${open} AI search crawlers the home page lets in: may read 3 of 3 pages`,
  ]);
  assert.doesNotMatch(s.detail, /every AI search crawler/i);
});
