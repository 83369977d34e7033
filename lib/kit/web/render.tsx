/** Turning a page component into a response with the page security headers. */
import type { Context } from "hono";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { pageCsp } from "../ui/csp.ts";
import { Document, type PageMeta, type ShellOptions } from "../ui/layout.tsx";

/** Renders a full page: `<!doctype html>`, the shell, the body, and a CSP that fits the page. */
export function renderPage(
  c: Context,
  meta: PageMeta,
  shell: ShellOptions,
  body: VNode,
  status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 = 200,
): Response {
  const html = "<!doctype html>" +
    renderToString(<Document meta={meta} shell={shell}>{body}</Document>);
  c.header(
    "Content-Security-Policy",
    pageCsp({ turnstile: shell.challenge?.kind === "turnstile" }),
  );
  c.header("Cache-Control", meta.noindex ? "no-store" : "no-cache");
  c.header("X-Frame-Options", "DENY");
  return c.html(html, status);
}
