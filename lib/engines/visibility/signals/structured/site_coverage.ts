/** `structured.site_coverage`: the sampled pages carry structured data that validates. */
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import type { PageReport } from "../../audit/types.ts";
import {
  examples,
  pagesInWords,
  pointsFor,
  SAMPLE_HOW,
  sampledSite,
  share,
  templateCause,
} from "../../audit/site_view.ts";
import type { ScanContext } from "../../check.ts";
import { howText } from "../../fix_text.ts";
import { pageEditSteps } from "../../page_edits.ts";
import { homeUrl } from "../../site_identity.ts";
import { jsonLdFix, jsonLdSnippet } from "../../jsonld_fix.ts";
import { scriptFor } from "../../../structured/generator/checked_graph.ts";

/** The pages without structured data or with errors in it. */
interface Data {
  bad: PageReport[];
}

export const siteCoverage: SignalDef<Data> = {
  id: "structured.site_coverage",
  pillar: "structured",
  title: "Sampled pages carry valid structured data",
  points: 3,
  scope: "site",
  learn: {
    what:
      "Structured data (JSON-LD, microdata or RDFa) tells machines what each page is: an article, a product, a FAQ, an organisation.",
    why:
      "AI systems and search engines use it to understand and attribute pages; markup with errors is ignored or misread.",
    how:
      `${SAMPLE_HOW}, extract each page's structured data and validate it with the same validator as the Schema Markup Generator.`,
    sources: [SOURCES.structuredData],
  },
  check(ctx) {
    const site = sampledSite(ctx);
    if (!site) return null;
    const { read } = site;
    const none = read.filter((p) => p.structured === "none");
    const invalid = read.filter((p) => p.structured === "invalid");
    const status = !none.length && !invalid.length
      ? "pass"
      : none.length * 2 > read.length
      ? "fail"
      : "warn";
    const parts = [
      ...(none.length
        ? [`${share(none.length, read.length)} read carry no structured data: ${examples(none)}`]
        : []),
      ...(invalid.length
        ? [
          `${share(invalid.length, read.length)} carry structured data with errors: ${
            examples(invalid)
          }`,
        ]
        : []),
    ];
    return {
      status,
      detail: parts.length
        ? `${parts.join("; ")}.`
        : `All ${read.length} pages read carry structured data that validates.`,
      points: pointsFor(3, read.length - none.length - invalid.length / 2, read.length),
      evidence: [...none, ...invalid].map((p) => `${p.path}: ${p.structured}`),
      data: { bad: [...none, ...invalid] },
    };
  },
  fix(ctx, found) {
    // The home page's structured data is its JSON-LD graph: when it lacks some, this is one fix
    // with the home page's structured-data checks (the graph first, then the other pages').
    const all = found.data!.bad;
    const home = all.some((p) => p.type === "home");
    const pages = all.filter((p) => p.type !== "home");
    const why =
      "Structured data tells AI systems what each page is (an article, a product, a FAQ) and who stands behind it.";
    const steps = pages.length
      ? pageEditSteps(ctx, {
        urls: pages.map((p) => p.url),
        where: "head",
        code: (url) => pageNode(ctx, pages.find((p) => p.url === url)!),
        note: "taken from the page's own title and description; it passes our validator",
        template:
          "print a JSON-LD block of the page's type (Article, Product, WebPage...) filled from the page's own fields",
        check:
          "that each page carries one JSON-LD block of its type, which the Schema Markup Generator reads without an error.",
      })
      : [];
    if (home) {
      return {
        ...jsonLdFix(ctx, `Add valid structured data to ${pagesInWords(all)}`, why),
        how: howText(jsonLdSnippet(ctx), ...steps),
      };
    }
    return {
      what: `Add valid structured data to ${pagesInWords(pages)}`,
      why,
      how: howText(...steps),
      effort: "M",
      cause: templateCause(ctx, pages),
    };
  },
};

/** The node of a page's type from what it says (its title, description, heading), linked to the site. */
function pageNode(ctx: ScanContext, page: PageReport): string {
  const type = PAGE_NODE_TYPES[page.type] ?? "WebPage";
  const name = page.heading ?? page.title;
  const node: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": type,
    "@id": `${page.url}#webpage`,
    url: page.url,
    ...(type === "Article" ? { headline: name ?? undefined } : { name: name ?? undefined }),
    ...(page.description ? { description: page.description } : {}),
    isPartOf: { "@type": "WebSite", "@id": `${homeUrl(ctx)}#website`, url: homeUrl(ctx) },
  };
  return scriptFor(JSON.parse(JSON.stringify(node)));
}

/** The schema.org type each kind of page is (a product needs offers we cannot see: WebPage). */
const PAGE_NODE_TYPES: Partial<Record<PageReport["type"], string>> = {
  article: "Article",
  about: "AboutPage",
  contact: "ContactPage",
  docs: "TechArticle",
  listing: "CollectionPage",
};
