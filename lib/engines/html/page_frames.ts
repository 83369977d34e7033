/**
 * The SAX pass's bookkeeping (lib/engines/html/page_facts.ts): the frame of an open element, the context
 * bits it raises, the role its close finishes, and the ARIA landmark table.
 */
import type { TextBuffer, TextStats } from "./text_tools.ts";
import type { PageFacts } from "./types.ts";

/** Context bits an element raises while open; kept on its frame to lower them at close. */
export const CTX = { SVG: 1, TEMPLATE: 2, NOSCRIPT: 4, HIDDEN: 8 } as const;

/** What an element's close has to finish. */
export const ROLE = {
  NONE: 0,
  TITLE: 1,
  HEADING: 2,
  PARAGRAPH: 3,
  ANCHOR: 4,
  SCRIPT: 5,
  HEAD: 6,
} as const;

/** Non-blank test for text chunks. */
export const INK = /\S/;

/** An open element. */
export interface Frame {
  /** tagInfo() of the element. */
  info: number;
  ctx: number;
  role: number;
  /** Heading level. */
  level: number;
  /** Text collected for the role (title, heading, anchor). */
  buf: TextBuffer | null;
  /** Paragraph: the text stream it feeds and that stream's word count at its start. */
  stream: TextStats | null;
  startWords: number;
  /** Anchor: href as written, rel, and aria-label/title (image alts come via anchorAlts). */
  anchor: { href: string; rel: string; label: string | null } | null;
  /** Whether this is a mount node (id root/app/...) that has shown no content yet. */
  emptyMount: boolean;
}

/** ARIA landmark roles and the semantic element each stands for. */
export const ARIA_LANDMARKS: Record<string, keyof PageFacts["semantic"]> = Object.assign(
  Object.create(null),
  {
    main: "main",
    article: "article",
    navigation: "nav",
    banner: "header",
    contentinfo: "footer",
    complementary: "aside",
    region: "section",
  },
);

/** The semantic-element counts of a page, all zero. */
export function noSemantics(): PageFacts["semantic"] {
  return { main: 0, article: 0, nav: 0, header: 0, footer: 0, section: 0, aside: 0, time: 0 };
}
