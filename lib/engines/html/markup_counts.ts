/**
 * Microdata and RDFa seen in a page's attributes during the SAX pass (lib/engines/html/page_facts.ts):
 * how many items of each, and the microdata types (capped at PAGE_CAPS.microdataTypes).
 */
import { PAGE_CAPS } from "./page_rules.ts";
import type { PageFacts } from "./types.ts";

/** Counts microdata items and types and RDFa items from elements' attributes. */
export class MarkupCounts {
  #microdataItems = 0;
  #rdfaItems = 0;
  readonly #microdataTypes = new Set<string>();

  /** Reads the markup attributes of one element. */
  scanAttributes(attribs: Record<string, string>): void {
    const itemtype = attribs.itemtype;
    if (attribs.itemscope !== undefined || itemtype !== undefined) this.#microdataItems++;
    if (itemtype !== undefined) {
      for (const type of itemtype.trim().split(/\s+/)) {
        if (type !== "" && this.#microdataTypes.size < PAGE_CAPS.microdataTypes) {
          this.#microdataTypes.add(type);
        }
      }
    }
    if (attribs.typeof !== undefined || attribs.vocab !== undefined) this.#rdfaItems++;
  }

  /** The PageFacts fields these counts fill. */
  fields(): Pick<PageFacts, "microdataItems" | "microdataTypes" | "rdfaItems"> {
    return {
      microdataItems: this.#microdataItems,
      microdataTypes: [...this.#microdataTypes],
      rdfaItems: this.#rdfaItems,
    };
  }
}
