/**
 * Who gets which 404, by content negotiation on the path and the Accept header: the JSON API
 * (`/api/*`, `/mcp`, `/openapi.json`, badges, `/healthz`, `/static/*`) always answers its JSON
 * `{"error":"Not found"}` (the API contract); any other address answers a browser, whose page loads
 * send `Accept: text/html`, with an HTML page and a way home (lib/kit/ui/not_found_page.tsx), and
 * everything else (curl, which accepts any type; a fetch asking for JSON) with the JSON 404.
 */
import type { Context } from "hono";
import type { AppDeps } from "./context.ts";
import { renderPage } from "./render.tsx";
import { shellFor } from "./shell.ts";
import { NotFoundPage } from "../ui/not_found_page.tsx";
import { ASSETS } from "../report_urls.ts";

/** Paths that only ever answer JSON (or a file): the API and what machines fetch. */
const MACHINE_PATH = /^\/(api|mcp|openapi\.json|badge|healthz|static)(\/|$)/;

/** Whether an unknown address should get the HTML 404 page rather than the JSON one. */
export function wantsPage(method: string, path: string, accept: string | undefined): boolean {
  return (method === "GET" || method === "HEAD") && !MACHINE_PATH.test(path) &&
    /\btext\/html\b/i.test(accept ?? "");
}

/** The HTML 404 page for a browser, or null when the JSON 404 answers (see the module's rule). */
export function notFoundPage(c: Context, deps: AppDeps): Response | null {
  if (!wantsPage(c.req.method, c.req.path, c.req.header("accept"))) return null;
  return renderPage(
    c,
    { title: "Page not found", description: "There is no page at this address.", noindex: true },
    shellFor(c, deps, { styles: [ASSETS.accountsCss] }),
    <NotFoundPage path={c.req.path} />,
    404,
  );
}
