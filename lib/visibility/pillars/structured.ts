/**
 * Pillar "Structured data": does the page say in schema.org JSON-LD who is behind it, what the
 * site is and what the page is about, in a graph AI systems can link to other sources?
 */
import { allNodes, type Check, type PillarDef, type ScanContext, scored } from "../check.ts";
import { jsonLdSnippet, sameAsHow } from "../fixes.ts";
import { codeBlock, howText } from "../fix_text.ts";
import {
  nodesOfType,
  ORGANIZATION_TYPES,
  PAGE_TYPES,
  stringValues,
} from "../../structured/page_graph.ts";

export const structuredPillar: PillarDef = {
  id: "structured",
  title: "Structured data",
  weight: 15,
  checks: (
    ctx,
  ) => [present(ctx), organization(ctx), website(ctx), pageType(ctx), sameAs(ctx), breadcrumb(ctx)],
};

function jsonLdFix(ctx: ScanContext, what: string, why: string) {
  return { what, why, how: jsonLdSnippet(ctx), effort: "S" as const };
}

function present(ctx: ScanContext): Check {
  const blocks = ctx.facts.jsonLd;
  const broken = blocks.filter((b) => b.error !== null);
  const title = "JSON-LD structured data present and valid";
  const evidence = [
    `${blocks.length} JSON-LD blocks, ${broken.length} invalid`,
    `${ctx.nodes.length} typed nodes: ${
      [...new Set(ctx.nodes.flatMap((n) => n.types))].slice(0, 12).join(", ")
    }`,
    ...(ctx.facts.microdataItems ? [`${ctx.facts.microdataItems} microdata items`] : []),
    ...(ctx.facts.rdfaItems ? [`${ctx.facts.rdfaItems} RDFa items`] : []),
    ...broken.slice(0, 3).map((b) => `invalid JSON-LD: ${b.error}`),
  ];
  if (ctx.nodes.length && !broken.length) {
    return scored(
      "structured.jsonld",
      title,
      4,
      "pass",
      `${ctx.nodes.length} schema.org nodes found in JSON-LD.`,
      {
        evidence,
      },
    );
  }
  if (ctx.nodes.length) {
    return scored(
      "structured.jsonld",
      title,
      4,
      "warn",
      `${broken.length} of ${blocks.length} JSON-LD blocks are not valid JSON and are ignored by every consumer.`,
      {
        evidence,
        fix: {
          what: "Repair the invalid JSON-LD blocks",
          why:
            "A block with a JSON syntax error is dropped whole by search engines and AI crawlers.",
          how: `Fix the JSON syntax of the broken block (${
            broken[0].error
          }), then check it with https://validator.schema.org/ before publishing. Common causes: trailing commas, unescaped quotes in text, template variables left empty.`,
          effort: "S",
        },
      },
    );
  }
  const other = ctx.facts.microdataItems + ctx.facts.rdfaItems;
  return scored(
    "structured.jsonld",
    title,
    4,
    "fail",
    broken.length
      ? "The page's only JSON-LD is invalid JSON, so it carries no structured data."
      : other
      ? "The page uses microdata/RDFa but no JSON-LD, the format AI crawlers and Google parse most reliably."
      : "The page has no structured data: AI systems must guess who you are and what the page is.",
    {
      points: other ? 1 : 0,
      evidence,
      fix: jsonLdFix(
        ctx,
        "Add a JSON-LD graph describing your organisation, site and page",
        "Structured data states facts (name, logo, profiles, what the page is) that AI systems otherwise infer, and often get wrong.",
      ),
    },
  );
}

function organization(ctx: ScanContext): Check {
  const orgs = nodesOfType(allNodes(ctx), [...ORGANIZATION_TYPES, "Person"]);
  const title = "Organization (or Person) described";
  if (!orgs.length) {
    return scored(
      "structured.organization",
      title,
      4,
      "fail",
      "No Organization, LocalBusiness or Person node says who is behind the site.",
      {
        fix: jsonLdFix(
          ctx,
          "Describe your organisation in JSON-LD",
          "The Organization node is how AI systems tie your site to the entity they know (name, logo, profiles).",
        ),
      },
    );
  }
  const org = orgs[0].data;
  const missing = ["name", "url", ...(orgs[0].types.includes("Person") ? [] : ["logo"])]
    .filter((k) => !stringValues(org[k]).length);
  return scored(
    "structured.organization",
    title,
    4,
    missing.length ? "warn" : "pass",
    missing.length
      ? `${orgs[0].types.join("/")} node lacks ${missing.join(", ")}.`
      : `${orgs[0].types.join("/")} "${stringValues(org.name)[0]}" with url and logo.`,
    {
      points: 4 - missing.length,
      evidence: [`types: ${orgs[0].types.join(", ")}`],
      fix: jsonLdFix(
        ctx,
        `Complete the ${orgs[0].types[0]} node (${missing.join(", ")})`,
        "name, url and logo are what Google and AI systems need to show and recognise the entity.",
      ),
    },
  );
}

function website(ctx: ScanContext): Check {
  const sites = nodesOfType(allNodes(ctx), ["WebSite"]);
  const ok = sites.some((s) => stringValues(s.data.name).length && stringValues(s.data.url).length);
  return scored(
    "structured.website",
    "WebSite node",
    2,
    ok ? "pass" : sites.length ? "warn" : "fail",
    ok
      ? "A WebSite node names the site."
      : sites.length
      ? "The WebSite node lacks name or url."
      : "No WebSite node names the site.",
    {
      fix: jsonLdFix(
        ctx,
        "Add a WebSite node",
        "WebSite gives the site's canonical name, which AI systems and Google show as the source name.",
      ),
    },
  );
}

function pageType(ctx: ScanContext): Check {
  const pages = nodesOfType(allNodes(ctx), PAGE_TYPES);
  return scored(
    "structured.page_type",
    "The page's own type is stated",
    2,
    pages.length ? "pass" : "fail",
    pages.length
      ? `The page is described as ${[...new Set(pages.flatMap((p) => p.types))].join(", ")}.`
      : "No WebPage, Article, Product, FAQPage or similar node says what this page is.",
    {
      fix: jsonLdFix(
        ctx,
        "Describe the page itself (WebPage, Article, Product, ...)",
        "The page type tells AI systems what kind of answer the page can support.",
      ),
    },
  );
}

function sameAs(ctx: ScanContext): Check {
  const orgs = nodesOfType(allNodes(ctx), [...ORGANIZATION_TYPES, "Person"]);
  const links = orgs.flatMap((o) => stringValues(o.data.sameAs));
  const status = links.length >= 2 ? "pass" : links.length === 1 ? "warn" : "fail";
  return scored(
    "structured.same_as",
    "sameAs links to the entity's profiles",
    3,
    status,
    links.length
      ? `sameAs lists ${links.length} profile${links.length > 1 ? "s" : ""}.`
      : "No sameAs links tie the organisation to its profiles (Wikidata, Wikipedia, LinkedIn, social).",
    {
      evidence: links.slice(0, 8),
      fix: {
        what: "List your official profiles in sameAs",
        why:
          "sameAs is how AI systems connect your site to the same entity on Wikidata, Wikipedia and social networks, which raises confidence in citing you.",
        how: sameAsHow(ctx),
        effort: "S",
      },
    },
  );
}

function breadcrumb(ctx: ScanContext): Check {
  const crumbs = nodesOfType(allNodes(ctx), ["BreadcrumbList"]);
  return scored(
    "structured.breadcrumb",
    "BreadcrumbList",
    1,
    crumbs.length ? "pass" : "warn",
    crumbs.length ? "A BreadcrumbList places the page in the site." : "No BreadcrumbList.",
    {
      impact: "low",
      fix: {
        what: "Add a BreadcrumbList",
        why: "Breadcrumbs show where a page sits in the site; they matter most on inner pages.",
        how: howText(
          "Add this node to the page's JSON-LD graph, with one ListItem per level from the home page down to this page:",
          codeBlock(
            JSON.stringify(
              {
                "@type": "BreadcrumbList",
                "@id": `${ctx.pageUrl}#breadcrumb`,
                itemListElement: [{
                  "@type": "ListItem",
                  position: 1,
                  name: "Home",
                  item: new URL("/", ctx.pageUrl).href,
                }],
              },
              null,
              2,
            ),
            "json",
          ),
        ),
        effort: "S",
      },
    },
  );
}
