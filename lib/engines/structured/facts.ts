/**
 * The page facts the generator may use. Two layers: {@link buildFacts} reads the one-pass
 * {@link PageFacts} (title, metas, Open Graph, links, images: enough for the visibility checker's
 * fixes), and dom_facts.ts adds what needs the tree. Every value is copied from the page.
 */
import type { PageFacts } from "../html/types.ts";
import { flattenJsonLd, type JsonLdNode } from "./page_graph.ts";
import { chooseSiteName } from "./site_name.ts";
import { splitAuthors } from "./bylines.ts";
import { absoluteUrl } from "./dom.ts";
import { availabilityUrl, type DomFacts, EMPTY_DOM } from "./dom_facts.ts";
import type { Facts } from "./record.ts";

export { availabilityUrl, domFacts } from "./dom_facts.ts";

/** Hosts of profiles that identify an entity (used for sameAs). */
export const PROFILE_HOSTS = [
  "linkedin.com",
  "x.com",
  "twitter.com",
  "facebook.com",
  "instagram.com",
  "youtube.com",
  "github.com",
  "wikipedia.org",
  "wikidata.org",
  "crunchbase.com",
  "tiktok.com",
  "threads.net",
  "bsky.app",
  "mastodon.social",
  "pinterest.com",
];

/** Links to the entity's profiles elsewhere (share buttons and bare home pages left out). */
export function socialProfiles(links: PageFacts["links"]): string[] {
  const out = new Set<string>();
  for (const link of links) {
    if (link.internal) continue;
    let url: URL;
    try {
      url = new URL(link.href);
    } catch {
      continue;
    }
    const host = url.hostname.replace(/^www\./, "");
    if (!PROFILE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) continue;
    if (/share|intent|sharer|\/home$/i.test(url.pathname) || url.pathname.length <= 1) continue;
    out.add(link.href);
  }
  return [...out].slice(0, 10);
}

/**
 * Builds the generator's facts from PageFacts, plus DOM facts when the tree was parsed. `nodes`
 * are the page's structured-data nodes of every format (the site name is chosen from them, the
 * page's metas and its title: {@link chooseSiteName}); JSON-LD only when not given.
 */
export function buildFacts(
  pf: PageFacts,
  pageUrl: string,
  domain: string,
  dom: DomFacts = EMPTY_DOM,
  nodes: JsonLdNode[] = flattenJsonLd(pf.jsonLd),
): Facts {
  const og = pf.openGraph;
  const h1 = pf.headings.find((h) => h.level === 1)?.text || null;
  const ogType = og["og:type"]?.trim().toLowerCase() || null;
  const siteName = chooseSiteName(pf, nodes, domain);
  const ogImage = absoluteUrl(
    og["og:image"] ?? og["og:image:url"] ?? og["og:image:secure_url"] ??
      pf.twitter["twitter:image"] ?? null,
    pageUrl,
  );
  const int = (v: string | undefined) => {
    const n = Number(v);
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  const primaryImage = ogImage
    ? {
      url: ogImage,
      width: int(og["og:image:width"]),
      height: int(og["og:image:height"]),
      alt: og["og:image:alt"]?.trim() || null,
    }
    : dom.mainImage
    ? { url: dom.mainImage.url, width: null, height: null, alt: dom.mainImage.alt }
    : null;
  const logo = dom.logo ?? absoluteUrl(og["og:logo"] ?? null, pageUrl);
  const images = [...new Set(pf.images.map((i) => i.src).filter((s) => s !== logo))].slice(0, 10);

  // What the page's text shows ("By Anna Reid · Published 12 October 2026"): the last resort
  // after the page's own metadata, and never more than the page shows.
  const visible = pf.bylines ?? { authors: [], published: null, updated: null };
  const published = pf.meta["article:published_time"] ?? pf.meta["date"] ?? pf.meta["dc.date"] ??
    pf.meta["dc.date.issued"] ?? pf.meta["dcterms.created"] ?? dom.articleTime ??
    visible.published;
  const modified = pf.meta["article:modified_time"] ?? pf.meta["og:updated_time"] ??
    pf.meta["dcterms.modified"] ?? visible.updated ?? null;
  const authorMeta = pf.meta["author"] ?? pf.meta["dc.creator"] ?? null;
  const notHome = new URL(pageUrl).pathname !== "/";
  const isArticle = ogType === "article" || !!pf.meta["article:published_time"] ||
    (!!dom.articleTime && notHome) ||
    // A page that shows a byline and a date is an article (not the site's home page).
    (visible.authors.length > 0 && !!(visible.published ?? visible.updated) && notHome);
  // Several author links are several people; a meta "A, B" or "A and B" names two.
  const metaAuthors = splitAuthors(authorMeta ?? "").map((name) => ({ name, url: null }));
  const authors = dom.authors.length
    ? dom.authors
    : metaAuthors.length
    ? metaAuthors
    : visible.authors;
  const article = isArticle
    ? {
      headline: og["og:title"]?.trim() || h1 || pf.title || null,
      author: authors[0]?.name ?? null,
      authorUrl: authors[0]?.url ?? null,
      authors,
      datePublished: published?.trim() || null,
      dateModified: modified?.trim() || null,
    }
    : null;

  const pm = dom.productMeta;
  const metaPrice = pm["product:price:amount"] ?? og["og:price:amount"] ?? null;
  const metaCurrency = pm["product:price:currency"] ?? og["og:price:currency"] ?? null;
  const isProduct = ogType === "product" || ogType === "product.item" || !!metaPrice;
  const price = metaPrice ?? (isProduct ? dom.visiblePrice?.price : null) ?? null;
  const product = isProduct
    ? {
      name: og["og:title"]?.trim() || h1 || pf.title || null,
      price: price?.trim() || null,
      currency: (metaCurrency ?? (metaPrice ? null : dom.visiblePrice?.currency) ?? null)?.trim()
        .toUpperCase() || null,
      availability: availabilityUrl(
        pm["product:availability"] ?? og["og:availability"] ?? dom.visibleAvailability,
      ),
      sku: pm["product:retailer_item_id"]?.trim() || null,
      brand: (pm["product:brand"] ?? og["og:brand"])?.trim() || null,
    }
    : null;

  return {
    title: pf.title || null,
    description: pf.metaDescription ?? og["og:description"]?.trim() ?? null,
    canonical: pf.canonical,
    lang: pf.lang,
    siteName,
    ogType,
    logo,
    images,
    primaryImage,
    socialProfiles: socialProfiles(pf.links),
    contact: { telephones: dom.telephones, emails: dom.emails },
    address: dom.address,
    breadcrumbs: dom.breadcrumbs,
    faq: dom.faq,
    article,
    product,
  };
}
