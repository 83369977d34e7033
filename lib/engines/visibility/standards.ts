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
/** The entries read again (or first) for issue 40, through the search tool. */
const RECHECKED = "2026-12-06";

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
    version:
      '2026-08-31: the use key, "the maximum level at which content may be used": reference, then full (the default), from least to most permissive',
    reads:
      "the use key of a Content-Signal line as a usage preference (reference or full; another value is shown as written, unread); Cloudflare's crawl endpoint refuses a crawl asking for more than it",
    checked: RECHECKED,
  },
  markdownForAgents: {
    id: "markdown_for_agents",
    by: "Cloudflare",
    title: "Markdown for Agents",
    url: "https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/",
    version:
      "the reference page as published (content negotiation: a request with Accept: text/markdown gets the page converted to Markdown)",
    reads:
      "whether the home page answers Accept: text/markdown with a text/markdown body: a Markdown version for the agents that ask for one (one request; shown, never scored)",
    checked: RECHECKED,
  },
  webBotAuth: {
    id: "web_bot_auth",
    by: "IETF Web Bot Auth working group",
    title: "HTTP Message Signatures for automated traffic",
    url: "https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/01/",
    version: "draft-ietf-webbotauth-httpsig-protocol-01 (2026-10-29), a working group draft",
    reads:
      "nothing from the site: agents sign their requests (HTTP message signatures, a Signature-Agent header, keys in a JWKS directory at a well-known URI) and an edge may verify them; our probes are unsigned, so the report says what an unsigned request with a crawler's User-Agent gets and that a signed one may be treated differently",
    checked: RECHECKED,
  },
  trainingPreference: {
    id: "training_preference",
    by: "IETF (individual draft, AI Preferences mailing list)",
    title: "Machine-Readable Training Preference Signal",
    url: "https://datatracker.ietf.org/doc/draft-kelley-aipref-training-preference-signal/",
    version:
      "draft-kelley-aipref-training-preference-signal-00 (2026-10-30); Google's crawler changelog (2026-10-30) says Google intends to support the shared training preference signal",
    reads:
      "not read yet: the draft binds a preference to paths with ordinary robots.txt groups keyed by a per-purpose policy token in the User-Agent line, and the stored copy we could read (its abstract) does not name the token; groups of tokens we do not know are shown as written",
    checked: RECHECKED,
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
