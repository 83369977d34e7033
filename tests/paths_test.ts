/**
 * The site's paths come from one table (lib/kit/report_urls.ts PATHS and ASSETS): every route's
 * path is a template of it, and no page, view, route, redirect or island writes a path of this
 * site anywhere else. A string that starts with one of the site's top-level segments ("/account",
 * "/api/...", "/docs", "/static/...") outside the table fails, with the few listed below.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { programFiles } from "./helpers/program_files.ts";
import { ASSETS, PATHS, staticPath } from "../lib/kit/report_urls.ts";
import { ROUTES } from "../lib/app/routes.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** The table itself: the one module that writes the site's paths out. */
const TABLE = "lib/kit/report_urls.ts";

/** The top-level segments of this site's paths (each a first segment of a PATHS template). */
function topSegments(): string[] {
  const segments = new Set<string>();
  for (const path of [...Object.values(PATHS), ...Object.values(ASSETS)]) {
    const first = path.split("/")[1];
    if (first && first !== "*") segments.add(first.replace(/\{.*$/, ""));
  }
  return [...segments].sort();
}

/**
 * Where a source text writes a site path: a string (or the rest of a template after an
 * interpolation) that starts with "/<segment>" of this site. Comments are blanked first (their
 * line numbers kept), so a path in a comment counts for nothing.
 */
export function sitePathLiterals(
  source: string,
  segments: string[],
): { line: number; path: string }[] {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  const code = source.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|\s)\/\/.*$/gm, blank);
  const names = segments.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const literal = new RegExp(`["'\`}](/(?:${names})(?![\\w-])[^"'\`\\s<>]*)`, "g");
  const out: { line: number; path: string }[] = [];
  code.split("\n").forEach((text, i) => {
    for (const m of text.matchAll(literal)) out.push({ line: i + 1, path: m[1] });
  });
  return out;
}

/** Paths written out on purpose outside the table, each with why (file -> the literal). */
const ALLOWED: Record<string, { path: string; why: string }[]> = {
  "lib/features/logs/aggregate.ts": [{
    path: "/api/",
    why: "classifies the request paths of the site whose server log is read, not this site's",
  }],
};

Deno.test("[paths] the finder finds site paths in strings, templates and attributes, not in comments", () => {
  const source = [
    `const a = "/account/login";`,
    "const b = `${origin}/api/scan`;",
    `<a href="/docs#mcp">x</a>`,
    `// see "/docs" for more`,
    `/** GET "/report/{domain}" */`,
    `const c = "/accountant"; const d = "/x/docs";`,
    `split("/");`,
  ].join("\n");
  assert.deepEqual(sitePathLiterals(source, ["account", "api", "docs", "report"]), [
    { line: 1, path: "/account/login" },
    { line: 2, path: "/api/scan" },
    { line: 3, path: "/docs#mcp" },
  ]);
});

Deno.test("[paths] no page, view, route, redirect or island writes a site path outside the table", async () => {
  const segments = topSegments();
  assert.ok(segments.includes("account") && segments.includes("static"), segments.join(","));
  const found: Record<string, { path: string; why: string }[]> = {};
  const written: string[] = [];
  for (const f of await programFiles()) {
    if (f === TABLE) continue;
    for (const hit of sitePathLiterals(await Deno.readTextFile(join(ROOT, f)), segments)) {
      const allowed = ALLOWED[f]?.find((a) => a.path === hit.path);
      if (allowed) (found[f] ??= []).push(allowed);
      else written.push(`${f}:${hit.line}: ${hit.path}`);
    }
  }
  assert.deepEqual(written, [], "take the path from PATHS (lib/kit/report_urls.ts)");
  assert.deepEqual(found, ALLOWED, "an allowed path no longer written: remove it from ALLOWED");
});

Deno.test("[paths] every route's path is a template of the table, and no template is written twice", () => {
  const templates = Object.values(PATHS) as string[];
  assert.deepEqual(ROUTES.map((r) => r.path).filter((p) => !templates.includes(p)), []);
  assert.equal(new Set(templates).size, templates.length);
  // Every template but the home page is some route's path: the table lists no dead path.
  const routed = new Set(ROUTES.map((r) => r.path));
  assert.deepEqual(templates.filter((p) => !routed.has(p)), []);
  assert.equal(staticPath("favicon.svg"), ASSETS.favicon);
});
