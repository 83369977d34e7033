/**
 * The report's products section (what each AI product can do, its crawlers one click away) and the
 * /learn pages show what they judge by with its source and "checked on" date, label the edge's
 * answers from their one stored state, and the line under the score agrees with the section.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { ProductsSection } from "../../../lib/features/visibility/views/report_products.tsx";
import { LearnArticle } from "../../../lib/features/learn/views/learn_page.tsx";
import { learnEntry } from "../../../lib/engines/visibility/learn.ts";
import { scoreSite } from "../../../lib/engines/visibility/score.ts";
import { ScanRecordSchema } from "../../../lib/engines/visibility/record.ts";
import { answer, pageCtx } from "../../helpers/signal_ctx.ts";

Deno.test("products section - each crawler's verdict, declared preference and edge answer, with its source and date", () => {
  const ctx = pageCtx({
    robots:
      "User-agent: *\nContent-Signal: ai-input=no\nAllow: /\n\nUser-agent: Claude-User\nDisallow: /\n",
    edge: { "ChatGPT-User": answer("/", "Forbidden", 403) },
  });
  const record = ScanRecordSchema.parse({
    domain: "shop.example",
    status: "ok",
    scannedAt: ctx.now.toISOString(),
    result: scoreSite(ctx),
    offSite: null,
  });
  const html = renderToString(<ProductsSection record={record} />);
  const item = (token: string) =>
    html.slice(
      html.indexOf(`<code>${token}</code>`),
      html.indexOf("</li>", html.indexOf(`<code>${token}</code>`)),
    );
  assert.match(item("ChatGPT-User"), /turned away \(CDN: refused \(HTTP 403\)\)/);
  assert.doesNotMatch(item("ChatGPT-User"), /challenge/);
  assert.match(item("ChatGPT-User"), /declared no: AI input/);
  assert.match(html, /<a href="https:\/\/openai\.com\/chatgpt-user\.json">ChatGPT-User IPs<\/a>/);
  assert.match(html, /<a href="https:\/\/docs\.mistral\.ai\/robots">Mistral AI<\/a>/);
  assert.match(item("Claude-User"), /turned away \(robots\.txt line 6: Disallow: \/\)/);
  assert.match(item("Google-Agent"), /checked 2026-11-26/);
  assert.match(item("Claude-Web"), /a retired token, not counted/);
  assert.match(item("Kimi-User"), /unverifiable, not counted/);
  assert.match(html, /from our scanner&#39;s address/);
  // The counts of a product: ChatGPT fetches nothing a user asks (its fetcher refused at the
  // edge), Claude's fetcher is kept out by robots.txt; both still found in search.
  const cell = (product: string, count: string) => {
    const i = html.indexOf(`data-product="${product}"`);
    const j = html.indexOf(`data-count="${count}"`, i);
    return html.slice(j, html.indexOf("</td>", j));
  };
  assert.match(cell("chatgpt", "user"), /data-state="no">No: your CDN refuses/);
  assert.match(cell("claude", "user"), /data-state="no">No: robots\.txt/);
  assert.match(cell("chatgpt", "search"), /data-state="yes">Yes/);
});

Deno.test("learn pages - every source shows the day it was checked", () => {
  const html = renderToString(<LearnArticle entry={learnEntry("access.ai_preferences")!} />);
  assert.match(html, /draft-ietf-aipref-vocab|A Vocabulary For Expressing AI Usage Preferences/);
  assert.match(html, /checked on 2026-11-26/);
});
