/**
 * /static/*: files under static/. Built bundles carry a content hash in their names and are cached
 * for a year; the rest for an hour. Only GET and HEAD; no directory listings; no path escapes.
 */
import type { RouteDef } from "../lib/kit/web/route.ts";
import { NotFoundError } from "../lib/kit/errors.ts";
import { PATHS } from "../lib/kit/report_urls.ts";

const ROOT = new URL("../static/", import.meta.url);
const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
  woff2: "font/woff2",
};

/** GET /static/*. */
export const staticRoute: RouteDef = {
  path: PATHS.static,
  handlers: () => ({
    GET: async (c) => {
      const rel = c.req.path.replace(/^\/static\//, "");
      if (
        !/^[a-zA-Z0-9_.-]+(\/[a-zA-Z0-9_.-]+)*$/.test(rel) ||
        rel.split("/").some((p) => p.startsWith("."))
      ) {
        throw new NotFoundError();
      }
      const ext = rel.slice(rel.lastIndexOf(".") + 1);
      const type = TYPES[ext];
      if (!type) throw new NotFoundError();
      let body: Uint8Array;
      try {
        body = await Deno.readFile(new URL(rel, ROOT));
      } catch {
        throw new NotFoundError();
      }
      c.header("Content-Type", type);
      c.header(
        "Cache-Control",
        rel.startsWith("build/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      );
      // The length lets the gzip middleware (lib/kit/web/compress.ts) leave tiny files as they are.
      c.header("Content-Length", String(body.byteLength));
      return c.body(body as Uint8Array<ArrayBuffer>);
    },
  }),
};
