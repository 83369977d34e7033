/**
 * The Schema Markup Generator's ScanRecord, as a zod schema shared by the scanner (which parses
 * every record it returns) and the tests. The spec (api/schema.md) leaves its fields open;
 * docs/schema.md ("Using the service") documents them.
 */
import { z } from "zod";
import { RecordBudgetSchema } from "../../kit/limits/record_budget.ts";

/** Where an item was found. */
export const SourceSchema = z.enum(["json-ld", "microdata", "rdfa"]);
export type Source = z.infer<typeof SourceSchema>;

const Json = z.json();

/** The page that was scanned. */
export const PageSchema = z.object({
  /** The URL asked for (normalised: host lowercased, fragment dropped). */
  requestedUrl: z.string(),
  /** The URL after redirects; relative URLs on the page resolve against it. */
  finalUrl: z.string(),
  status: z.number().int(),
  contentType: z.string().nullable(),
  redirects: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** True when the body was cut at the size cap (items past the cut are not seen). */
  truncated: z.boolean(),
  fetchMs: z.number().nonnegative(),
});

/** A reference from one item to a node by `@id`. */
export const RefSchema = z.object({
  /** Property path inside the item, e.g. "author" or "offers[1].seller". */
  path: z.string(),
  /** The absolute `@id` referred to. */
  id: z.string(),
  /** The item that declares that `@id`, or null when nothing on the page does (a dangling ref). */
  target: z.object({ source: SourceSchema, index: z.number().int() }).nullable(),
});

/**
 * How one value of an item's `properties` reads as RDF: an IRI (it names a resource: a URL, an
 * `itemid`, an RDFa `href`/`resource`) or a literal (data), with the datatype and language the
 * markup gives (RDFa `datatype`/`lang`, `<time>` values typed by their form, JSON-LD numbers,
 * booleans and `@value` objects, microdata `lang`). Nested nodes are not listed: a node object
 * with an `@id` is that IRI, one without is a blank node.
 */
export const ValueTermSchema = z.object({
  /** Where the value is, as refs' paths are written: "name", "offers[1].price", "image[0]". */
  path: z.string(),
  kind: z.enum(["iri", "literal"]),
  /** The datatype's full IRI, e.g. "http://www.w3.org/2001/XMLSchema#date", when one is given. */
  datatype: z.string().optional(),
  /** The language tag, lowercased, when one is given. */
  language: z.string().optional(),
});
/** How one value of an item reads as RDF (see {@link ValueTermSchema}). */
export type ValueTerm = z.infer<typeof ValueTermSchema>;

/**
 * Where an item comes from in the merged view of the page (lib/engines/structured/merged_view.ts):
 * `server` (the server HTML, unchanged by scripts), `added` (only after scripts ran), `changed`
 * (scripts changed it: the rendered version), `removed` (scripts removed it: the server version).
 */
export const ItemOriginSchema = z.enum(["server", "added", "changed", "removed"]);
export type ItemOrigin = z.infer<typeof ItemOriginSchema>;

/**
 * Who reads an item: crawlers that render the page (Googlebot, Applebot) or those that read the
 * server HTML only (GPTBot, ClaudeBot, PerplexityBot; docs/rendering.md has the sources).
 */
export const ReaderSchema = z.enum(["rendering", "non-rendering"]);
export type Reader = z.infer<typeof ReaderSchema>;

/** One structured-data item found on the page. */
export const DetectedItemSchema = z.object({
  /** Position in its source's list (findings point here). */
  index: z.number().int().nonnegative(),
  source: SourceSchema,
  /** Absolute `@id` (JSON-LD), `itemid` (microdata) or `resource`/`about` (RDFa), or null. */
  id: z.string().nullable(),
  /** schema.org types by short name ("Product"); other vocabularies keep their full IRI. */
  types: z.array(z.string()),
  /**
   * Properties, schema.org prefixes removed, nested nodes embedded, references kept as
   * `{"@id": ...}` and listed in `refs`; microdata/RDFa values are strings, URLs made absolute.
   */
  properties: z.record(z.string(), Json),
  refs: z.array(RefSchema),
  /** Where on the page, e.g. "JSON-LD block 2, @graph[1]" or "microdata item 1 (<div>)". */
  location: z.string(),
  /**
   * Every scalar value of `properties` as RDF reads it (absent in records made before it
   * existed): literal or IRI, datatype, language.
   */
  terms: z.array(ValueTermSchema).optional(),
  /**
   * Additive: where the item comes from in the page's merged view (absent in records made before
   * it: the server HTML). A scan that did not render marks every item `server`.
   */
  origin: ItemOriginSchema.optional(),
  /** Additive: which readers see this version of the item (follows from `origin`). */
  seenBy: z.array(ReaderSchema).optional(),
});
/** One structured-data item found on the page (see {@link DetectedItemSchema}). */
export type DetectedItem = z.infer<typeof DetectedItemSchema>;

/** Page content the generator may use (every value is taken from the page). */
export const FactsSchema = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  canonical: z.string().nullable(),
  lang: z.string().nullable(),
  /** The name the site gives itself (markup, og:site_name, application-name, title's brand). */
  siteName: z.string().nullable(),
  ogType: z.string().nullable(),
  logo: z.string().nullable(),
  /** Content images (absolute URLs, at most 10). */
  images: z.array(z.string()),
  primaryImage: z.object({
    url: z.string(),
    width: z.number().int().positive().nullable(),
    height: z.number().int().positive().nullable(),
    alt: z.string().nullable(),
  }).nullable(),
  /** Links to the entity's profiles elsewhere (social networks, Wikipedia, Wikidata...). */
  socialProfiles: z.array(z.string()),
  contact: z.object({ telephones: z.array(z.string()), emails: z.array(z.string()) }),
  /** The text of the page's `<address>` element, or null. */
  address: z.string().nullable(),
  /** The breadcrumb trail shown on the page (nav[aria-label=breadcrumb], .breadcrumb). */
  breadcrumbs: z.array(z.object({ name: z.string(), url: z.string().nullable() })),
  /** Question-and-answer content: question headings and `<details>`/`<summary>`. */
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
  article: z.object({
    headline: z.string().nullable(),
    /** The first author (kept for older readers; `authors` lists them all). */
    author: z.string().nullable(),
    authorUrl: z.string().nullable(),
    /** Every author the byline names, "By " and similar prefixes stripped (absent in older records). */
    authors: z.array(z.object({ name: z.string(), url: z.string().nullable() })).optional(),
    datePublished: z.string().nullable(),
    dateModified: z.string().nullable(),
  }).nullable(),
  product: z.object({
    name: z.string().nullable(),
    price: z.string().nullable(),
    currency: z.string().nullable(),
    /** A schema.org ItemAvailability URL, e.g. "https://schema.org/InStock". */
    availability: z.string().nullable(),
    sku: z.string().nullable(),
    brand: z.string().nullable(),
  }).nullable(),
});
export type Facts = z.infer<typeof FactsSchema>;

/** A problem in the page's structured data, with how to fix it. */
export const FindingSchema = z.object({
  severity: z.enum(["error", "warning"]),
  source: SourceSchema,
  /** The item in detected[source], or null for a block that did not parse. */
  itemIndex: z.number().int().nullable(),
  /** Dotted path from the item's type, e.g. "Product.offers.price". */
  path: z.string(),
  /** The type of the node the finding is about (null when it has none). */
  type: z.string().nullable(),
  property: z.string().nullable(),
  /** What is wrong and how to fix it. */
  message: z.string(),
  /** "json-ld" (syntax), "schema.org" (vocabulary) or "google:<Feature>" (rich results). */
  rule: z.string(),
  /** The code the finding is about (JSON-LD only): a few lines, and the span to highlight. */
  excerpt: z.object({
    /** Which script: "JSON-LD block 2". */
    block: z.string(),
    /** The 1-based number of the first line shown. */
    firstLine: z.number().int().positive(),
    /** The lines shown (each at most 200 characters). */
    lines: z.array(z.string()).max(7),
    /** Where the highlighted span starts (1-based line and column) and how long it is. */
    line: z.number().int().positive(),
    column: z.number().int().positive(),
    length: z.number().int().nonnegative(),
  }).optional(),
  /**
   * How many more findings of this kind (severity, source, rule, type, property) there are
   * beyond this one, which is the last of its kind listed (lib/engines/structured/finding_log.ts).
   */
  more: z.number().int().positive().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** A finding's code excerpt. */
export type Excerpt = NonNullable<Finding["excerpt"]>;

/** Markup the page uses for a search feature that was retired or restricted. */
export const DeprecationSchema = z.object({
  feature: z.string(),
  type: z.string(),
  /** When Google changed it (YYYY-MM or YYYY-MM-DD). */
  since: z.string(),
  message: z.string(),
  source: SourceSchema,
  itemIndex: z.number().int(),
});
export type Deprecation = z.infer<typeof DeprecationSchema>;

/**
 * Whether one item can show one of Google's rich results, as the Rich Results Test says it:
 * "eligible", "eligible with warnings" (recommended properties missing) or "not eligible"
 * (a required property missing or invalid, or the feature retired), with the reasons.
 */
export const EligibilitySchema = z.object({
  source: SourceSchema,
  itemIndex: z.number().int(),
  /** The item's type, e.g. "Product". */
  type: z.string(),
  /** The feature's name in Google's gallery, e.g. "Product snippets" or "Merchant listing". */
  feature: z.string(),
  status: z.enum(["eligible", "eligible with warnings", "not eligible"]),
  /** For "not eligible": the errors (or the retirement); for warnings: what to add. */
  reasons: z.array(z.string()),
  /** Google's documentation of the feature. */
  docs: z.string().nullable(),
});
export type Eligibility = z.infer<typeof EligibilitySchema>;

/** One node of the generated graph and where its values came from. */
export const GeneratedNodeSchema = z.object({
  id: z.string(),
  type: z.string(),
  /** "new": built from page content; "merged": an item the page declares, completed. */
  origin: z.enum(["new", "merged", "kept"]),
});

/** The markup the page should carry. */
export const GeneratedSchema = z.object({
  /** `{"@context": "https://schema.org", "@graph": [...]}`. */
  graph: z.object({
    "@context": z.literal("https://schema.org"),
    "@graph": z.array(z.record(z.string(), Json)),
  }),
  /** The ready-to-paste `<script type="application/ld+json">` element. */
  script: z.string(),
  nodes: z.array(GeneratedNodeSchema),
  /** What the owner should add by hand (the page does not state it). */
  fillIn: z.array(z.object({ path: z.string(), why: z.string() })),
});
export type Generated = z.infer<typeof GeneratedSchema>;

/** Counts for a summary line. */
export const SummarySchema = z.object({
  items: z.number().int().nonnegative(),
  types: z.array(z.string()),
  errors: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
  deprecated: z.number().int().nonnegative(),
  generatedNodes: z.number().int().nonnegative(),
  fillIn: z.number().int().nonnegative(),
  /** Items eligible for at least one rich result (absent in older records). */
  eligible: z.number().int().nonnegative().optional(),
});

/**
 * What rendering found (lib/engines/render/structured_render.ts, docs/rendering.md): the items
 * only the rendered DOM holds, with their findings and eligibility, as the merged view
 * (`Result.detected`, `Result.view`) lists them. Only when the scan asked to render.
 */
export const RenderedStructuredSchema = z.object({
  /** rendered: compared; unavailable: no browser; failed: the render did not complete. */
  status: z.enum(["rendered", "unavailable", "failed"]),
  reason: z.string().nullable(),
  browser: z.string().nullable(),
  /** Items only the rendered DOM holds; `index` is the item's place in `Result.detected`. */
  added: z.object({
    jsonLd: z.array(DetectedItemSchema),
    microdata: z.array(DetectedItemSchema),
    rdfa: z.array(DetectedItemSchema),
  }),
  /** Findings about the added items (itemIndex as in `added`'s `index`). */
  findings: z.array(FindingSchema),
  eligibility: z.array(EligibilitySchema),
  /** Items of the server HTML the rendered DOM no longer holds (scripts removed them). */
  removed: z.number().int().nonnegative(),
  /** Additive: items scripts changed (the view lists their rendered version). */
  changed: z.number().int().nonnegative().optional(),
  /** What it means and what to do, in plain words. */
  note: z.string(),
});
export type RenderedStructured = z.infer<typeof RenderedStructuredSchema>;

/** A crawler and whether it renders pages, with the source that says so (docs/rendering.md). */
export const CrawlerReaderSchema = z.object({
  token: z.string(),
  renders: z.boolean(),
  source: z.string(),
  checked: z.string(),
});

/**
 * The page as its readers get it (lib/engines/structured/merged_view.ts): whether the items are the merged
 * view of the server HTML and the rendered DOM or the server HTML's alone, how many items of each
 * origin, how many each kind of reader sees, and what the server HTML shows of client rendering.
 */
export const PageViewSchema = z.object({
  /** True: the items are the merged view; false: the server HTML's alone. */
  rendered: z.boolean(),
  /** Why the page was not rendered (not asked, no browser, the render failed); null when it was. */
  reason: z.string().nullable(),
  /** What the server HTML shows (lib/engines/html/client_rendering_signs.ts). */
  serverHtml: z.object({
    kind: z.enum(["shell", "thin", "text"]),
    words: z.number().int().nonnegative(),
    signs: z.array(z.string()),
  }),
  /** Items of each origin in the view. */
  origins: z.object({
    server: z.number().int().nonnegative(),
    added: z.number().int().nonnegative(),
    changed: z.number().int().nonnegative(),
    removed: z.number().int().nonnegative(),
  }),
  /** Items readers that render see, and readers that read the server HTML only. */
  seen: z.object({
    rendering: z.number().int().nonnegative(),
    nonRendering: z.number().int().nonnegative(),
  }),
  /** What the view means for the summary, in plain words (how to get the rendered view...). */
  note: z.string().nullable(),
  /** Which crawlers render, as far as their vendors or a measurement say (docs/rendering.md). */
  readers: z.array(CrawlerReaderSchema),
});
export type PageView = z.infer<typeof PageViewSchema>;

/** A successful scan's result. */
export const ResultSchema = z.object({
  page: PageSchema,
  detected: z.object({
    jsonLd: z.array(DetectedItemSchema),
    microdata: z.array(DetectedItemSchema),
    rdfa: z.array(DetectedItemSchema),
  }),
  facts: FactsSchema,
  findings: z.array(FindingSchema),
  deprecated: z.array(DeprecationSchema),
  /** Rich-result eligibility per item and feature (absent in records made before it existed). */
  eligibility: z.array(EligibilitySchema).optional(),
  generated: GeneratedSchema,
  summary: SummarySchema,
  /** Additive: what scripts add, when the scan asked to render (docs/rendering.md). */
  rendered: RenderedStructuredSchema.optional(),
  /**
   * Additive: the one view of the page every other field is computed from (absent in records made
   * before it): `detected` holds the merged items, each with its `origin` and `seenBy`.
   */
  view: PageViewSchema.optional(),
});
export type Result = z.infer<typeof ResultSchema>;

/** The Schema Markup Generator's ScanRecord. */
export const SchemaScanRecordSchema = z.object({
  /** The record key (see lib/kit/net/target.ts). */
  domain: z.string(),
  /** The page asked for; the record of a domain is the last page scanned on it. */
  url: z.string(),
  status: z.enum(["ok", "failed"]),
  scannedAt: z.iso.datetime(),
  result: ResultSchema.nullable(),
  /** Set when the record was over its size budget and summarised (lib/kit/limits/record_budget.ts). */
  budget: RecordBudgetSchema.optional(),
});
export type SchemaScanRecord = z.infer<typeof SchemaScanRecordSchema>;
