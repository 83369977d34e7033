/**
 * "Learn more": what each check of the AI visibility report means, in plain words, why AI systems
 * care, how we test it, and the vendors' own documentation it rests on. One source for the report
 * page (/learn/<id>), the CLI (lib/visibility/format.ts) and MCP (lib/mcp/visibility.ts); the texts
 * themselves are in learn_texts.ts, keyed by signal id. tests/learn_test.ts holds every signal id
 * the pillars can emit to an entry here.
 */
import { LEARN_TEXTS as PAGE_TEXTS } from "./learn_texts.ts";
import { SITE_LEARN_TEXTS } from "./learn_site_texts.ts";

/** Every check's text: the home page's signals and the site audit's. */
const LEARN_TEXTS = { ...PAGE_TEXTS, ...SITE_LEARN_TEXTS };
import { type LearnSource, type SourceKey, SOURCES } from "./learn_sources.ts";

export { type LearnSource, type SourceKey, SOURCES };

/** The explanation of one check. */
export interface LearnEntry {
  /** The signal id (`access.edge`). */
  id: string;
  /** The pillar the check belongs to (`access`). */
  pillar: string;
  /** The check's name as the report shows it. */
  title: string;
  /** What the check is about, for someone who has never heard of it. */
  what: string;
  /** Why AI search engines and assistants care. */
  why: string;
  /** How this checker tests it. */
  how: string;
  /** The vendors' and standards' own documentation. */
  sources: LearnSource[];
}

/** What a gate is, in plain words, and why it caps the whole score (keyed by gate id). */
export const GATE_TEXT: Record<string, { name: string; why: string }> = {
  blanket_disallow: {
    name: "robots.txt tells every crawler to stay out of the whole site",
    why:
      'A "Disallow: /" for all crawlers asks ChatGPT, Perplexity, Claude and Google alike not to read any page, so none of them can quote it.',
  },
  search_crawlers_blocked: {
    name: "robots.txt blocks the crawlers of AI search engines",
    why:
      "The crawlers that AI search engines use to find pages to cite are told to stay away, so the site cannot appear in their answers.",
  },
  noindex: {
    name: "the home page asks not to be indexed (noindex)",
    why:
      "A noindex rule keeps the page out of the indexes AI answers are built from, whatever else the page does well.",
  },
  edge_blocks_ai: {
    name: "the site's CDN or firewall turns AI crawlers away",
    why:
      "When an AI crawler asks for the home page, the edge answers with an error or a challenge page instead of the page, so the crawler never sees the content, however good it is.",
  },
  pages_blocked_for_ai_search: {
    name: "most of the site's pages are closed to AI search crawlers",
    why:
      "The home page may be open, but the sampled articles, products or docs are blocked for AI search crawlers (robots.txt or page directives), so those pages cannot be cited.",
  },
  js_only_pages: {
    name: "the site's pages only show their text after JavaScript runs",
    why:
      "Half or more of the sampled pages send an empty shell; most AI crawlers do not run JavaScript, so they see those pages as empty.",
  },
  js_only_content: {
    name: "the page's text only appears after JavaScript runs",
    why:
      "Most AI crawlers read the HTML the server sends and do not run JavaScript, so they see an empty page.",
  },
};

/** The signals that can carry each gate (as the pillars set them). */
export const GATE_SIGNALS: Record<string, readonly string[]> = {
  blanket_disallow: ["access.robots_txt", "access.blanket_disallow"],
  search_crawlers_blocked: ["access.search_crawlers"],
  noindex: ["access.indexing"],
  edge_blocks_ai: ["access.edge"],
  js_only_content: ["content.server_text"],
  pages_blocked_for_ai_search: ["access.site_pages"],
  js_only_pages: ["content.site_server_text"],
};

/** The entry for signals a pillar could not compute (`<pillar>.not_evaluated`). */
const NOT_EVALUATED = {
  title: "A part of the report could not be evaluated",
  what:
    "A defect on our side stopped one pillar from being computed for this page. It is not a problem of the site.",
  why: "Nothing: it is left out of the score, so it neither raises nor lowers it.",
  how:
    "When a pillar's checks fail on some unexpected input, the report keeps the rest and marks the pillar as not evaluated. Scan again later, or report the page to us.",
  sources: [] as SourceKey[],
};

/** The explanation of a signal id, or null for an id we do not know. */
export function learnEntry(id: string): LearnEntry | null {
  const pillar = id.split(".")[0];
  const text = LEARN_TEXTS[id] ?? (id.endsWith(".not_evaluated") ? NOT_EVALUATED : null);
  if (!text) return null;
  return {
    id,
    pillar,
    title: text.title,
    what: text.what,
    why: text.why,
    how: text.how,
    sources: text.sources.map((k) => SOURCES[k]),
  };
}

/** Every explained signal, in the order of the texts (pillar by pillar). */
export function learnEntries(): LearnEntry[] {
  return Object.keys(LEARN_TEXTS).map((id) => learnEntry(id)!);
}
