/**
 * `discovery.llms_txt`: an llms.txt is there and follows the llmstxt.org format, v2 (standards.ts):
 * /llms.txt at the root, or, for the pages under it, a file in a subpath (v2: a file covers the
 * pages under its folder); the markdown versions and `rel="describedby"` links pages declare are
 * reported. Worth 1 point: no major AI search engine documents reading it, and Google says its
 * Search ignores it.
 */
import { codeBlock, howText } from "../../fix_text.ts";
import type { ScanContext } from "../../check.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { validateLlmsTxt } from "../../llms_txt.ts";
import { isOk, looksLikeHtml } from "../../snapshot.ts";
import { llmsTxt as llmsTxtSkeleton } from "../../skeletons.ts";
import { displayName } from "../../site_identity.ts";
import { STANDARDS } from "../../standards.ts";
import { coveringLlms } from "../../link_header.ts";
import type { Finding } from "../../signal.ts";

/** Whether the file exists but breaks the format (the fix then repairs it). */
interface Data {
  malformed: boolean;
}

export const llmsTxt: SignalDef<Data> = {
  id: "discovery.llms_txt",
  pillar: "discovery",
  title: "llms.txt present and well-formed",
  points: 1,
  scope: "page",
  learn: {
    what:
      'llms.txt is a proposed Markdown file at example.com/llms.txt that summarises the site for language models and links its important pages. Its v2 (August 2026) adds two link relations a page can carry, in HTML `<link>` elements or a `Link:` header: `rel="alternate" type="text/markdown"` to its markdown version (page.md or page.html.md) and `rel="describedby"` to the llms.txt that covers it; a file in a subpath (/docs/llms.txt) covers the pages under it, the most specific file applying; and `Optional` is now an ordinary section.',
    why:
      "It gives AI tools, coding agents above all, a short, clean map of the site. Its weight here is small on purpose: Google says Google Search, its AI features included, does not use llms.txt or other AI text files, and that adding one neither helps nor harms a site in Search; no other major AI search engine documents reading it. The proposal's author says thousands of sites publish one and coding agents use them, and that Chrome's Lighthouse now audits for one in its agentic-browsing checks.",
    how:
      'We fetch /llms.txt and check the v2 format: an H1 title (the only required part), a summary and sections of links. Where there is none at the root, an llms.txt in a subpath found through a page\'s `rel="describedby"` (or a link in the root file) is credited for the sampled pages under its folder. We list the markdown versions and describedby links the sampled pages declare.',
    sources: [
      STANDARDS.llmsTxt,
      STANDARDS.llmsTxtChanges,
      SOURCES.googleAiOptimization,
      SOURCES.aiFeatures,
    ],
  },
  check(ctx) {
    const out = ctx.snapshot.llms;
    const url = new URL("/llms.txt", ctx.pageUrl).href;
    if (!out.ok) {
      return { status: "unknown", detail: `${url} could not be fetched (${out.error.kind}).` };
    }
    const res = out.result;
    const extras = v2Evidence(ctx);
    if (!isOk(out) || looksLikeHtml(res.headers["content-type"], res.body)) {
      const credited = subpathCredit(ctx, extras);
      if (credited) return credited;
      return {
        status: "fail",
        detail: isOk(out)
          ? `${url} answers with an HTML page, not an llms.txt file.`
          : `${url} answered ${res.status}: there is no llms.txt.`,
        impact: "low",
        data: { malformed: false },
      };
    }
    const report = validateLlmsTxt(res.body, res.finalUrl);
    if (report.valid && !report.problems.length) {
      return {
        status: "pass",
        detail:
          `llms.txt "${report.title}" lists ${report.links} links in ${report.sections} sections.`,
        evidence: [url, ...extras],
      };
    }
    return {
      status: report.valid ? "warn" : "fail",
      detail: `llms.txt exists but does not follow the format: ${report.problems.join("; ")}.`,
      points: report.valid ? 0.5 : 0,
      evidence: [url, ...report.problems, ...extras],
      data: { malformed: true },
    };
  },
  fix: (ctx, found) => ({
    what: found.data?.malformed
      ? "Fix llms.txt to follow the llmstxt.org format"
      : "Publish an llms.txt",
    why:
      "llms.txt gives AI assistants and coding agents a curated Markdown map of your most useful pages. It is cheap, but optional: no major AI search engine documents reading it, so it weighs little in the score.",
    how: skeletonHow(ctx),
    effort: "S",
  }),
};

/** What the sampled pages declare for llms.txt v2, and the subpath files found. */
function v2Evidence(ctx: ScanContext): string[] {
  const pages = ctx.audit?.pages ?? [];
  return [
    ...pages.filter((p) => p.markdown).map((p) => `${p.path}: markdown version ${p.markdown}`),
    ...pages.filter((p) => p.describedBy).map((p) => `${p.path}: described by ${p.describedBy}`),
    ...(ctx.audit?.llmsFiles ?? []).map((f) =>
      `${f.url} (covers ${f.scope}, found via ${f.foundVia}): ${
        f.valid === null ? f.problems[0] ?? "not read" : f.valid ? "valid" : "not in the format"
      }`
    ),
  ].slice(0, 20);
}

/**
 * No llms.txt at the root, but one in a subpath (llms.txt v2): credited for the sampled pages
 * under its folder (at least half the point: the file exists and is valid).
 */
function subpathCredit(ctx: ScanContext, evidence: string[]): Finding<Data> | null {
  const files = (ctx.audit?.llmsFiles ?? []).filter((f) => f.valid);
  if (!files.length) return null;
  const read = (ctx.audit?.pages ?? []).filter((p) => p.state === "read");
  const covered = read.filter((p) => coveringLlms(p.url, files.map((f) => f.url)));
  const share = read.length ? covered.length / read.length : 0;
  return {
    status: "warn",
    detail: `No llms.txt at the root, but ${
      files.map((f) => `${new URL(f.url).pathname} covers the pages under ${f.scope}`).join("; ")
    } (llms.txt v2): ${covered.length} of the ${read.length} sampled pages are covered${
      covered.length ? ` (${covered.slice(0, 3).map((p) => p.path).join(", ")})` : ""
    }. A root /llms.txt would cover the rest of the site.`,
    points: Math.round(Math.max(0.5, share) * 10) / 10,
    evidence,
    impact: "low",
    data: { malformed: false },
  };
}

/**
 * The `how` of the llms.txt fix: a skeleton in the llmstxt.org format from the site's own name,
 * description and content pages (see skeletons.ts), with FILL-IN marks for what the owner writes.
 */
function skeletonHow(ctx: ScanContext): string {
  return howText(
    `Create ${new URL("/llms.txt", ctx.pageUrl).href}, served as text/plain, from this skeleton:`,
    codeBlock(llmsTxtSkeleton(ctx, displayName(ctx)), "markdown"),
    "Replace each FILL-IN with your own words: the pages are real links of your home page under their own link texts, but only you can say what each one is for.",
  );
}
