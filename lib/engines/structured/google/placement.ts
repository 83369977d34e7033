/**
 * Where on a page Google reads a node for a feature: stand-alone, top-level (a page's main
 * entity), an entry of a list, a product of its own, the site's home page. The feature modules
 * say where their rules apply with these.
 */
import { anyIsA } from "../vocabulary.ts";
import type { RuleNode } from "./rule_kit.ts";
import { valuesAt } from "./rule_kit.ts";

/** A node that is an item of its own (nothing embeds or refers to it). */
export const isStandalone = (n: RuleNode) => n.parentTypes.length === 0;

/** A node Google reads as an item of its own: stand-alone, or the main entity of a page or list. */
export const isTopLevel = (n: RuleNode) =>
  isStandalone(n) ||
  ["mainEntity", "about", "mainEntityOfPage", "hasPart"].includes(n.parentProperty ?? "");

/** A node that is an entry of a list (a carousel's entries follow the carousel's own rules). */
export const isListEntry = (n: RuleNode) =>
  ["itemListElement", "item"].includes(n.parentProperty ?? "");

/** Where Google reads a Product for product results: top-level, or a ProductGroup's variant. */
export const isProductPlace = (n: RuleNode) => isTopLevel(n) || n.parentProperty === "hasVariant";

/** A node whose parent is a Product (its offer, for instance). */
export const isProductParent = (n: RuleNode) => anyIsA(n.parentTypes, "Product");

/** A node with at least one offer. */
export const hasOffers = (n: RuleNode) => valuesAt(n, "offers").length > 0;

/** Whether the page is a site's home page (site-name markup belongs there). */
export function isHomePage(pageUrl: string | null | undefined): boolean {
  if (!pageUrl) return false;
  try {
    const u = new URL(pageUrl);
    return /^\/(?:index\.(?:html?|php|aspx?))?$/i.test(u.pathname) && !u.search;
  } catch {
    return false;
  }
}
