/**
 * Everything the schema scan reads from one HTML page: the JSON-LD, microdata and RDFa items
 * (with `@id` references linked across all three) and the facts the generator may use.
 *
 * Why our own microdata/RDFa reader rather than `npm:@marbec/web-auto-extractor` (which runs in
 * Deno and feeds the Adobe validator in our tests): its hand-written tokenizer does not decode
 * HTML entities ("Ben &amp; Jerry's" stays encoded), ignores `itemref` and RDFa `prefix`es, has
 * no HTML tree rules (an unclosed `<p>` merges sibling text), leaves relative URLs relative and
 * groups items by type (a two-typed item appears twice, document order is lost). htmlparser2's
 * DOM, walked iteratively, gives all of that right at about the cost of one more parse.
 *
 * @example
 * ```ts
 * const x = extractPage(html, "https://shop.example/p/1", "shop.example");
 * x.detected.jsonLd[0].types; // ["Product"]
 * ```
 */
import { extractPageFacts } from "../html/page_facts.ts";
import type { PageFacts } from "../html/types.ts";
import { baseUrlOf, parseDom } from "./dom.ts";
import { buildFacts, domFacts } from "./facts.ts";
import { extractJsonLd, linkRefs } from "./jsonld.ts";
import { itemsToNodes } from "./page_graph.ts";
import { extractMicrodata } from "./microdata.ts";
import { extractRdfa } from "./rdfa.ts";
import type { DetectedItem, Facts, Finding } from "./record.ts";

/** The detected items of a page, by source. */
export interface Detected {
  jsonLd: DetectedItem[];
  microdata: DetectedItem[];
  rdfa: DetectedItem[];
}

/** What {@link extractPage} returns. */
export interface Extraction {
  detected: Detected;
  facts: Facts;
  /** JSON-LD blocks that do not parse or lack a schema.org @context. */
  syntaxFindings: Finding[];
  /** The one-pass page facts (title, metas, links...) the rest was built on. */
  pageFacts: PageFacts;
}

/**
 * Reads a page: `pageUrl` is its final URL (relative URLs and @ids resolve against it). A caller
 * that already extracted the page's {@link PageFacts} passes them, so the page is read once.
 */
export function extractPage(
  html: string,
  pageUrl: string,
  domain: string,
  pageFacts: PageFacts = extractPageFacts(html, pageUrl),
): Extraction {
  const doc = parseDom(html);
  const base = baseUrlOf(doc, pageUrl);
  const jsonLd = extractJsonLd(pageFacts.jsonLd, pageUrl);
  const detected: Detected = {
    jsonLd: jsonLd.items,
    microdata: extractMicrodata(doc, base),
    rdfa: extractRdfa(doc, base),
  };
  linkItems(detected);
  return {
    detected,
    facts: buildFacts(
      pageFacts,
      pageUrl,
      domain,
      domFacts(doc, base),
      itemsToNodes(allItems(detected)),
    ),
    syntaxFindings: jsonLd.findings,
    pageFacts,
  };
}

/** Items of JSON-LD only, from PageFacts (the visibility checker's path: no DOM at hand). */
export function detectFromPageFacts(pf: PageFacts, pageUrl: string): Detected {
  const detected: Detected = {
    jsonLd: extractJsonLd(pf.jsonLd, pageUrl).items,
    microdata: [],
    rdfa: [],
  };
  linkItems(detected);
  return detected;
}

/** Every item of every source, in source order. */
export function allItems(d: Detected): DetectedItem[] {
  return [...d.jsonLd, ...d.microdata, ...d.rdfa];
}

/**
 * Links `{"@id"}` references to the items that declare those ids, whatever their source (each
 * item's `refs` are rebuilt). Items that scripts removed (`origin: "removed"`) are not targets
 * when an item of the rendered page declares the same id.
 */
export function linkItems(d: Detected): void {
  const all = allItems(d);
  const byId = new Map<string, DetectedItem>();
  for (const item of all) {
    if (item.id && item.origin !== "removed" && !byId.has(item.id)) byId.set(item.id, item);
  }
  for (const item of all) if (item.id && !byId.has(item.id)) byId.set(item.id, item);
  for (const item of all) item.refs = [];
  linkRefs(all, byId);
}
