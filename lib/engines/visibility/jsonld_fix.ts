/**
 * The JSON-LD fix that every structured-data signal of the home page shares: the one graph this
 * site's home page should carry, built by the Schema Markup Generator from what the page says
 * (a rendered scan's DOM included) and completed so that pasting it once makes every one of those
 * checks pass: who is behind the site with a name, url and logo, its profiles in `sameAs`, the
 * WebSite, and the page itself. What the page does not state is a FILL-IN value inside the node it
 * completes (a second block cannot complete a node: readers do not merge nodes across blocks), and
 * the step before the code names each one.
 */
import { detectFromPageFacts } from "../structured/extract.ts";
import { buildFacts } from "../structured/facts.ts";
import { generateGraph } from "../structured/generate.ts";
import { scriptFor } from "../structured/generator/checked_graph.ts";
import { ORGANIZATION_TYPES, stringValues } from "../structured/page_graph.ts";
import type { JsonObject } from "../structured/terms.ts";
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { pasteInHead } from "./fix_steps.ts";
import { identityLinks, ownName, SAME_AS_FILL_IN } from "./same_as.ts";
import { homeUrl } from "./site_identity.ts";
import { pageSays } from "./page_says.ts";

/** The FILL-IN values of the graph (what the owner writes before pasting). */
export const GRAPH_FILL_IN = {
  name: "FILL-IN: your organisation's name",
  siteName: "FILL-IN: your site's name",
  logo: "FILL-IN: https URL of your logo, at least 112 pixels wide",
} as const;

/**
 * The JSON-LD graph this site's home page should carry, as the `how` of a fix: where to paste it,
 * the graph, and what to write where the page said nothing (built once per scan).
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

function isOrganization(types: readonly string[]): boolean {
  return types.some((t) => (ORGANIZATION_TYPES as readonly string[]).includes(t));
}

function typesOf(node: JsonObject): string[] {
  const t = node["@type"];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === "string");
}

function buildSnippet(ctx: ScanContext): string {
  const home = homeUrl(ctx);
  const said = pageSays(ctx);
  const base = buildFacts(ctx.facts, ctx.pageUrl, ctx.snapshot.target.domain);
  const links = identityLinks(ctx);
  const generated = generateGraph({
    pageUrl: ctx.pageUrl,
    // The name the scan found for the site (or the rendered page states), its description, and
    // only identity links it can vouch for.
    facts: {
      ...base,
      siteName: said.name ?? base.siteName ?? ownName(ctx),
      description: base.description ?? said.description,
      title: base.title ?? said.title,
      socialProfiles: links.map((l) => l.url),
    },
    detected: detectFromPageFacts(ctx.facts, ctx.pageUrl),
  });
  const graph = generated.graph["@graph"].map((n) => ({ ...n })) as JsonObject[];
  const fills: string[] = [];
  // Who is behind the site: the generator's entity, or a node for the owner to name.
  let entity = graph.find((n) => isOrganization(typesOf(n)) || typesOf(n).includes("Person"));
  if (!entity) {
    entity = {
      "@type": "Organization",
      "@id": `${home}#organization`,
      name: GRAPH_FILL_IN.name,
      url: home,
    };
    graph.unshift(entity);
    fills.push("the name of who is behind the site");
    for (const n of graph) {
      const t = typesOf(n);
      if (t.includes("WebSite") && !n.publisher) n.publisher = { "@id": entity["@id"] as string };
      if (t.some((x) => x === "WebPage" || x.endsWith("Page")) && !n.about) {
        n.about = { "@id": entity["@id"] as string };
      }
    }
  }
  if (!stringValues(entity.url).length) entity.url = home;
  const person = typesOf(entity).includes("Person");
  if (!person && !stringValues(entity.logo).length && !graphHasLogo(graph, entity)) {
    entity.logo = GRAPH_FILL_IN.logo;
    fills.push("your logo's address");
  }
  // Two profiles or more tie the entity to itself elsewhere (the sameAs check counts them).
  const sameAs = stringValues(entity.sameAs);
  const templates = SAME_AS_FILL_IN.slice(0, Math.max(0, 2 - sameAs.length));
  if (templates.length) {
    entity.sameAs = [...sameAs, ...templates];
    fills.push(
      "in sameAs, the addresses of your own official profiles, two or more (your Wikidata item, LinkedIn page, ...)",
    );
  }
  if (!graph.some((n) => typesOf(n).includes("WebSite"))) {
    const name = said.name ?? ownName(ctx);
    graph.splice(1, 0, {
      "@type": "WebSite",
      "@id": `${home}#website`,
      name: name ?? GRAPH_FILL_IN.siteName,
      url: home,
      publisher: { "@id": entity["@id"] as string },
    });
    if (!name) fills.push("your site's name");
  }
  const script = scriptFor({ "@context": "https://schema.org", "@graph": graph });
  const replaces = ctx.facts.jsonLd.length
    ? " It includes what your current JSON-LD says: replace those blocks with it."
    : "";
  const from = links.length
    ? ` The sameAs links are profiles your page ${
      links.some((l) => l.source === "rel-me")
        ? 'marks with rel="me"'
        : links.some((l) => l.source === "markup")
        ? "already lists in its markup"
        : "links to under your brand or domain name"
    }.`
    : "";
  const byHand = generated.fillIn
    .filter((f) => f.path !== "Organization.name" && f.path !== "WebSite.name")
    .slice(0, 8).map((f) => `- ${f.path}: ${f.why.replace(/\.$/, "")}.`);
  return howText(
    pasteInHead(
      [ctx.pageUrl],
      `; everything in it is taken from your page${
        fills.length
          ? `, except the FILL-IN values only you can write, which you replace before you publish: ${
            fills.join("; ")
          }`
          : ""
      }.${replaces}${from}`,
    ),
    codeBlock(script, "html"),
    byHand.length > 0 &&
      `The page does not say these, so the graph leaves them out:\n${byHand.join("\n")}`,
  );
}

/** Whether the graph already gives the entity a logo through another node (an ImageObject). */
function graphHasLogo(graph: JsonObject[], entity: JsonObject): boolean {
  const ref = entity.logo as { "@id"?: string } | undefined;
  return !!ref?.["@id"] && graph.some((n) => n["@id"] === ref["@id"]);
}

/** The cause every fix of the home page's graph shares: one change, one issue. */
export function jsonLdCause(ctx: ScanContext): { key: string; title: string } {
  return {
    key: "home:json-ld",
    title: ctx.nodes.length
      ? "Complete the home page's JSON-LD graph"
      : "Add a JSON-LD graph describing your organisation, site and page",
  };
}

/** A fix whose `how` is this site's JSON-LD graph ({@link jsonLdSnippet}). */
export function jsonLdFix(ctx: ScanContext, what: string, why: string): Fix {
  return { what, why, how: jsonLdSnippet(ctx), effort: "S", cause: jsonLdCause(ctx) };
}
