/**
 * Middleware: gzip for the pages and static files a browser loads (HTML, CSS, JavaScript, SVG),
 * when the browser accepts it. A report page is about 50 KB of HTML and the stylesheets 11 KB each;
 * gzipped they are a fifth of that, which a phone on a slow connection sees as an earlier first
 * paint (docs/lighthouse.md).
 *
 * Never compressed (BREACH: a secret in a compressed page that also reflects the visitor's input
 * can be guessed from the sizes): answers that set a cookie or are `no-store` (the account and
 * administration pages, which carry form tokens, are no-store), and every /api and /mcp answer
 * (lib/app/app.ts also answers some of those without routing; they stay as they are).
 */
import type { MiddlewareHandler } from "hono";

const COMPRESSIBLE = /^(text\/html|text\/css|text\/javascript|image\/svg\+xml)\b/;
/** Below this, gzip's header and the work cost more than they save. */
const MIN_BYTES = 1024;

/** The gzip middleware (mounted once, in lib/app/app.ts). */
export function compressPages(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const req = c.req.raw;
    if (req.method !== "GET" || /^\/(api|mcp)(\/|$)/.test(c.req.path)) return;
    if (!/\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")) return;
    const res = c.res;
    const h = res.headers;
    if (res.status !== 200 || !res.body || h.has("content-encoding") || h.has("set-cookie")) return;
    if (!COMPRESSIBLE.test(h.get("content-type") ?? "")) return;
    if (/\bno-store\b/.test(h.get("cache-control") ?? "")) return;
    const length = Number(h.get("content-length") ?? NaN);
    if (Number.isFinite(length) && length < MIN_BYTES) return;
    // As hono/compress does: a new response over the same headers, then adjust them.
    c.res = new Response(res.body.pipeThrough(new CompressionStream("gzip")), res);
    c.res.headers.set("content-encoding", "gzip");
    c.res.headers.delete("content-length");
    c.res.headers.append("vary", "Accept-Encoding");
  };
}
