/** The `<meta>` and `<link>` share of PageFacts, fed by the page-facts SAX handler. */
import { mimeEssence } from "./json_ld.ts";
import { INITIAL_SCOPE, metaKeys, type RdfaScope, scopeOf } from "./rdfa_context.ts";
import { FEED_TYPES, isRobotsMeta, META_KEEP, PAGE_CAPS } from "./page_rules.ts";
import { collapseWhitespace } from "./text_tools.ts";
import type { PageFacts } from "./types.ts";
import type { UrlResolver } from "./url_tools.ts";

type Attribs = Record<string, string>;

/** Where XHTML pages declare `xmlns:` prefixes. */
const SCOPE_TAGS: ReadonlySet<string> = new Set(["html", "head", "body"]);

/** The PageFacts fields {@link HeadFacts} fills. */
export type HeadFields = Pick<
  PageFacts,
  | "metaDescription"
  | "metaRobots"
  | "canonical"
  | "canonicalCount"
  | "hasViewport"
  | "openGraph"
  | "twitter"
  | "meta"
  | "hreflang"
  | "feeds"
  | "markdownAlternates"
  | "describedBy"
>;

/**
 * Accumulates facts from `<meta>` and `<link>` elements. They count wherever they appear:
 * pages with a broken head still get their metadata read, as crawlers do.
 */
export class HeadFacts {
  private metaDescription: string | null = null;
  private readonly metaRobots: Record<string, string> = {};
  private canonical: string | null = null;
  private canonicalCount = 0;
  private hasViewport = false;
  private readonly openGraph: Record<string, string> = {};
  private readonly twitter: Record<string, string> = {};
  private readonly meta: Record<string, string> = {};
  private readonly hreflang: { lang: string; href: string }[] = [];
  private readonly feeds = new Set<string>();
  private readonly markdownAlternates = new Set<string>();
  private readonly describedBy = new Set<string>();

  /** `urls`: the page's resolver, so `<base href>` applies to canonical and alternates. */
  constructor(private readonly urls: UrlResolver) {}

  /** The RDFa prefixes and vocabulary in force, and the elements that changed them. */
  private scope: RdfaScope = INITIAL_SCOPE;
  private readonly scopes: [object, RdfaScope][] = [];

  /**
   * An element opens: its RDFa `prefix`, `vocab` and `xmlns:` declarations (the last only where
   * XHTML pages put them: html, head, body) apply to the metas inside it.
   */
  onOpen(element: object, name: string, attribs: Attribs): void {
    if (
      attribs.prefix === undefined && attribs.vocab === undefined &&
      !(SCOPE_TAGS.has(name) && Object.keys(attribs).some((a) => a.startsWith("xmlns:")))
    ) return;
    const next = scopeOf(attribs, this.scope);
    if (next === this.scope) return;
    this.scopes.push([element, this.scope]);
    this.scope = next;
  }

  /** An element closes (its declarations end). */
  onClose(element: object): void {
    const top = this.scopes[this.scopes.length - 1];
    if (top !== undefined && top[0] === element) this.scope = this.scopes.pop()![1];
  }

  /**
   * One `<meta>` element. Its `property` is also read as the RDFa it is, through the prefixes
   * and vocabulary in force (`prefix="o: http://ogp.me/ns#"` with `property="o:title"` is
   * og:title; `dc:creator` is dcterms.creator).
   */
  onMeta(attribs: Attribs): void {
    const name = attribs.name?.trim().toLowerCase();
    const property = attribs.property?.trim().toLowerCase();
    if (name === "viewport") this.hasViewport = true;
    const content = attribs.content;
    if (content === undefined) return;
    if (name === "description" && this.metaDescription === null) {
      this.metaDescription = collapseWhitespace(content);
    }
    if (name !== undefined && isRobotsMeta(name, content)) this.addRobots(name, content);
    // Sites mix name= and property= for og:/twitter: tags, so both are keys.
    for (const key of property === name ? [name] : [name, property]) {
      if (key === undefined || key === "") continue;
      const value = content.trim();
      if (key.startsWith("og:")) setFirst(this.openGraph, key, value);
      else if (key.startsWith("twitter:")) setFirst(this.twitter, key, value);
      if (META_KEEP.has(key)) setFirst(this.meta, key, value);
    }
    if (attribs.property === undefined) return;
    // The same property read as RDFa (crawlers that read the literal name got it above).
    for (const key of metaKeys(attribs.property, this.scope)) {
      const value = content.trim();
      if (key.startsWith("og:")) setFirst(this.openGraph, key, value);
      if (META_KEEP.has(key)) setFirst(this.meta, key, value);
    }
  }

  /** One `<link>` element. */
  onLink(attribs: Attribs): void {
    const rel = attribs.rel?.toLowerCase().trim().split(/\s+/) ?? [];
    const href = attribs.href?.trim();
    if (rel.includes("canonical")) {
      if (++this.canonicalCount === 1 && href) this.canonical = this.urls.absolute(href);
    }
    if (rel.includes("describedby") && href) {
      addCapped(this.describedBy, this.urls.http(href, false)?.href, PAGE_CAPS.describedBy);
    }
    if (!rel.includes("alternate") || !href) return;
    const lang = attribs.hreflang?.trim();
    if (lang && this.hreflang.length < PAGE_CAPS.hreflang) {
      const url = this.urls.http(href, false);
      if (url) this.hreflang.push({ lang, href: url.href });
    }
    const type = attribs.type === undefined ? "" : mimeEssence(attribs.type);
    if (type === "text/markdown") {
      addCapped(
        this.markdownAlternates,
        this.urls.http(href, false)?.href,
        PAGE_CAPS.markdownAlternates,
      );
    }
    if (FEED_TYPES.has(type) && this.feeds.size < PAGE_CAPS.feeds) {
      const url = this.urls.http(href, false);
      if (url) this.feeds.add(url.href);
    }
  }

  /** The collected fields. */
  fields(): HeadFields {
    return {
      metaDescription: this.metaDescription,
      metaRobots: this.metaRobots,
      canonical: this.canonical,
      canonicalCount: this.canonicalCount,
      hasViewport: this.hasViewport,
      openGraph: this.openGraph,
      twitter: this.twitter,
      meta: this.meta,
      hreflang: this.hreflang,
      feeds: [...this.feeds],
      markdownAlternates: [...this.markdownAlternates],
      describedBy: [...this.describedBy],
    };
  }

  /** Repeated robots metas for one crawler add up, as crawlers combine them. */
  private addRobots(name: string, content: string): void {
    const directives = content.split(",").map((d) => d.trim().toLowerCase()).filter((d) => d);
    const known = Object.hasOwn(this.metaRobots, name) ? this.metaRobots[name] : null;
    const merged = known ? known.split(", ") : [];
    for (const d of directives) if (!merged.includes(d)) merged.push(d);
    this.metaRobots[name] = merged.join(", ");
  }
}

function addCapped(set: Set<string>, value: string | undefined, cap: number): void {
  if (value && set.size < cap) set.add(value);
}

function setFirst(record: Record<string, string>, key: string, value: string): void {
  if (!Object.hasOwn(record, key)) record[key] = value;
}
