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
  fix(_ctx, found) {
    const bad = found.data!.bad;
    return {
      what: `Add valid structured data to ${pagesInWords(bad)}`,
      why:
        "Structured data tells AI systems what each page is (an article, a product, a FAQ) and who stands behind it.",
      how:
        `Add a JSON-LD block of the page's type (Article, Product, WebPage...) to the template of ${
          pagesInWords(bad)
        }, filled from the page's own fields, and check it with the Schema Markup Generator's validator (POST /api/validate) before deploying.`,
      effort: "M",
      cause: templateCause(bad),
    };
  },
};
