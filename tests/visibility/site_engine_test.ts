/**
 * Fixes in the site's own terms (issue 42): a change to several pages is static HTML pasted page
 * by page unless the home page shows a template engine; then the fix says which engine it saw
 * and why, and gives that engine's own template code, by hand, with what to check afterwards.
 * What a rendered scan read counts as said: no FILL-IN for a description the page shows.
 */
import assert from "node:assert/strict";
import { siteEngine } from "../../lib/engines/visibility/site_engine.ts";
import { authorDates } from "../../lib/engines/visibility/signals/trust/author_dates.ts";
import { description } from "../../lib/engines/visibility/signals/technical/description.ts";
import { readSteps } from "../../lib/engines/visibility/fix_steps.ts";
import type { RenderView } from "../../lib/engines/render/view.ts";
import { fixOf, ORIGIN, page, pageCtx } from "../helpers/signal_ctx.ts";

Deno.test("site engine - none seen: a static page gets plain HTML to paste, no template language", () => {
  const ctx = pageCtx();
  assert.equal(siteEngine(ctx), null);
  const steps = readSteps(fixOf(authorDates, ctx)!.how);
  assert.deepEqual(steps.map((s) => s.kind), ["main"]);
  assert.doesNotMatch(steps[0].code.join(), /\{\{|\{%|<\?php/);
});

Deno.test("site engine - WordPress seen: the byline is its theme's template tags, by hand, saying why", () => {
  const ctx = pageCtx({ html: page('<meta name="generator" content="WordPress 6.7.1">') });
  assert.equal(siteEngine(ctx)?.name, "WordPress");
  const how = fixOf(authorDates, ctx)!.how;
  const steps = readSteps(how);
  assert.deepEqual(steps.map((s) => s.kind), ["by-hand", "check"]);
  // Which engine and why: what the page showed.
  assert.match(
    steps[0].text,
    /runs on WordPress \(we saw <meta name="generator" content="WordPress 6\.7\.1">/,
  );
  assert.match(steps[0].code.join(), /the_author_posts_link\(\)/);
  // Never an API call in a step meant for the site's owner.
  assert.doesNotMatch(how, /\/api\/|POST /);
});

Deno.test("site engine - Shopify is seen by its store's images; Hugo by its generator", () => {
  const shop = pageCtx({
    html: page(
      "",
      '<img src="https://cdn.shopify.com/s/files/1/0001/files/beans.jpg" alt="Beans">',
    ),
  });
  assert.equal(siteEngine(shop)?.name, "Shopify");
  assert.match(
    readSteps(fixOf(authorDates, shop)!.how)[0].code.join(),
    /\{\{ article\.author \}\}/,
  );
  const hugo = pageCtx({ html: page('<meta name="generator" content="Hugo 0.139.0">') });
  assert.equal(siteEngine(hugo)?.name, "Hugo");
});

Deno.test("page says - a description only the rendered page shows is pasted, not a FILL-IN", () => {
  const html = page().replace(/<meta name="description"[^>]*>/, "");
  const ctx = pageCtx({ html });
  const said = "Coffee roasted in small batches and shipped fresh, from the rendered page.";
  ctx.render = {
    status: "rendered",
    pages: [{
      url: `${ORIGIN}/`,
      state: "rendered",
      rendered: { title: "Fresh coffee | Shop Example", description: said },
    }],
  } as unknown as RenderView;
  const how = fixOf(description, ctx)!.how;
  assert.ok(how.includes(`<meta name="description" content="${said}">`), how);
  assert.doesNotMatch(how, /FILL-IN/);
  // Without the rendered view, only the owner can write it.
  ctx.render = undefined;
  assert.match(fixOf(description, pageCtx({ html }))!.how, /FILL-IN/);
});
