/**
 * The page facts the generator may use. Two layers: {@link buildFacts} reads the one-pass
 * {@link PageFacts} (title, metas, Open Graph, links, images: enough for the visibility checker's
 * fixes), and {@link domFacts} adds what needs the tree (logo, tel:/mailto: contacts, `<address>`,
 * the breadcrumb trail, question + answer pairs, bylines, a product's visible price). Every value
 * is copied from the page; nothing is guessed (a "$" price has no currency: it could be USD, CAD,
 * AUD...).
 */
import type { PageFacts } from "../html/types.ts";
import { isQuestionHeading } from "../html/text_tools.ts";
import { flattenJsonLd, type JsonLdNode } from "./page_graph.ts";
import { chooseSiteName } from "./site_name.ts";
import { collapseWhitespace } from "../html/text_tools.ts";
import {
  absoluteUrl,
  attr,
  closest,
  type DomDocument,
  type DomElement,
  elements,
  isElement,
  textOf,
  tokens,
} from "./dom.ts";
import type { Facts } from "./record.ts";

/** Facts only the DOM gives (empty when only PageFacts are at hand). */
export interface DomFacts {
  logo: string | null;
  telephones: string[];
  emails: string[];
  address: string | null;
  breadcrumbs: { name: string; url: string | null }[];
  faq: { question: string; answer: string }[];
  author: { name: string; url: string | null } | null;
  /** First `<time datetime>` inside `<article>`. */
  articleTime: string | null;
  /** `<meta property="product:...">` values. */
  productMeta: Record<string, string>;
  /** The one price shown in an element whose class or id says "price", if only one is shown. */
  visiblePrice: { price: string; currency: string | null } | null;
  visibleAvailability: string | null;
  /** First image inside `<main>` or `<article>`. */
  mainImage: { url: string; alt: string | null } | null;
}

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

const EMPTY_DOM: DomFacts = {
  logo: null,
  telephones: [],
  emails: [],
  address: null,
  breadcrumbs: [],
  faq: [],
  author: null,
  articleTime: null,
  productMeta: {},
  visiblePrice: null,
  visibleAvailability: null,
  mainImage: null,
};

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

  const published = pf.meta["article:published_time"] ?? pf.meta["date"] ?? pf.meta["dc.date"] ??
    pf.meta["dc.date.issued"] ?? pf.meta["dcterms.created"] ?? dom.articleTime;
  const modified = pf.meta["article:modified_time"] ?? pf.meta["og:updated_time"] ??
    pf.meta["dcterms.modified"] ?? null;
  const authorMeta = pf.meta["author"] ?? pf.meta["dc.creator"] ?? null;
  const isArticle = ogType === "article" || !!pf.meta["article:published_time"] ||
    (!!dom.articleTime && new URL(pageUrl).pathname !== "/");
  const article = isArticle
    ? {
      headline: og["og:title"]?.trim() || h1 || pf.title || null,
      author: (dom.author?.name ?? authorMeta)?.trim() || null,
      authorUrl: dom.author?.url ?? null,
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

/** Maps availability wording ("instock", "In stock", "oos", "pre-order") to schema.org's URL. */
export function availabilityUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.toLowerCase().replace(/[^a-z]/g, "");
  const map: [RegExp, string][] = [
    [/^(?:httpsschemaorg|httpschemaorg)?(instock|available|inventoryavailable)$/, "InStock"],
    [/^(?:httpsschemaorg|httpschemaorg)?(outofstock|oos|soldout|unavailable)$/, "OutOfStock"],
    [/^(?:httpsschemaorg|httpschemaorg)?(preorder|availableforpreorder)$/, "PreOrder"],
    [/^(?:httpsschemaorg|httpschemaorg)?(backorder)$/, "BackOrder"],
    [/^(?:httpsschemaorg|httpschemaorg)?(discontinued)$/, "Discontinued"],
  ];
  for (const [re, name] of map) if (re.test(v)) return `https://schema.org/${name}`;
  return null;
}

/** Currency symbols that name exactly one currency ("$" and "¥" do not). */
const SYMBOLS: Record<string, string> = {
  "€": "EUR",
  "£": "GBP",
  "₹": "INR",
  "₩": "KRW",
  "₺": "TRY",
};
const PRICE_RE =
  /(?:([€£₹₩₺$¥])\s?(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?))|(?:(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s?([€£₹₩₺]|[A-Z]{3})\b)/;

/** Reads what only the tree shows. `baseUrl` resolves relative URLs. */
export function domFacts(doc: DomDocument, baseUrl: string): DomFacts {
  const out: DomFacts = {
    ...EMPTY_DOM,
    telephones: [],
    emails: [],
    breadcrumbs: [],
    faq: [],
    productMeta: {},
  };
  const tel = new Set<string>();
  const mail = new Set<string>();
  const prices = new Map<string, { price: string; currency: string | null }>();
  let trail: DomElement | null = null;
  const questions: DomElement[] = [];
  for (const el of elements(doc)) {
    const cls = `${attr(el, "class") ?? ""} ${attr(el, "id") ?? ""}`.toLowerCase();
    if (el.name === "meta") {
      const p = attr(el, "property")?.toLowerCase();
      const c = attr(el, "content");
      if (p?.startsWith("product:") && c && !(p in out.productMeta)) out.productMeta[p] = c;
    } else if (el.name === "a") {
      const href = attr(el, "href") ?? "";
      if (/^tel:/i.test(href)) tel.add(decodeSafe(href.slice(4)).trim());
      else if (/^mailto:/i.test(href)) {
        const addr = decodeSafe(href.slice(7).split("?")[0]).trim();
        if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(addr)) mail.add(addr);
      } else if (!out.author && tokens(el, "rel").includes("author")) {
        const name = textOf(el, 200);
        if (name) out.author = { name, url: absoluteUrl(href, baseUrl) };
      }
    } else if (
      el.name === "img" && !out.logo &&
      /logo/.test(`${cls} ${attr(el, "alt") ?? ""} ${attr(el, "src") ?? ""}`.toLowerCase())
    ) {
      out.logo = absoluteUrl(attr(el, "src"), baseUrl);
    } else if (
      el.name === "img" && !out.mainImage &&
      closest(el, (e) => e.name === "main" || e.name === "article")
    ) {
      const src = absoluteUrl(attr(el, "src"), baseUrl);
      if (src) out.mainImage = { url: src, alt: attr(el, "alt") };
    } else if (el.name === "address" && !out.address) {
      out.address = textOf(el, 300) || null;
    } else if (
      el.name === "time" && !out.articleTime && attr(el, "datetime") &&
      closest(el, (e) => e.name === "article")
    ) {
      out.articleTime = attr(el, "datetime");
    } else if (el.name === "summary") {
      questions.push(el);
    } else if (/^h[2-6]$/.test(el.name)) {
      if (isQuestionHeading(textOf(el, 300))) questions.push(el);
    }
    if (!trail && isBreadcrumbContainer(el, cls)) trail = el;
    if (/(^|[\s_-])price([\s_-]|$)/.test(cls) && !/old|was|regular|compare/.test(cls)) {
      const m = PRICE_RE.exec(textOf(el, 100));
      if (m) {
        const symbol = m[1] ?? m[4];
        const amount = (m[2] ?? m[3]).replace(/\s/g, "");
        const currency = symbol.length === 3 ? symbol : SYMBOLS[symbol] ?? null;
        prices.set(`${amount}|${currency}`, { price: normalisePrice(amount), currency });
      }
    }
    if (!out.visibleAvailability && /(^|[\s_-])(availability|stock)([\s_-]|$)/.test(cls)) {
      out.visibleAvailability = availabilityUrl(textOf(el, 60)) ? textOf(el, 60) : null;
    }
  }
  out.telephones = [...tel].filter(Boolean).slice(0, 5);
  out.emails = [...mail].slice(0, 5);
  if (prices.size === 1) out.visiblePrice = [...prices.values()][0];
  if (trail) out.breadcrumbs = breadcrumbItems(trail, baseUrl);
  out.faq = questionAnswers(questions);
  return out;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** "1.299,00" -> "1299.00"; "1,299.00" -> "1299.00"; "19,90" -> "19.90". */
function normalisePrice(amount: string): string {
  const lastSep = Math.max(amount.lastIndexOf("."), amount.lastIndexOf(","));
  if (lastSep === -1) return amount;
  const decimals = amount.length - lastSep - 1;
  if (decimals === 3) return amount.replace(/[.,]/g, "");
  return `${amount.slice(0, lastSep).replace(/[.,]/g, "")}.${amount.slice(lastSep + 1)}`;
}

function isBreadcrumbContainer(el: DomElement, cls: string): boolean {
  if (!["nav", "ol", "ul", "div", "p"].includes(el.name)) return false;
  const label = (attr(el, "aria-label") ?? "").toLowerCase();
  return /breadcrumb/.test(label) || /(^|[\s_-])breadcrumbs?([\s_-]|$)/.test(cls);
}

/** The trail's entries: list items (or links) with their names and URLs (the last may have none). */
function breadcrumbItems(
  trail: DomElement,
  baseUrl: string,
): { name: string; url: string | null }[] {
  const lis = [...elements(trail, 500)].filter((e) => e.name === "li");
  const entries = lis.length
    ? lis.map((li) => {
      const a = [...elements(li, 50)].find((e) => e.name === "a" && e.attribs.href);
      return {
        name: cleanCrumb(textOf(li, 200)),
        url: a ? absoluteUrl(a.attribs.href, baseUrl) : null,
      };
    })
    : [...elements(trail, 500)].filter((e) => e.name === "a" || e.attribs["aria-current"]).map((
      a,
    ) => ({
      name: cleanCrumb(textOf(a, 200)),
      url: a.name === "a" ? absoluteUrl(a.attribs.href ?? null, baseUrl) : null,
    }));
  const kept = entries.filter((e) => e.name);
  return kept.length >= 2 ? kept.slice(0, 20) : [];
}

function cleanCrumb(s: string): string {
  return collapseWhitespace(s.replace(/^[\s/›»>|·-]+|[\s/›»>|·-]+$/g, ""));
}

/**
 * Question + answer pairs: a `<summary>` and the rest of its `<details>`, or a question heading
 * and the text of the siblings that follow it up to the next heading.
 */
function questionAnswers(questions: DomElement[]): { question: string; answer: string }[] {
  const out: { question: string; answer: string }[] = [];
  for (const q of questions) {
    if (out.length >= 20) break;
    if (closest(q, (e) => e.name === "nav" || e.name === "footer")) continue;
    const question = textOf(q, 300);
    let answer = "";
    if (q.name === "summary") {
      const details = q.parent && isElement(q.parent) && q.parent.name === "details"
        ? q.parent
        : null;
      if (!details) continue;
      const parts = details.children.filter((c) => c !== q).map((c) =>
        isElement(c) ? textOf(c, 1000) : c.type === "text" ? c.data : ""
      );
      answer = collapseWhitespace(parts.join(" "));
    } else {
      const parts: string[] = [];
      for (let sib = q.next; sib && parts.join(" ").length < 1000; sib = sib.next) {
        if (isElement(sib)) {
          if (/^h[1-6]$/.test(sib.name) || sib.name === "section" || sib.name === "details") break;
          parts.push(textOf(sib, 1000));
        } else if (sib.type === "text") parts.push(sib.data);
      }
      answer = collapseWhitespace(parts.join(" "));
    }
    if (question && answer) out.push({ question, answer: answer.slice(0, 1000) });
  }
  return out;
}
