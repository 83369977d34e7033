/** What one pass over a page's HTML yields (implementation in page_facts.ts). */
import type { VisibleBylines } from "./visible_bylines.ts";

/** A JSON-LD block as found in `<script type="application/ld+json">`. */
export interface JsonLdBlock {
  /** The parsed value, or null when the text is not valid JSON. */
  value: unknown;
  /** The JSON parse error message, when any. */
  error: string | null;
  /** Length of the raw script text. */
  length: number;
  /**
   * The raw script text, kept when at most {@link JSON_LD_TEXT_KEPT} characters: where a syntax
   * error is and the code excerpts findings show are read from it.
   */
  text?: string;
}

/** The longest JSON-LD script text a block keeps (for error positions and excerpts). */
export const JSON_LD_TEXT_KEPT = 256 * 1024;

/** A link found on the page. */
export interface PageLink {
  /** Absolute URL (resolved against the base URL / `<base href>`); only http(s) links are kept. */
  href: string;
  /** Visible anchor text, whitespace-collapsed, at most 200 characters. */
  text: string;
  /** rel attribute, lowercased ("" when absent). */
  rel: string;
  /** True when the link's registrable host equals the page's (www. ignored). */
  internal: boolean;
}

/** Everything the visibility signals (and later the schema generator) read from the HTML. */
export interface PageFacts {
  /** `<html lang>` value, trimmed, or null (also when empty). */
  lang: string | null;
  /** First `<title>` text (outside `<svg>`), whitespace-collapsed, or null ("" when empty). */
  title: string | null;
  /** `<title>` elements outside `<svg>`. */
  titleCount: number;
  /** `<meta name="description">` content, or null. */
  metaDescription: string | null;
  /**
   * `<meta name=X content=Y>` where X is "robots" or a crawler name (googlebot, gptbot, ...):
   * lowercased name -> lowercased directives joined by ", ".
   */
  metaRobots: Record<string, string>;
  /** Absolute canonical URL from `<link rel="canonical">`, or null. */
  canonical: string | null;
  canonicalCount: number;
  hasViewport: boolean;
  /** og:* properties (first occurrence of each): property -> content. */
  openGraph: Record<string, string>;
  /** twitter:* names (first occurrence of each): name -> content. */
  twitter: Record<string, string>;
  /** Other `<meta name|property>` values of interest: author, article:published_time, etc. */
  meta: Record<string, string>;
  /** `<link rel="alternate" hreflang>` entries, http(s) hrefs made absolute (at most 300). */
  hreflang: { lang: string; href: string }[];
  /** RSS/Atom/JSON feeds from `<link rel="alternate" type=...>`: absolute, deduplicated, at most 20. */
  feeds: string[];
  /**
   * Markdown versions of the page from `<link rel="alternate" type="text/markdown">` (llms.txt v2):
   * absolute http(s) URLs, deduplicated, at most 5.
   */
  markdownAlternates: string[];
  /**
   * `<link rel="describedby">` targets (llms.txt v2 points a page to the llms.txt covering it):
   * absolute http(s) URLs, deduplicated, at most 5.
   */
  describedBy: string[];
  /** Headings h1-h6 in document order (text collapsed, at most 200 entries, 200 chars each). */
  headings: { level: number; text: string }[];
  /** JSON-LD blocks in document order (at most 50). */
  jsonLd: JsonLdBlock[];
  /** Count of elements carrying itemscope / itemtype (microdata). */
  microdataItems: number;
  /** itemtype URLs seen (deduplicated, at most 50). */
  microdataTypes: string[];
  /** Count of elements carrying RDFa typeof / vocab. */
  rdfaItems: number;
  /**
   * `<a href>` links in document order (at most 2000, http(s) only, deduplicated by href, the
   * `#fragment` dropped since it names the same document).
   */
  links: PageLink[];
  /**
   * Images: src (absolute http(s); lazy-load `data-src`/`srcset` used when `src` is a
   * placeholder) and alt (collapsed; null when the attribute is missing). At most 500; images
   * inside `<noscript>` (lazy-load fallbacks, tracking pixels) are left out.
   */
  images: { src: string; alt: string | null }[];
  /** Counts of semantic elements: main, article, nav, header, footer, section, aside, time. */
  semantic: Record<
    "main" | "article" | "nav" | "header" | "footer" | "section" | "aside" | "time",
    number
  >;
  /**
   * Visible text: outside script/style/noscript/template/svg/head/title/iframe. A head left
   * unclosed ends, as in browsers, at the first element or text that cannot live in a head.
   */
  text: {
    /** Words (runs of letters/digits, any script; CJK characters count one each). */
    words: number;
    /** Characters of the whitespace-collapsed text. */
    chars: number;
    /** The first 1000 characters, whitespace-collapsed. */
    sample: string;
  };
  /** Words inside `<noscript>`. */
  noscriptWords: number;
  /** `<p>` elements holding at least 20 words. */
  substantialParagraphs: number;
  /** `<ul>` and `<ol>` elements. */
  lists: number;
  tables: number;
  /**
   * FAQ-like structure, with detailsCount and definitionLists: headings (all of them, not only
   * the 200 kept) phrased as questions, i.e. ending with "?" or starting with who/what/when/
   * where/why/how/can/does/is/are/should.
   */
  questionHeadings: number;
  /** `<details>` elements. */
  detailsCount: number;
  /** `<dl>` elements. */
  definitionLists: number;
  scripts: {
    /** All `<script>` elements. */
    count: number;
    /** Scripts with a `src` attribute. */
    external: number;
    /**
     * Of those, scripts from another site than the page's (another registrable domain: an
     * analytics tag, a cookie banner, a chat widget): not the page's own application code.
     */
    otherSites: number;
    /** Bytes of inline script text (JSON-LD and other data blocks excluded). */
    inlineBytes: number;
  };
  /**
   * Hints of a client-rendered app shell: an empty mount node (id root/app/__next/__nuxt/svelte/___gatsby)
   * and framework markers found (e.g. "__NEXT_DATA__", "ng-version", "data-reactroot"),
   * deduplicated, at most 20. A mount node counts as empty when it holds no element and no
   * non-blank text.
   */
  appShell: { emptyMountNode: boolean; markers: string[] };
  /** `<time datetime>` values (at most 20). */
  times: string[];
  /**
   * Who wrote the page and when, as its visible text shows it (visible_bylines.ts): a byline's
   * people ("By Anna Reid", "Par ...", a link to the author's page), and the published and
   * updated dates a byline, a label ("Published", "Mis à jour"...) or a `<time>` gives.
   */
  bylines: VisibleBylines;
  /**
   * First `<a>` whose last path segment or text looks like an about / contact / privacy page,
   * as an absolute URL; links on the page's own site win over external ones. Every link is
   * looked at, including those past the 2000 kept in `links`.
   */
  trustLinks: { about: string | null; contact: string | null; privacy: string | null };
  /** Whether the document had a `<body>` tag at all. */
  hasBody: boolean;
  /** Total elements seen (including those inside svg/template). */
  elementCount: number;
  /** Deepest element nesting seen (parsing continues past any depth). */
  maxDepth: number;
}
