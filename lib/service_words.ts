/**
 * The words that differ between the two services, as data: what pages, exports, badges, the scan
 * form and the docs call each service's report and target. One table, keyed by service name, so a
 * module that only knows the name (the CLI's exports, the badge, the config) reads the same words
 * as one that holds the ServiceDef (`service.words`). No module branches on a service's name.
 */

/** The two services' names. */
export type ServiceName = "visibility" | "schema";

/** What one service calls its things. */
export interface ServiceWords {
  /** The service's name for people: "AI Visibility Checker". */
  title: string;
  /** The report's kind, as a page eyebrow and export title: "AI visibility report". */
  reportKind: string;
  /** The same in a file name: "ai-visibility". */
  fileKind: string;
  /** The badge's left-hand label: "AI visibility". */
  badgeLabel: string;
  /** The badge's alt text start: "AI visibility" (of example.com). */
  badgeAlt: string;
  /** The home page's description (meta and previews). */
  homeDescription: string;
  /** What the service does, as the other service's home page introduces it. */
  sisterPitch: string;
  /** The other service. */
  sister: ServiceName;
  /** An example target for the docs' curl lines. */
  exampleTarget: string;
  /** The jq filter the docs' polling loop prints the result with. */
  resultJq: string;
  /** The MCP server's name in client configurations: "ai-visibility". */
  mcpName: string;
  /** What `url` of POST /api/scan names, for the docs: "a domain or a URL". */
  targetWords: string;
  /** What a stored record holds, for the docs. */
  recordWords: string;
  /** The scan form's field texts. */
  form: { label: string; hint: string; placeholder: string; button: string };
}

/** Each service's words. */
export const SERVICE_WORDS: Record<ServiceName, ServiceWords> = {
  visibility: {
    title: "AI Visibility Checker",
    mcpName: "ai-visibility",
    targetWords: "a domain or a URL",
    recordWords:
      "The record holds the score (0-100), the grade (A-F) and its label, six pillars with every signal checked, the top issues in the order to fix them (each with what, why, how and effort), and the presence on Wikidata, Wikipedia and Common Crawl.",
    reportKind: "AI visibility report",
    fileKind: "ai-visibility",
    badgeLabel: "AI visibility",
    badgeAlt: "AI visibility",
    homeDescription:
      "Check how visible your site is to AI search and assistants: a score, the issues that matter and the exact fixes. Free, no account.",
    sisterPitch: "how visible a whole site is to AI search and assistants, with the fixes",
    sister: "schema",
    exampleTarget: "example.com",
    resultJq: "{score: .result.score, grade: .result.grade}",
    form: {
      label: "Website",
      hint: "A domain or a full address, e.g. example.com",
      placeholder: "example.com",
      button: "Check visibility",
    },
  },
  schema: {
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
    },
  },
};
