/** `structured.jsonld`: the home page carries schema.org JSON-LD that parses. */
import type { SignalDef } from "../../signal.ts";
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import { SOURCES } from "../../sources.ts";
import { jsonLdFix } from "../../jsonld_fix.ts";

/** The first broken block's error, for the repair fix. */
interface Data {
  repair: string | null;
}

export const jsonLd: SignalDef<Data> = {
  id: "structured.jsonld",
  pillar: "structured",
  title: "JSON-LD structured data present and valid",
  points: 4,
  scope: "page",
  learn: {
    what:
      'JSON-LD is a block of machine-readable facts in the page (`<script type="application/ld+json">`) that says, with schema.org words, who you are and what the page is.',
    why:
      "It lets search engines and AI systems understand the page without guessing. Google recommends JSON-LD for structured data.",
    how: "We find every JSON-LD block on the home page and check that it parses.",
    sources: [SOURCES.structuredData],
  },
  check(ctx) {
    const blocks = ctx.facts.jsonLd;
    const broken = blocks.filter((b) => b.error !== null);
    const evidence = [
      `${blocks.length} JSON-LD blocks, ${broken.length} invalid`,
      // "3 typed nodes: Organization, WebSite, WebPage"; no list to follow "0 typed nodes".
      ctx.nodes.length
        ? `${ctx.nodes.length} typed nodes: ${
          [...new Set(ctx.nodes.flatMap((n) => n.types))].slice(0, 12).join(", ")
        }`
        : "0 typed nodes",
      ...(ctx.facts.microdataItems ? [`${ctx.facts.microdataItems} microdata items`] : []),
      ...(ctx.facts.rdfaItems ? [`${ctx.facts.rdfaItems} RDFa items`] : []),
      ...broken.slice(0, 3).map((b) => `invalid JSON-LD: ${b.error}`),
    ];
    if (ctx.nodes.length && !broken.length) {
      return {
        status: "pass",
        detail: `${ctx.nodes.length} schema.org nodes found in JSON-LD.`,
        evidence,
      };
    }
    if (ctx.nodes.length) {
      return {
        status: "warn",
        detail:
          `${broken.length} of ${blocks.length} JSON-LD blocks are not valid JSON and are ignored by every consumer.`,
        evidence,
        data: { repair: broken[0].error },
      };
    }
    const other = ctx.facts.microdataItems + ctx.facts.rdfaItems;
    return {
      status: "fail",
      detail: broken.length
        ? "The page's only JSON-LD is invalid JSON, so it carries no structured data."
        : other
        ? "The page uses microdata/RDFa but no JSON-LD, the format AI crawlers and Google parse most reliably."
        : "The page has no structured data: AI systems must guess who you are and what the page is.",
      points: other ? 1 : 0,
      evidence,
      data: { repair: null },
    };
  },
  fix(ctx, found) {
    const repair = found.data?.repair;
    if (repair !== undefined && repair !== null) {
      return {
        what: "Repair the invalid JSON-LD blocks",
        why: "A block with a JSON syntax error is dropped whole by search engines and AI crawlers.",
        how: howText(
          byHand(
            `fix the JSON syntax of the broken block (${repair}). Common causes: trailing commas, unescaped quotes in text, template variables left empty.`,
          ),
          checkAfterwards(
            "that https://validator.schema.org/ reads every JSON-LD block of the page without a syntax error.",
          ),
        ),
        effort: "S",
      };
    }
    return jsonLdFix(
      ctx,
      "Add a JSON-LD graph describing your organisation, site and page",
      "Structured data states facts (name, logo, profiles, what the page is) that AI systems otherwise infer, and often get wrong.",
    );
  },
};
