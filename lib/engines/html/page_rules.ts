/** Tag sets, name lists and small classifiers the page-facts extractor applies per element. */
import { mimeEssence } from "./json_ld.ts";

/** Caps on every list in PageFacts, so a hostile page cannot make a record grow without bound. */
export const PAGE_CAPS = {
  links: 2000,
  linkText: 200,
  images: 500,
  headings: 200,
  headingText: 200,
  jsonLd: 50,
  microdataTypes: 50,
  times: 20,
  hreflang: 300,
  feeds: 20,
  markdownAlternates: 5,
  describedBy: 5,
  markers: 20,
  textSample: 1000,
} as const;

/**
 * Phrasing elements that do not break words apart: `<b>foo</b>bar` reads "foobar", while any
 * other element boundary (`</p><p>`, `<br>`, `<td>`) separates words the way layout would.
 */
const INLINE_TAGS: ReadonlySet<string> = new Set([
  "a",
  "abbr",
  "acronym",
  "b",
  "bdi",
  "bdo",
  "big",
  "cite",
  "code",
  "data",
  "del",
  "dfn",
  "em",
  "font",
  "i",
  "img",
  "ins",
  "kbd",
  "label",
  "mark",
  "nobr",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "time",
  "tt",
  "u",
  "var",
  "wbr",
]);

/**
 * Elements a browser keeps inside `<head>`. Any other element (or non-blank text) met directly
 * in an unclosed head ends it, which is how pages without `</head>`/`<body>` still render.
 */
const HEAD_TAGS: ReadonlySet<string> = new Set([
  "base",
  "link",
  "meta",
  "noscript",
  "script",
  "style",
  "template",
  "title",
]);

/** Raw-text elements whose content is never rendered (iframe content is legacy fallback). */
const HIDDEN_TAGS: ReadonlySet<string> = new Set([
  "iframe",
  "noembed",
  "noframes",
  "script",
  "style",
  "title",
]);

/** Counted semantic landmarks (`time` is counted with `<time datetime>` handling). */
const SEMANTIC_TAGS: ReadonlySet<string> = new Set([
  "main",
  "article",
  "nav",
  "header",
  "footer",
  "section",
  "aside",
]);

/** Codes of the elements the extractor handles specially (low byte of {@link tagInfo}). */
export const TAG = {
  other: 0,
  html: 1,
  head: 2,
  body: 3,
  title: 4,
  meta: 5,
  link: 6,
  base: 7,
  script: 8,
  noscript: 9,
  template: 10,
  svg: 11,
  heading: 12,
  p: 13,
  a: 14,
  img: 15,
  list: 16,
  dl: 17,
  table: 18,
  details: 19,
  time: 20,
  astroIsland: 21,
} as const;

/** {@link tagInfo} flag: phrasing element that does not separate words. */
export const TAG_INLINE = 0x100;
/** {@link tagInfo} flag: raw-text element whose content is never rendered. */
export const TAG_HIDDEN = 0x200;
/** {@link tagInfo} flag: landmark counted in PageFacts.semantic. */
export const TAG_SEMANTIC = 0x400;
/** {@link tagInfo} flag: element that may stay inside `<head>`. */
export const TAG_HEAD = 0x800;

const TAG_CODES: Record<string, number> = {
  html: TAG.html,
  head: TAG.head,
  body: TAG.body,
  title: TAG.title,
  meta: TAG.meta,
  link: TAG.link,
  base: TAG.base,
  script: TAG.script,
  noscript: TAG.noscript,
  template: TAG.template,
  svg: TAG.svg,
  h1: TAG.heading,
  h2: TAG.heading,
  h3: TAG.heading,
  h4: TAG.heading,
  h5: TAG.heading,
  h6: TAG.heading,
  p: TAG.p,
  a: TAG.a,
  img: TAG.img,
  ul: TAG.list,
  ol: TAG.list,
  dl: TAG.dl,
  table: TAG.table,
  details: TAG.details,
  time: TAG.time,
  "astro-island": TAG.astroIsland,
};

/**
 * One map lookup per element instead of several set lookups and a long string `switch` (tag
 * names from the parser are fresh strings, so each `case` would compare characters).
 */
const TAG_TABLE: ReadonlyMap<string, number> = (() => {
  const table = new Map<string, number>(Object.entries(TAG_CODES));
  const flag = (names: ReadonlySet<string>, bit: number) => {
    for (const name of names) table.set(name, (table.get(name) ?? 0) | bit);
  };
  flag(INLINE_TAGS, TAG_INLINE);
  flag(HIDDEN_TAGS, TAG_HIDDEN);
  flag(SEMANTIC_TAGS, TAG_SEMANTIC);
  flag(HEAD_TAGS, TAG_HEAD);
  return table;
})();

/** Code (low byte, a {@link TAG} value) and TAG_* flags of a lowercased tag name. */
export function tagInfo(name: string): number {
  return TAG_TABLE.get(name) ?? 0;
}

/** Ids client-rendered frameworks mount into. */
export const MOUNT_IDS: ReadonlySet<string> = new Set([
  "root",
  "app",
  "__next",
  "__nuxt",
  "svelte",
  "___gatsby",
]);

/** Attributes whose presence names a framework (exact names). */
const ATTRIBUTE_MARKERS: ReadonlySet<string> = new Set([
  "ng-version",
  "ng-server-context",
  "data-reactroot",
  "data-server-rendered",
  "data-v-app",
  "q:container",
]);

/** The framework marker an attribute name signals, or null. */
export function attributeMarker(attribute: string): string | null {
  if (ATTRIBUTE_MARKERS.has(attribute)) return attribute;
  // SvelteKit spreads data-sveltekit-preload-data, -reload, ... over many elements.
  if (attribute.startsWith("data-sveltekit")) return "data-sveltekit";
  return null;
}

/** Script ids that carry framework state. */
export const SCRIPT_ID_MARKERS: ReadonlySet<string> = new Set(["__NEXT_DATA__", "__NUXT_DATA__"]);

/** Strings in inline scripts that name a framework's hydration state: [needle, marker]. */
export const SCRIPT_TEXT_MARKERS: readonly (readonly [string, string])[] = [
  ["window.__NUXT__", "__NUXT__"],
  ["self.__next_f", "__next_f"],
  ["window.__remixContext", "__remixContext"],
];

/** Longest needle above, minus one: the tail kept between text chunks of one script. */
export const SCRIPT_MARKER_TAIL = Math.max(...SCRIPT_TEXT_MARKERS.map(([n]) => n.length)) - 1;

/**
 * Whether a script type runs as code (per the HTML spec, anything else is a data block: JSON,
 * import maps, templates, JSON-LD).
 */
export function isExecutableScriptType(type: string | undefined): boolean {
  if (type === undefined) return true;
  const essence = mimeEssence(type);
  return essence === "" || essence === "module" ||
    /^(?:text|application)\/(?:x-)?(?:java|ecma|j|live)script(?:1\.[0-5])?$/.test(essence);
}

/** `<link rel="alternate" type>` values that announce a feed. */
export const FEED_TYPES: ReadonlySet<string> = new Set([
  "application/rss+xml",
  "application/atom+xml",
  "application/feed+json",
]);

/** `<meta>` names/properties kept in PageFacts.meta (first occurrence of each). */
export const META_KEEP: ReadonlySet<string> = new Set([
  "author",
  "article:author",
  "article:published_time",
  "article:modified_time",
  "og:updated_time",
  "date",
  "dc.date",
  "dc.date.issued",
  "dc.creator",
  "dcterms.created",
  "dcterms.creator",
  "dcterms.date",
  "dcterms.issued",
  "dcterms.modified",
  "generator",
  "keywords",
  "theme-color",
  "application-name",
  "apple-mobile-web-app-title",
]);

/** Crawlers that honour `<meta name="BOTNAME">` directives, besides the generic "robots". */
const ROBOT_NAMES: ReadonlySet<string> = new Set([
  "robots",
  "googlebot",
  "googlebot-news",
  "googlebot-image",
  "google-extended",
  "bingbot",
  "msnbot",
  "slurp",
  "duckduckbot",
  "yandex",
  "baiduspider",
  "applebot",
  "applebot-extended",
  "gptbot",
  "chatgpt-user",
  "oai-searchbot",
  "claudebot",
  "claude-web",
  "anthropic-ai",
  "perplexitybot",
  "ccbot",
  "bytespider",
  "amazonbot",
  "meta-externalagent",
  "cohere-ai",
  "diffbot",
]);

/** Whether a lowercased meta name addresses crawlers (known names, or "*bot"/"*spider"). */
export function isRobotsMetaName(name: string): boolean {
  return ROBOT_NAMES.has(name) || /^[a-z0-9._-]+(?:bot|spider|crawler)$/.test(name);
}

/** One robots directive as meta tags write them (Google's and Bing's documented values). */
const DIRECTIVE =
  /^(?:(?:no)?index|(?:no)?follow|none|all|noarchive|nocache|nosnippet|noimageindex|notranslate|indexifembedded|max-(?:snippet|image-preview|video-preview)\s*:\s*[a-z0-9-]+)$/i;
/** A content made only of robots directives, comma-separated (each piece matched on its own). */
function isDirectiveList(content: string): boolean {
  return content.split(",").every((part) => DIRECTIVE.test(part.trim()));
}

/** Meta names that are never a crawler's, whatever their content says. */
const NOT_CRAWLERS = new Set(["description", "keywords", "viewport", "author", "generator"]);

/**
 * Whether a meta tag addresses a crawler: a name we know (or "*bot"), or any other name whose
 * content is only robots directives (`<meta name="MistralAI-Index" content="noindex">`: a crawler
 * token need not end in "bot").
 */
export function isRobotsMeta(name: string, content: string): boolean {
  if (isRobotsMetaName(name)) return true;
  return !NOT_CRAWLERS.has(name) && /^[a-z0-9._-]+$/.test(name) && content.length <= 200 &&
    isDirectiveList(content);
}

/** Kinds of trust page PageFacts.trustLinks records. */
export type TrustKind = "about" | "contact" | "privacy";

/** Cheap pre-filter: could this href or text be a trust link at all? */
export const TRUST_HINT = /about|compan|team|who|contact|support|privacy/i;

const ABOUT_SLUG = /^(?:about|about[-_]?us|company|team|our[-_]?team|who[-_]?we[-_]?are)$/;
const CONTACT_SLUG = /^(?:contact|contact[-_]?us|support)$/;
/** "About", "About us", "About Acme Corp" (at most two words after: not "About time we met"). */
const ABOUT_TEXT =
  /^(?:about(?:\s+\S+){0,2}|(?:our\s+)?company|(?:our\s+|the\s+|meet\s+the\s+)?team|who\s+we\s+are)$/i;
/** Words after "About" that show the link is about something else than who runs the site. */
const NOT_ABOUT_TEXT =
  /\b(?:ads?|adverts?|advertising|adchoices|cookies?|privacy|terms|data|this|these|results?|accessibility|feedback|search|personali[sz]ed|interest-based)\b/i;
/** Path segments of privacy, legal and advertising sections. */
const NOT_ABOUT_PATH = /privacy|legal|terms|cookie|^ads?$|adchoices|advert/i;
const CONTACT_TEXT = /^(?:contact(?:\s+us)?|support|customer\s+support|get\s+in\s+touch)$/i;

/**
 * Which trust page a link points at, judged by the last path segment (extension dropped, so
 * "/en/about-us.html" counts) and then by its text.
 */
export function trustKind(pathname: string, text: string): TrustKind | null {
  const segments = pathname.toLowerCase().split("/").filter((s) => s !== "");
  const slug = (segments.at(-1) ?? "").replace(/\.(?:html?|php|aspx?)$/, "");
  if (slug.includes("privacy")) return "privacy";
  if (CONTACT_SLUG.test(slug)) return "contact";
  if (ABOUT_SLUG.test(slug)) return "about";
  if (/privacy/i.test(text)) return "privacy";
  if (CONTACT_TEXT.test(text)) return "contact";
  // "About our ads", "About cookies", "About this result" and links into a privacy or legal
  // section are not the page about the organisation.
  if (
    ABOUT_TEXT.test(text) && !NOT_ABOUT_TEXT.test(text) &&
    !segments.some((s) => NOT_ABOUT_PATH.test(s))
  ) return "about";
  return null;
}
