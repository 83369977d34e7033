/**
 * The report's crawler matrix and the /learn pages show what they judge by with its source and
 * "checked on" date, and label the edge column honestly.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { CrawlerMatrix } from "../../../lib/features/visibility/views/crawler_matrix.tsx";
import { LearnArticle } from "../../../lib/features/learn/views/learn_page.tsx";
import { learnEntry } from "../../../lib/engines/visibility/learn.ts";
import { scoreSite } from "../../../lib/engines/visibility/score.ts";
import { ScanRecordSchema } from "../../../lib/engines/visibility/record.ts";
import { answer, pageCtx } from "../../helpers/signal_ctx.ts";

Deno.test("crawler matrix - each crawler's robots.txt verdict, declared preference and edge answer, with its source and date", () => {
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
  const html = renderToString(<CrawlerMatrix record={record} />);
  const row = (token: string) =>
    html.slice(
      html.indexOf(`${token}</th>`),
      html.indexOf("</tr>", html.indexOf(`${token}</th>`)),
    );
  assert.match(row("ChatGPT-User"), /refused: HTTP 403/);
  assert.match(row("ChatGPT-User"), /no: AI input/);
  assert.match(html, /<a href="https:\/\/openai\.com\/chatgpt-user\.json">ChatGPT-User IPs<\/a>/);
  assert.match(html, /<a href="https:\/\/docs\.mistral\.ai\/robots">Mistral AI<\/a>/);
  assert.match(row("Claude-User"), /<td>blocked<\/td>/);
  assert.match(row("Google-Agent"), /<td>2026-11-26<\/td>/);
  assert.match(html, /from\s+our scanner&#39;s address/);
  assert.doesNotMatch(html, />GPTBot</, "training crawlers are in their own check");
});

Deno.test("learn pages - every source shows the day it was checked", () => {
  const html = renderToString(<LearnArticle entry={learnEntry("access.ai_preferences")!} />);
  assert.match(html, /draft-ietf-aipref-vocab|A Vocabulary For Expressing AI Usage Preferences/);
  assert.match(html, /checked on 2026-11-26/);
});
