/**
 * The properties every generated fix must have, asserted with the project's own parsers (robots
 * matcher, sitemap reader, llms.txt validator, JSON-LD extractor and schema validator). Used by
 * the fixture tests and by the test that runs the generators over the shared real-world corpus.
 */
import assert from "node:assert/strict";
import type { ScanContext } from "../../lib/engines/visibility/check.ts";
import type { Issue } from "../../lib/engines/visibility/record.ts";
import { codeBlocksOf, parseHow } from "../../lib/engines/visibility/fix_text.ts";
import { fillIns } from "./apply_fix.ts";
import { readSitemap } from "../../lib/engines/visibility/sitemap.ts";
import { validateLlmsTxt } from "../../lib/engines/visibility/llms_txt.ts";
import { extractPage } from "../../lib/engines/structured/extract.ts";
import { validateItems } from "../../lib/engines/structured/validate.ts";
import { crawlersByRole } from "../../lib/engines/visibility/crawlers.ts";
import {
  pathsToCheck,
  robotsAllowFix,
  type RobotsFix,
  robotsGroups,
  robotsVerdicts,
} from "../../lib/engines/visibility/robots_fix.ts";
import { CRAWLERS } from "../../lib/engines/visibility/crawlers.ts";
import {
  handleMatches,
  identityKeys,
  profileHandle,
} from "../../lib/engines/visibility/same_as.ts";
import {
  flattenJsonLd,
  nodesOfType,
  ORGANIZATION_TYPES,
  PAGE_TYPES,
  stringValues,
} from "../../lib/engines/structured/page_graph.ts";

/** URLs a sitemap or llms.txt must never list. */
export const NOT_CONTENT_URL =
  /\/(log-?in|sign-?in|sign-?up|register|account|my-?account|checkout|cart|subscribe)(\/|$|\?|\.)|session_redirect|[?&](utm_[a-z]+|trk|ref|fbclid|gclid)=/i;

/** Share, intent, post, video, pin and file URLs: never an identity. */
export const NOT_IDENTITY =
  /\/(intent|share|sharer|sharing)(\/|\.php|\?|$)|\/status\/|\/watch\b|\/shorts\/|\/embed\/|\/pin\/|\/posts?\/|\/p\/|\/reel\/|\/issues\b|\/pull\/|\/blob\/|\/tree\/|[?&](u|url|text)=/i;

/** One issue's how: fences balanced, code present only as blocks. */
export function assertWellFormedHow(issue: Issue): void {
  const fences = issue.fix.how.split("\n").filter((l) => /^`{3,}/.test(l)).length;
  assert.equal(fences % 2, 0, `${issue.id}: every code fence is closed`);
  for (const part of parseHow(issue.fix.how)) {
    if (part.kind === "code") assert.ok(part.code.trim(), `${issue.id}: no empty code block`);
  }
}

/** The search crawlers whose verdicts decide what a sitemap may list (those the site admits). */
function judges(ctx: ScanContext): string[] {
  const search = crawlersByRole("search").map((c) => c.token);
  const admitted = ctx.robots.crawlers.filter((c) => search.includes(c.token) && c.allowed)
    .map((c) => c.token);
  return admitted.length ? admitted : search;
}

/** The sitemap skeleton: a urlset of one host, robots-allowed pages, no lastmod. */
export function assertSitemapFix(ctx: ScanContext, issue: Issue): string[] {
  const xml = codeBlocksOf(issue.fix.how).find((c) => c.includes("<urlset"));
  assert.ok(xml, `${issue.id}: the sitemap is in a code block of its own`);
  const host = new URL(ctx.pageUrl).host;
  const report = readSitemap(xml, new URL(ctx.pageUrl).hostname);
  assert.equal(report.kind, "urlset");
  // No invented date: each <lastmod> is the owner's to fill in from the page's real date.
  const lastmods = [...xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1]);
  assert.ok(lastmods.every((d) => d.startsWith("FILL-IN")), `no invented <lastmod>: ${lastmods}`);
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
    m[1].replace(/&amp;/g, "&").replace(/&apos;/g, "'").replace(/&quot;/g, '"')
  );
  assert.equal(report.locs, locs.length);
  for (const loc of locs) {
    const u = new URL(loc);
    assert.equal(u.host, host, `one host only: ${loc}`);
    assert.doesNotMatch(loc, NOT_CONTENT_URL, "no login, signup, account or tracking URLs");
    assert.equal(u.search, "", `no query strings: ${loc}`);
  }
  const out = ctx.snapshot.robots;
  if (ctx.robots.state === "ok" && out.ok) {
    const paths = locs.map((l) => new URL(l).pathname);
    const verdicts = robotsVerdicts(out.result.body, new URL(ctx.pageUrl).origin, paths);
    for (const p of paths) {
      for (const t of judges(ctx)) {
        assert.ok(verdicts.get(`${t} ${p}`) !== false, `robots.txt allows ${t} to read ${p}`);
      }
    }
  }
  return locs;
}

/** The llms.txt skeleton: valid for our own validator, real links, marked fill-ins. */
export function assertLlmsFix(ctx: ScanContext, issue: Issue): void {
  const md = codeBlocksOf(issue.fix.how).find((c) => c.startsWith("# "));
  assert.ok(md, `${issue.id}: the llms.txt is in a code block of its own`);
  const report = validateLlmsTxt(md, ctx.pageUrl);
  assert.ok(report.valid, `valid llms.txt: ${report.problems.join("; ")}`);
  assert.deepEqual(report.problems, []);
  const hrefs = new Set(ctx.facts.links.map((l) => l.href.replace(/#.*$/, "")));
  for (const m of md.matchAll(/^- \[([^\]]*)\]\(([^)]+)\)(.*)$/gm)) {
    const url = m[2];
    if (m[1] === "Sitemap") continue;
    assert.ok(
      hrefs.has(url) || url === new URL("/", ctx.pageUrl).href,
      `links a page the home page links to: ${url}`,
    );
    assert.doesNotMatch(url, NOT_CONTENT_URL);
    assert.match(m[3], /FILL-IN/, "what only the owner can write is marked");
  }
}

/**
 * Every JSON-LD script in the fix: parseable, `<` escaped, passes the schema validator with no
 * error, unique @ids and resolvable references; together the blocks hold an organisation (or
 * person), a WebSite and a node for the page, as the issue promises.
 */
export function assertJsonLdFix(ctx: ScanContext, issue: Issue): void {
  // Validated as the owner publishes it: each FILL-IN written.
  const scripts = codeBlocksOf(issue.fix.how).filter((c) => c.includes("application/ld+json"))
    .map((c) => fillIns(c, new URL(ctx.pageUrl).origin));
  assert.ok(scripts.length >= 1, `${issue.id}: the graph is in a code block`);
  const html = `<html><head>${scripts.join("\n")}</head><body></body></html>`;
  const ex = extractPage(html, ctx.pageUrl, ctx.snapshot.target.domain);
  assert.equal(ex.syntaxFindings.length, 0, "every block parses as JSON-LD");
  const errors = validateItems(ex.detected).findings.filter((f) => f.severity === "error");
  assert.deepEqual(errors.map((e) => `${e.path} ${e.message}`), [], "no validator error");
  const nodes = flattenJsonLd(ex.pageFacts.jsonLd);
  const ids = nodes.map((n) => n.id).filter((id): id is string => !!id);
  const top = ex.pageFacts.jsonLd.flatMap((b) =>
    ((b.value as { "@graph"?: { "@id"?: string }[] })["@graph"] ?? []).map((n) => n["@id"])
  );
  assert.equal(new Set(top).size, top.length, "unique @ids");
  for (const n of nodes) {
    for (const v of Object.values(n.data)) {
      const ref = (v as { "@id"?: string } | null)?.["@id"];
      if (ref && Object.keys(v as object).length === 1) {
        assert.ok(ids.includes(ref), `reference ${ref} resolves`);
      }
    }
  }
  for (const s of scripts) {
    const inner = s.replace(/^<script[^>]*>/, "").replace(/<\/script>\s*$/, "");
    assert.doesNotMatch(inner, /<\/script/i, "no script break-out inside the JSON");
  }
  const types = new Set(nodes.flatMap((n) => n.types));
  // The graph holds what the issue promises.
  const what = issue.fix.what;
  if (/organisation|Organization|Person|node \(/.test(what)) {
    assert.ok(
      [...types].some((t) =>
        t === "Person" || (ORGANIZATION_TYPES as readonly string[]).includes(t)
      ),
      `${issue.id}: an organisation or person: ${[...types]}`,
    );
  }
  if (/site|WebSite/.test(what)) {
    assert.ok(types.has("WebSite"), `${issue.id}: a WebSite: ${[...types]}`);
  }
  if (/page/.test(what)) {
    assert.ok(
      [...types].some((t) => (PAGE_TYPES as readonly string[]).includes(t)),
      `${issue.id}: a node for the page: ${[...types]}`,
    );
  }
  const og = ctx.facts.openGraph["og:image"] ?? null;
  for (const n of nodesOfType(nodes, ["ImageObject"])) {
    const urls = stringValues(n.data.contentUrl ?? n.data.url);
    for (const u of urls) {
      const known = [og, ...ctx.facts.images.map((i) => i.src)].filter(Boolean).map((x) =>
        new URL(x!, ctx.pageUrl).href
      );
      const inMarkup = JSON.stringify(ctx.facts.jsonLd.map((b) => b.value)).includes(
        JSON.stringify(u).slice(1, -1),
      );
      assert.ok(
        known.includes(u) || inMarkup || u === ctx.facts.twitter["twitter:image"],
        `images only from evidence: ${u}`,
      );
    }
  }
}

/** sameAs: the organisation's own profiles (markup, rel=me, matching handle) or marked fill-ins. */
export function assertSameAsFix(ctx: ScanContext, issue: Issue): string[] {
  const m = issue.fix.how.match(/"sameAs": (\[[\s\S]*?\])/);
  assert.ok(m, "the sameAs array is in the fix");
  const urls: string[] = JSON.parse(m[1]);
  const rels = new Set(ctx.facts.links.filter((l) => /\bme\b/.test(l.rel)).map((l) => l.href));
  const markup = JSON.stringify(ctx.facts.jsonLd.map((b) => b.value));
  for (const u of urls) {
    if (u.includes("FILL-IN")) continue;
    assert.doesNotMatch(u, NOT_IDENTITY, `not a share link, post, video, pin or file: ${u}`);
    const fromMarkup = markup.includes(JSON.stringify(u).slice(1, -1)) ||
      markup.includes(JSON.stringify(u.replace(/\/$/, "")).slice(1, -1));
    const handle = profileHandle(new URL(u));
    assert.ok(
      fromMarkup || rels.has(u) || (handle !== null && handleMatches(handle, identityKeys(ctx))),
      `${u} comes from markup, rel="me" or a profile handle`,
    );
  }
  // The profiles the page vouches for first, then templates up to the two the check asks for.
  const fill = urls.filter((u) => u.includes("FILL-IN"));
  assert.deepEqual(urls.slice(urls.length - fill.length), fill, "fill-ins come after the facts");
  assert.ok(urls.length >= 2, "two profiles or more, as the check asks");
  return urls;
}

/**
 * The property of a robots.txt fix, checked independently of the generator's own check: the
 * patched file lets every named crawler read the home page, and every other crawler we know keeps
 * its exact verdict on the home page and on every path the file's rules mention; nothing is
 * deleted but User-agent lines of the named crawlers, and every rule line offered names a path
 * the file already had (or "/").
 */
export function assertRobotsFixProperty(
  text: string,
  tokens: string[],
  label: string,
): RobotsFix | null {
  const origin = "https://corpus.test/";
  const fix = robotsAllowFix(text, origin, tokens);
  const blocked = tokens.filter((t) => robotsVerdicts(text, origin, ["/"]).get(`${t} /`) === false);
  if (!blocked.length) {
    assert.equal(fix, null, `${label}: no fix when nothing is blocked`);
    return null;
  }
  assert.ok(fix, `${label}: a fix`);
  assert.ok(fix.verified, `${label}: verified (collateral ${fix.collateral.join(", ")})`);
  const paths = pathsToCheck([text, fix.patched], 100);
  const before = robotsVerdicts(text, origin, paths);
  const after = robotsVerdicts(fix.patched, origin, paths);
  const named = new Set(blocked.map((t) => t.toLowerCase()));
  for (const c of CRAWLERS) {
    if (named.has(c.token.toLowerCase())) {
      assert.equal(after.get(`${c.token} /`), true, `${label}: ${c.token} may now read /`);
      continue;
    }
    for (const p of paths) {
      assert.equal(
        after.get(`${c.token} ${p}`),
        before.get(`${c.token} ${p}`),
        `${label}: ${c.token} keeps its verdict on ${p}`,
      );
    }
  }
  const known = new Set(["/", ...robotsGroups(text).flatMap((g) => g.rules.map((r) => r.path))]);
  for (const e of fix.edits) {
    if (e.kind === "delete") {
      assert.match(e.text, /^user-agent\s*:/i, `${label}: only User-agent lines are deleted`);
      continue;
    }
    for (const line of e.text.split("\n")) {
      const m = line.match(/^(allow|disallow)\s*:\s*(.*)$/i);
      if (m) assert.ok(known.has(m[2]), `${label}: nothing invented (${line})`);
    }
    if (e.kind === "replace") {
      const group = robotsGroups(text).find((g) => g.start === e.start)!;
      assert.ok(
        group.agents.every((a) => named.has(a.token.toLowerCase())),
        `${label}: only a group naming the fixed crawlers alone is replaced`,
      );
    }
  }
  return fix;
}
