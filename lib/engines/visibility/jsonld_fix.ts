/**
 * The JSON-LD fix that several structured-data signals share: the graph this site's home page
 * should carry, built by the Schema Markup Generator from what the page says.
 */
import { detectFromPageFacts } from "../structured/extract.ts";
import { buildFacts } from "../structured/facts.ts";
import { generateGraph } from "../structured/generate.ts";
import { ORGANIZATION_TYPES } from "../structured/page_graph.ts";
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { identityLinks, ownName } from "./same_as.ts";
import { homeUrl } from "./site_identity.ts";

/**
 * The JSON-LD graph this site's home page should carry, built by the Schema Markup Generator
 * (lib/engines/structured/generate.ts) from what the page says and merged with the JSON-LD it already has.
 * Values the page does not state are left out, and the note says what to add by hand.
 */
export function jsonLdSnippet(ctx: ScanContext): string {
  const cached = snippets.get(ctx);
  if (cached) return cached;
  const text = buildSnippet(ctx);
  snippets.set(ctx, text);
  return text;
}

/** Several signals share this fix: build it once per scan. */
const snippets = new WeakMap<ScanContext, string>();

function buildSnippet(ctx: ScanContext): string {
  const home = homeUrl(ctx);
  const base = buildFacts(ctx.facts, ctx.pageUrl, ctx.snapshot.target.domain);
  const generated = generateGraph({
    pageUrl: ctx.pageUrl,
    // The name the scan found for the site, and only identity links it can vouch for.
    facts: {
      ...base,
      siteName: ctx.siteName ?? base.siteName ?? ownName(ctx),
      socialProfiles: identityLinks(ctx).map((l) => l.url),
    },
    detected: detectFromPageFacts(ctx.facts, ctx.pageUrl),
  });
  const types = new Set(generated.nodes.map((n) => n.type));
  const hasEntity = [...types].some((t) => t === "Person" || isOrganizationType(t));
  const fillInGraph = [
    ...(hasEntity ? [] : [{
      "@type": "Organization",
      "@id": `${home}#organization`,
      name: "FILL-IN: your organisation's name",
      url: home,
    }]),
    ...(types.has("WebSite") ? [] : [{
      "@type": "WebSite",
      "@id": `${home}#website`,
      name: "FILL-IN: your site's name",
      url: home,
      ...(hasEntity ? {} : { publisher: { "@id": `${home}#organization` } }),
    }]),
  ];
  const fill = generated.fillIn
    .filter((f) => !(f.path === "Organization.name" && !hasEntity) && f.path !== "WebSite.name")
    .slice(0, 8).map((f) => `- ${f.path}: ${f.why.replace(/\.$/, "")}.`);
  const replaces = ctx.facts.jsonLd.length
    ? " It includes what your current JSON-LD says: replace those blocks with it."
    : "";
  return howText(
    `Paste into the <head> of ${home}; everything in it is taken from your page.${replaces}`,
    codeBlock(generated.script, "html"),
    fillInGraph.length > 0 &&
      `Your page states no name for ${
        hasEntity ? "the site" : "who is behind the site"
      }, so this part is yours to write: replace each FILL-IN, then paste it into the <head> too (the @id links it to the graph above).`,
    fillInGraph.length > 0 &&
      codeBlock(
        `<script type="application/ld+json">\n${
          JSON.stringify({ "@context": "https://schema.org", "@graph": fillInGraph }, null, 2)
        }\n</script>`,
        "html",
      ),
    fill.length > 0 && `Then add by hand what the page does not say:\n${fill.join("\n")}`,
  );
}

/** Whether a generated node type is an organisation (or a subtype the scan knows). */
function isOrganizationType(t: string): boolean {
  return (ORGANIZATION_TYPES as readonly string[]).includes(t);
}

/** A fix whose `how` is this site's JSON-LD graph ({@link jsonLdSnippet}). */
export function jsonLdFix(ctx: ScanContext, what: string, why: string): Fix {
  // One graph serves every structured-data check that asks for it: one change, one issue.
  const cause = {
    key: "home:json-ld",
    title: ctx.nodes.length
      ? "Complete the home page's JSON-LD graph"
      : "Add a JSON-LD graph describing your organisation, site and page",
  };
  return { what, why, how: jsonLdSnippet(ctx), effort: "S", cause };
}
