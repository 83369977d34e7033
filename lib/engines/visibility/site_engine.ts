/**
 * Which engine renders the site's pages, when the home page shows one (issue 42: fixes are in the
 * site's own terms). Without evidence a site is static HTML, and a change to several pages is
 * written page by page; with evidence, the fix says which engine it saw and why, and gives the
 * template code in that engine's own language. Only engines whose template tags we have read in
 * their vendors' documentation are named (each entry's source and the day it was checked).
 */
import type { ScanContext } from "./check.ts";

/** A template engine the scan can recognise, and its own words for a byline. */
export interface Engine {
  /** "WordPress". */
  name: string;
  /** What the page showed (`<meta name="generator" content="WordPress 6.4">`). */
  seen: string;
  /** Where a change to every article goes ("your theme's single post template (single.php)"). */
  articleTemplate: string;
  /** The byline in the engine's template language: the author linked with rel="author", the date. */
  byline: string;
  /** The code block's language word. */
  lang: string;
  /** The vendor's documentation of the tags used, and the day it was read. */
  source: string;
  checked: string;
}

interface EngineDef extends Omit<Engine, "seen"> {
  /** What on the home page shows the engine, in words, or null. */
  detect(ctx: ScanContext): string | null;
}

const GENERATOR = (ctx: ScanContext) => ctx.facts.meta["generator"] ?? "";

const ENGINES: readonly EngineDef[] = [
  {
    name: "WordPress",
    detect: (ctx) => {
      const g = GENERATOR(ctx);
      if (/^WordPress\b/i.test(g)) return `<meta name="generator" content="${g.slice(0, 40)}">`;
      const asset = [...ctx.facts.images.map((i) => i.src), ...ctx.facts.links.map((l) => l.href)]
        .find((u) => u.includes("/wp-content/") || u.includes("/wp-includes/"));
      return asset ? `files under /wp-content/ (${asset.slice(0, 80)})` : null;
    },
    articleTemplate: "your theme's single post template (single.php, or its template part)",
    // get_the_author_posts_link() prints the author's link with rel="author" (WordPress core).
    byline:
      "<p>By <?php the_author_posts_link(); ?>, updated <time datetime=\"<?php echo esc_attr( get_the_modified_date( 'c' ) ); ?>\"><?php echo esc_html( get_the_modified_date() ); ?></time></p>",
    lang: "php",
    source: "https://developer.wordpress.org/reference/functions/get_the_author_posts_link/",
    checked: "2026-12-06",
  },
  {
    name: "Shopify",
    // A store's images are served from Shopify's own CDN.
    detect: (ctx) => {
      const asset = ctx.facts.images.map((i) => i.src).find((u) =>
        new URL(u).hostname === "cdn.shopify.com"
      );
      return asset ? `images served from cdn.shopify.com (${asset.slice(0, 80)})` : null;
    },
    articleTemplate: "your theme's article template (templates/article.liquid or its section)",
    byline:
      '<p>By <a rel="author" href="{{ routes.root_url }}pages/about">{{ article.author }}</a>, updated <time datetime="{{ article.updated_at | date: \'%Y-%m-%d\' }}">{{ article.updated_at | date: \'%B %-d, %Y\' }}</time></p>',
    lang: "liquid",
    source: "https://shopify.dev/docs/api/liquid/objects/article",
    checked: "2026-12-06",
  },
  {
    name: "Hugo",
    detect: (ctx) => {
      const g = GENERATOR(ctx);
      return /^Hugo\b/i.test(g) ? `<meta name="generator" content="${g.slice(0, 40)}">` : null;
    },
    articleTemplate: "your single page template (layouts/_default/single.html)",
    byline:
      '<p>By <a rel="author" href="{{ "about/" | absURL }}">{{ .Params.author }}</a>, updated <time datetime="{{ .Lastmod | time.Format "2006-01-02" }}">{{ .Lastmod | time.Format ":date_long" }}</time></p>',
    lang: "go-html-template",
    source: "https://gohugo.io/methods/page/lastmod/",
    checked: "2026-12-06",
  },
];

const cache = new WeakMap<ScanContext, Engine | null>();

/** The engine the home page shows, or null: a static site (or one we cannot name). */
export function siteEngine(ctx: ScanContext): Engine | null {
  if (cache.has(ctx)) return cache.get(ctx)!;
  let found: Engine | null = null;
  for (const def of ENGINES) {
    const seen = def.detect(ctx);
    if (seen) {
      const { detect: _, ...rest } = def;
      found = { ...rest, seen };
      break;
    }
  }
  cache.set(ctx, found);
  return found;
}

/** "We saw WordPress (<meta name=...>)": which engine and why, for a fix's words. */
export function engineWords(engine: Engine): string {
  return `your site runs on ${engine.name} (we saw ${engine.seen} on the home page)`;
}
