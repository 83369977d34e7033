/**
 * The file formats and signals the product reads, as data: which version or draft we implement,
 * where its text is, and the day we last checked our reading against it. The report, /learn and
 * docs/scoring.md show these with their dates; tests/visibility/standards_test.ts fails when an
 * entry lacks a source or a date.
 */
import type { LearnSource } from "./sources.ts";

/** One format or draft we read. */
export interface Standard extends LearnSource {
  /** Stable key. */
  id: string;
  /** The version or draft we implement, and its date. */
  version: string;
  /** What of it we read, in a phrase. */
  reads: string;
}

const CHECKED = "2026-11-26";

/** Every format or draft the scan reads. */
export const STANDARDS = {
  llmsTxt: {
    id: "llms_txt",
    by: "llmstxt.org (Jeremy Howard)",
    title: "The /llms.txt file, v2",
    url: "https://llmstxt.org/",
    version: "v2 (August 2026; the proposal's text dated 2026-08-10)",
    reads:
      'the file\'s Markdown shape (an H1, the only required part; summary; sections of links), markdown versions of pages (page.md or page.html.md) found through rel="alternate" type="text/markdown", the file that covers a page found through rel="describedby" (HTML <link> or Link: header), and a file in a subpath covering the pages under it; Optional is an ordinary section',
    checked: CHECKED,
  },
  llmsTxtChanges: {
    id: "llms_txt_changes",
    by: "llmstxt.org (Jeremy Howard)",
    title: "llms.txt: changes in v2",
    url: "https://llmstxt.org/changes.md",
    version: "v2 (August 2026)",
    reads: "what v2 changed: link relations, both markdown URL forms, subpath files",
    checked: CHECKED,
  },
  contentSignals: {
    id: "content_signals",
    by: "Cloudflare",
    title: "Content Signals Policy (managed robots.txt)",
    url: "https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/",
    version:
      "the policy text Cloudflare publishes (September 2025): search, ai-input, ai-train, each yes or no",
    reads:
      "Content-Signal lines of robots.txt per group (an optional leading path, which some files write, is read as a scope)",
    checked: CHECKED,
  },
  contentSignalsUse: {
    id: "content_signals_use",
    by: "Cloudflare",
    title: "Crawl endpoint now respects the Content Signals use directive",
    url: "https://developers.cloudflare.com/changelog/post/2026-08-31-crawl-content-use/",
    version: "2026-08-31: the use key (reference, full)",
    reads: "the use key of a Content-Signal line, reported as written",
    checked: CHECKED,
  },
  aiprefVocab: {
    id: "aipref_vocab",
    by: "IETF AI Preferences working group",
    title: "A Vocabulary For Expressing AI Usage Preferences",
    url: "https://datatracker.ietf.org/doc/draft-ietf-aipref-vocab/08/",
    version: "draft-ietf-aipref-vocab-08 (2026-09-14), a working draft without consensus",
    reads:
      "the categories train-ai, ai-use and search with y or n; unknown keys ignored; the most restrictive statement wins when several apply",
    checked: CHECKED,
  },
  aiprefAttach: {
    id: "aipref_attach",
    by: "IETF AI Preferences working group",
    title: "Associating AI Usage Preferences with Content in HTTP",
    url: "https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/05/",
    version: "draft-ietf-aipref-attach-05 (2026-08-18)",
    reads:
      "the Content-Usage response header and the robots.txt Content-Usage rule (a path, then preferences; the longest matching path applies)",
    checked: CHECKED,
  },
} as const satisfies Record<string, Standard>;

/** Every standard, in a stable order. */
export function standards(): Standard[] {
  return Object.values(STANDARDS);
}
