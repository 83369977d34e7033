/**
 * What only the page's tree shows, for the generator's facts: the logo, tel:/mailto: contacts,
 * `<address>`, the breadcrumb trail, question + answer pairs shown on the page (not teasers
 * linking elsewhere), bylines (every author link, "By " stripped), a product's visible price and
 * availability, and the first content image. Every value is copied from the page; nothing is
 * guessed (a "$" price has no currency: it could be USD, CAD, AUD...).
 */
import { collapseWhitespace } from "../html/text_tools.ts";
import { isQuestionHeading } from "../html/text_tools.ts";
import { charsOf, trimBoth } from "../../kit/text/trim.ts";
import { cleanAuthorName } from "./bylines.ts";
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

/** Facts only the DOM gives (empty when only PageFacts are at hand). */
export interface DomFacts {
  logo: string | null;
  telephones: string[];
  emails: string[];
  address: string | null;
  breadcrumbs: { name: string; url: string | null }[];
  faq: { question: string; answer: string }[];
  /** The byline's author links (`rel="author"`), in document order. */
  authors: { name: string; url: string | null }[];
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

/** No DOM facts (only PageFacts at hand). */
export const EMPTY_DOM: DomFacts = {
  logo: null,
  telephones: [],
  emails: [],
  address: null,
  breadcrumbs: [],
  faq: [],
  authors: [],
  articleTime: null,
  productMeta: {},
  visiblePrice: null,
  visibleAvailability: null,
  mainImage: null,
};

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

/** What the texts of one extraction may still visit (see {@link DOM_TEXT_BUDGET}). */
type TextBudget = { nodes: number };

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
/**
 * Nodes the texts of one page's DOM facts may visit in all: each element with a price, a heading
 * or a byline wants its text, and elements nested in each other would each walk the same subtree
 * (quadratic in a page of 100,000 nested `<div class="price">`). Past it, texts come out empty.
 */
export const DOM_TEXT_BUDGET = 1_000_000;

export function domFacts(doc: DomDocument, baseUrl: string): DomFacts {
  const budget = { nodes: DOM_TEXT_BUDGET };
  const out: DomFacts = {
    ...EMPTY_DOM,
    authors: [],
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
        if (looksLikeEmail(addr)) mail.add(addr);
      } else if (out.authors.length < 20 && tokens(el, "rel").includes("author")) {
        const name = cleanAuthorName(textOf(el, 200, budget));
        const url = absoluteUrl(href, baseUrl);
        if (name && !out.authors.some((a) => a.name === name || (url && a.url === url))) {
          out.authors.push({ name, url });
        }
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
      out.address = textOf(el, 300, budget) || null;
    } else if (
      el.name === "time" && !out.articleTime && attr(el, "datetime") &&
      closest(el, (e) => e.name === "article")
    ) {
      out.articleTime = attr(el, "datetime");
    } else if (el.name === "summary") {
      questions.push(el);
    } else if (/^h[2-6]$/.test(el.name)) {
      if (isQuestionHeading(textOf(el, 300, budget))) questions.push(el);
    }
    if (!trail && isBreadcrumbContainer(el, cls)) trail = el;
    if (/(^|[\s_-])price([\s_-]|$)/.test(cls) && !/old|was|regular|compare/.test(cls)) {
      const m = PRICE_RE.exec(textOf(el, 100, budget));
      if (m) {
        const symbol = m[1] ?? m[4];
        const amount = (m[2] ?? m[3]).replace(/\s/g, "");
        const currency = symbol.length === 3 ? symbol : SYMBOLS[symbol] ?? null;
        prices.set(`${amount}|${currency}`, { price: normalisePrice(amount), currency });
      }
    }
    if (!out.visibleAvailability && /(^|[\s_-])(availability|stock)([\s_-]|$)/.test(cls)) {
      out.visibleAvailability = availabilityUrl(textOf(el, 60, budget))
        ? textOf(el, 60, budget)
        : null;
    }
  }
  out.telephones = [...tel].filter(Boolean).slice(0, 5);
  out.emails = [...mail].slice(0, 5);
  if (prices.size === 1) out.visiblePrice = [...prices.values()][0];
  if (trail) out.breadcrumbs = breadcrumbItems(trail, baseUrl, budget);
  out.faq = questionAnswers(questions, budget);
  return out;
}

/** Whether an element contains a link (an `<a href>`). */
function linksAway(el: DomElement): boolean {
  return [...elements(el, 50)].some((e) => e.name === "a" && !!e.attribs.href);
}

/** The share of the text after a heading (up to the next heading) that is link text. */
function linkShare(q: DomElement, budget: TextBudget): number {
  let all = 0;
  let linked = 0;
  for (let sib = q.next; sib && all < 2000; sib = sib.next) {
    if (!isElement(sib)) {
      if (sib.type === "text") all += collapseWhitespace(sib.data).length;
      continue;
    }
    if (/^h[1-6]$/.test(sib.name) || sib.name === "section" || sib.name === "details") break;
    all += textOf(sib, 1000, budget).length;
    const links = sib.name === "a" ? [sib] : [...elements(sib, 200)].filter((e) => e.name === "a");
    for (const a of links) linked += textOf(a, 1000, budget).length;
  }
  return all ? linked / all : 0;
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
  budget: TextBudget,
): { name: string; url: string | null }[] {
  const lis = [...elements(trail, 500)].filter((e) => e.name === "li");
  const entries = lis.length
    ? lis.map((li) => {
      const a = [...elements(li, 50)].find((e) => e.name === "a" && e.attribs.href);
      return {
        name: cleanCrumb(textOf(li, 200, budget)),
        url: a ? absoluteUrl(a.attribs.href, baseUrl) : null,
      };
    })
    : [...elements(trail, 500)].filter((e) => e.name === "a" || e.attribs["aria-current"]).map((
      a,
    ) => ({
      name: cleanCrumb(textOf(a, 200, budget)),
      url: a.name === "a" ? absoluteUrl(a.attribs.href ?? null, baseUrl) : null,
    }));
  const kept = entries.filter((e) => e.name);
  return kept.length >= 2 ? kept.slice(0, 20) : [];
}

/** Separators a breadcrumb's text may start or end with. */
const CRUMB_EDGE = charsOf("/›»>|·-", true);

function cleanCrumb(s: string): string {
  return collapseWhitespace(trimBoth(s, CRUMB_EDGE));
}

/**
 * "a@b.c": one "@", no white space, and a dot inside the domain part, as
 * `/^[^@\s]+@[^@\s]+\.[^@\s]+$/` says; that expression tried every split of the domain at a dot
 * (quadratic in a mailto: of many dots).
 */
function looksLikeEmail(addr: string): boolean {
  if (!/^[^@\s]+@[^@\s]+$/.test(addr)) return false;
  return addr.slice(addr.indexOf("@") + 2, -1).includes(".");
}

/**
 * Question + answer pairs: a `<summary>` and the rest of its `<details>`, or a question heading
 * and the text of the siblings that follow it up to the next heading.
 */
function questionAnswers(
  questions: DomElement[],
  budget: TextBudget,
): { question: string; answer: string }[] {
  const out: { question: string; answer: string }[] = [];
  for (const q of questions) {
    if (out.length >= 20) break;
    if (closest(q, (e) => e.name === "nav" || e.name === "footer")) continue;
    // A heading that links elsewhere is a teaser for another page ("Quiz: ...?"), not a question
    // this page answers.
    if (q.name !== "summary" && (closest(q, (e) => e.name === "a") || linksAway(q))) continue;
    const question = textOf(q, 300, budget);
    let answer = "";
    if (q.name === "summary") {
      const details = q.parent && isElement(q.parent) && q.parent.name === "details"
        ? q.parent
        : null;
      if (!details) continue;
      const parts = details.children.filter((c) => c !== q).map((c) =>
        isElement(c) ? textOf(c, 1000, budget) : c.type === "text" ? c.data : ""
      );
      answer = collapseWhitespace(parts.join(" "));
    } else {
      const parts: string[] = [];
      for (let sib = q.next; sib && parts.join(" ").length < 1000; sib = sib.next) {
        if (isElement(sib)) {
          if (/^h[1-6]$/.test(sib.name) || sib.name === "section" || sib.name === "details") break;
          parts.push(textOf(sib, 1000, budget));
        } else if (sib.type === "text") parts.push(sib.data);
      }
      answer = collapseWhitespace(parts.join(" "));
      // The text after a teaser heading is the teaser's own link (or a link list), not an answer.
      if (answer && linkShare(q, budget) > 0.6) continue;
    }
    if (question && answer) out.push({ question, answer: answer.slice(0, 1000) });
  }
  return out;
}
