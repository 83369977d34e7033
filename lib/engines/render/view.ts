/**
 * The AI's-eye view as the record carries it (an additive `render` field of the visibility
 * ScanRecord; docs/rendering.md documents every field): per page, what the server HTML holds
 * (what crawlers that do not run JavaScript get) beside what the rendered DOM holds (what
 * Googlebot and other rendering crawlers get), and what only scripts add. Every list and string
 * is capped, so a view is a few KB per page whatever the site serves.
 */
import { z } from "zod";

/** Headings, links and types listed at most per page (counts are exact). */
export const VIEW_CAPS = { examples: 5, text: 200, types: 20, pages: 50 } as const;

/** What one view of a page (server HTML or rendered DOM) holds. */
export const PageViewSchema = z.object({
  /** Words of visible text (lib/engines/html/page_facts.ts: scripts, styles and noscript left out). */
  words: z.number().int().nonnegative(),
  /** Headings h1-h6 (the first 200 are counted). */
  headings: z.number().int().nonnegative(),
  /** The first h1's text, or null. */
  h1: z.string().nullable(),
  /** `<a href>` links to the page's own site. */
  internalLinks: z.number().int().nonnegative(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  canonical: z.string().nullable(),
  /** The `<meta name="robots">` directives, or null when there is none. */
  robots: z.string().nullable(),
  /** schema.org types of the JSON-LD and microdata items, sorted. */
  structuredTypes: z.array(z.string()),
});
export type PageView = z.infer<typeof PageViewSchema>;

/** How the rendered DOM judges the page's server HTML. */
export const RenderVerdictSchema = z.enum([
  "server", // the server HTML already holds the text the rendered page shows
  "partly_js", // the server HTML holds text, and scripts add a large share more
  "js_only", // the text appears only after scripts run
  "thin", // short in both views: a thin page, not a JavaScript one
  "unknown", // not rendered (see the page's reason)
]);
export type RenderVerdict = z.infer<typeof RenderVerdictSchema>;

/** A head field that scripts change. */
export const ChangedFieldSchema = z.object({
  field: z.enum(["title", "description", "canonical", "robots"]),
  raw: z.string().nullable(),
  rendered: z.string().nullable(),
});
export type ChangedField = z.infer<typeof ChangedFieldSchema>;

/** One page in both views. */
export const RenderedPageSchema = z.object({
  url: z.string(),
  /** rendered: both views exist; failed: the render ended without a DOM; skipped: not tried. */
  state: z.enum(["rendered", "failed", "skipped"]),
  /** Why a page failed or was skipped, or what limited its render, in plain words. */
  reason: z.string().nullable(),
  /** The server HTML as the renderer's own request got it; null when it never arrived. */
  raw: PageViewSchema.nullable(),
  rendered: PageViewSchema.nullable(),
  verdict: RenderVerdictSchema,
  /** What exists only after scripts (null unless rendered). */
  onlyAfterScripts: z.object({
    words: z.number().int().nonnegative(),
    headingCount: z.number().int().nonnegative(),
    /** The first headings only scripts add (text, capped). */
    headings: z.array(z.string()),
    links: z.number().int().nonnegative(),
    /** The first internal links only scripts add (paths). */
    linkExamples: z.array(z.string()),
    /** Structured-data types only the rendered DOM holds. */
    structuredTypes: z.array(z.string()),
  }).nullable(),
  /** Title, description, canonical or robots meta that differ after scripts. */
  changed: z.array(ChangedFieldSchema),
  /** The page's requests: served through the guarded fetcher, refused, or failed. */
  requests: z.object({
    served: z.number().int().nonnegative(),
    refused: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    /** Refusals by kind ("image", "websocket", "third-party POST", "robots.txt", ...). */
    refusedKinds: z.record(z.string(), z.number().int().nonnegative()),
  }),
  /** "What GPTBot, ClaudeBot and PerplexityBot miss on this page", in plain words. */
  missed: z.string(),
});
export type RenderedPage = z.infer<typeof RenderedPageSchema>;

/** Whether a crawler renders JavaScript, and on whose word. */
export const CrawlerRenderingSchema = z.object({
  token: z.string(),
  renders: z.boolean(),
  /** "vendor": its vendor documents it; "measured": a published third-party measurement. */
  basis: z.enum(["vendor", "measured"]),
  source: z.string(),
  /** When the source was last checked (YYYY-MM-DD). */
  checked: z.string(),
});
export type CrawlerRendering = z.infer<typeof CrawlerRenderingSchema>;

/** The rendering step's outcome for one scan. */
export const RenderViewSchema = z.object({
  /**
   * rendered: every page asked for has both views; partial: some pages could not be rendered
   * (budget, crash); unavailable: no browser, or the site's Crawl-delay is longer than the scan
   * waits (nothing is guessed from that); failed: the browser could not be started or reached.
   */
  status: z.enum(["rendered", "partial", "unavailable", "failed"]),
  reason: z.string().nullable(),
  /** Which browser rendered ("local Chromium 156.0...", "remote browser (CDP) at host"). */
  browser: z.string().nullable(),
  budgetMs: z.number().int().nonnegative(),
  elapsedMs: z.number().int().nonnegative(),
  pages: z.array(RenderedPageSchema).max(VIEW_CAPS.pages),
  /** What the crawler registry says about rendering (lib/engines/visibility/crawlers.ts). */
  crawlers: z.array(CrawlerRenderingSchema),
});
export type RenderView = z.infer<typeof RenderViewSchema>;
