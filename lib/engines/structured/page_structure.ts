/**
 * A page's structured data as the visibility checker reads it, worked out once per page: the
 * JSON-LD nodes (flattened once), the nodes of every format (the schema service's extraction of
 * microdata and RDFa, run only when the page has such attributes, on the page facts already
 * extracted), and the one corroborated site name (site_name.ts). The home page's scan, its
 * off-site lookups and its audit all ask for it; it is kept per PageFacts object, so asking again
 * costs nothing.
 *
 * @example
 * ```ts
 * const s = pageStructure(facts, html, "https://example.com/", "example.com");
 * s.siteName; // "Example"
 * ```
 */
import type { PageFacts } from "../html/types.ts";
import { type Detected, detectFromPageFacts, extractPage } from "./extract.ts";
import { flattenJsonLd, itemsToNodes, type JsonLdNode } from "./page_graph.ts";
import { chooseSiteName } from "./site_name.ts";

/** What {@link pageStructure} returns. */
export interface PageStructure {
  /** The page's JSON-LD nodes, flattened. */
  jsonLdNodes: JsonLdNode[];
  /** The nodes of every format: JSON-LD, then microdata and RDFa items. */
  nodes: JsonLdNode[];
  /** The items of every format, as the schema service extracts them. */
  detected: Detected;
  /** The site's one corroborated name, or null. */
  siteName: string | null;
}

const cache = new WeakMap<PageFacts, Map<string, PageStructure>>();

/** The page's structure (see the module comment); computed once per facts object and URL. */
export function pageStructure(
  facts: PageFacts,
  html: string,
  pageUrl: string,
  domain: string,
): PageStructure {
  const key = `${pageUrl}\u0000${domain}`;
  const known = cache.get(facts)?.get(key);
  if (known) return known;
  const jsonLdNodes = flattenJsonLd(facts.jsonLd);
  let detected: Detected;
  let nodes = jsonLdNodes;
  try {
    detected = facts.microdataItems || facts.rdfaItems
      ? extractPage(html, pageUrl, domain, facts).detected
      : detectFromPageFacts(facts, pageUrl);
    const others = [...detected.microdata, ...detected.rdfa];
    if (others.length) nodes = [...jsonLdNodes, ...itemsToNodes(others)];
  } catch {
    // The extraction must never cost the report: fall back to the JSON-LD.
    detected = { jsonLd: [], microdata: [], rdfa: [] };
  }
  const structure: PageStructure = {
    jsonLdNodes,
    nodes,
    detected,
    siteName: chooseSiteName(facts, nodes, domain),
  };
  const perUrl = cache.get(facts) ?? new Map<string, PageStructure>();
  perUrl.set(key, structure);
  cache.set(facts, perUrl);
  return structure;
}
