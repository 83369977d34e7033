/** What the Schema Markup Generator calls its things (lib/service.ts ServiceWords). */
import type { ServiceWords } from "../../service.ts";

/** The schema service's words. */
export const SCHEMA_WORDS: ServiceWords = {
  title: "Schema Markup Generator",
  mcpName: "schema-markup",
  targetWords: "the page",
  recordWords:
    "The record holds the page that was read, every structured-data item found (JSON-LD, microdata, RDFa), the findings with severity and path, and the generated JSON-LD ready to paste.",
  reportKind: "Structured data report",
  fileKind: "structured-data",
  badgeLabel: "schema markup",
  badgeAlt: "Schema markup",
  homeDescription:
    "Check a page's structured data: what schema.org markup it has, what is wrong with it, and JSON-LD ready to paste. Free, no account.",
  sisterPitch: "a page's structured data, what is wrong with it, and JSON-LD ready to paste",
  sister: "visibility",
  exampleTarget: "https://example.com/products/kettle",
  resultJq: ".result.summary",
  form: {
    label: "Page address",
    hint: "A page of your site, e.g. example.com/products/blue-kettle",
    placeholder: "example.com/page",
    button: "Check markup",
    render:
      "Render the page in a browser, as Google does: the structured data scripts add, change or remove (slower)",
  },
};
