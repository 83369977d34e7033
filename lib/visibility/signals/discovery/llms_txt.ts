/**
 * `discovery.llms_txt`: /llms.txt is there and follows the llmstxt.org format. Worth 1 point: no
 * major AI search engine documents reading it.
 */
import { codeBlock, howText } from "../../fix_text.ts";
import type { ScanContext } from "../../check.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { validateLlmsTxt } from "../../llms_txt.ts";
import { isOk, looksLikeHtml } from "../../snapshot.ts";
import { llmsTxt as llmsTxtSkeleton } from "../../skeletons.ts";
import { displayName } from "../../site_identity.ts";

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
      "llms.txt is a proposed Markdown file at example.com/llms.txt that summarises the site for language models and links its important pages.",
    why:
      "It gives AI tools a short, clean map of the site. It is young and optional: Google says it is not needed for its AI features.",
    how:
      "We fetch /llms.txt and check the format of the proposal: an H1 title, a summary and lists of links.",
    sources: [SOURCES.llmstxt, SOURCES.aiFeatures],
  },
  check(ctx) {
    const out = ctx.snapshot.llms;
    const url = new URL("/llms.txt", ctx.pageUrl).href;
    if (!out.ok) {
      return { status: "unknown", detail: `${url} could not be fetched (${out.error.kind}).` };
    }
    const res = out.result;
    if (!isOk(out) || looksLikeHtml(res.headers["content-type"], res.body)) {
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
        evidence: [url],
      };
    }
    return {
      status: report.valid ? "warn" : "fail",
      detail: `llms.txt exists but does not follow the format: ${report.problems.join("; ")}.`,
      points: report.valid ? 0.5 : 0,
      evidence: [url, ...report.problems],
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
