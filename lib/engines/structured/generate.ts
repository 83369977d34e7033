/**
 * The markup a page should carry: one self-contained `@graph` in the style of Yoast's schema
 * graph: the site entity (Organization, LocalBusiness or Person) with its logo, the WebSite, the
 * WebPage (or the subtype the page declares), the page's primary entity (a type a Google feature
 * module names: Article, Product, Event, Recipe...), the BreadcrumbList and the images, linked by
 * stable absolute `@id`s (`<origin>/#organization`, `<page>#webpage`, `<page>#article`, ...).
 *
 * Rules (docs/schema.md, "The generated graph"):
 * - Only what the page supports: every value is the page's own (facts or existing markup) or
 *   derived from its URL; the site's name is the one corroborated choice (site_name.ts); several
 *   authors are several Persons; a node whose required data is missing is left out and `fillIn`
 *   says what to add by hand.
 * - Merged, not duplicated: an entity the page already declares (in any format) becomes the
 *   graph's node for that role, keeping its @id and values; one article node per page.
 * - Checked: nothing offered fails our own validator (generator/checked_graph.ts); every
 *   `{"@id"}` reference resolves inside the graph; no data-type nodes, no repeated values.
 *
 * New nodes are typed with `schema-dts`, so a misspelt property fails `deno check`.
 */
import type {
  BreadcrumbList,
  ImageObject,
  ListItem,
  Organization,
  Person,
  WebPage,
  WebSite,
} from "schema-dts";
import type { Detected } from "./extract.ts";
import { type CopyContext, knownTypes, mergeInto, unionStrings } from "./graph_tools.ts";
import type { DetectedItem, Facts, Generated } from "./record.ts";
import { asList, isReference, type JsonObject } from "./terms.ts";
import { anyIsA } from "./vocabulary.ts";
import { generatorPageTypes } from "./google/registry.ts";
import { finishGraph } from "./generator/checked_graph.ts";
import { articleNode, authorsAsPeople } from "./generator/article.ts";
import { productNode } from "./generator/product.ts";
import { repairTrail } from "./generator/breadcrumb.ts";
import { isFaqPage, questionNodes } from "./generator/faq.ts";
import {
  type Candidate,
  collectCandidates,
  logoOf,
  NOISE_TYPES,
  PRIMARY_TYPES,
} from "./generator/candidates.ts";
import {
  absolute,
  firstString,
  nameKey,
  type Obj,
  pageIdentity,
  stableId,
} from "./generator/values.ts";

export { scriptFor } from "./generator/checked_graph.ts";

/** What the generator reads. */
export interface GenerateInput {
  /** The page's final URL. */
  pageUrl: string;
  facts: Facts;
  detected: Detected;
}

/** Builds the graph, its script and what to fill in (see the module comment). */
export function generateGraph(input: GenerateInput): Generated {
  const { facts } = input;
  const home = new URL("/", input.pageUrl).href;
  const page = pageIdentity(input.pageUrl, facts.canonical);
  const isHome = new URL(page).pathname === "/" && !new URL(page).search;
  const ids = {
    org: `${home}#organization`,
    person: `${home}#person`,
    website: `${home}#website`,
    logo: `${home}#logo`,
    webpage: `${page}#webpage`,
    breadcrumb: `${page}#breadcrumb`,
    image: `${page}#primaryimage`,
  };
  const candidates = collectCandidates(input.detected);
  const ctx: CopyContext = { pageUrl: page, claimed: new Map(), idMap: new Map() };
  const fillIn: Generated["fillIn"] = [];
  const nodes: Generated["nodes"] = [];
  const graph: JsonObject[] = [];
  const usedItems = new Set<DetectedItem>();

  /** Assigns candidates to a role: their objects and ids now stand for `id`. */
  const claim = (list: Candidate[], id: string) => {
    for (const c of list) {
      ctx.claimed.set(c.data, id);
      if (c.id) ctx.idMap.set(c.id, id);
      if (!c.embedded) usedItems.add(c.item);
    }
  };
  /** Merges claimed candidates into a new node (their values win over the generated ones). */
  const build = (id: string, types: string[], generated: object, list: Candidate[]) => {
    const node: JsonObject = { "@type": types.length === 1 ? types[0] : types, "@id": id };
    for (const c of list) mergeInto(node, c.data, types, ctx);
    // A JSON round trip drops the undefined values of optional properties, at any depth.
    for (const [k, v] of Object.entries(JSON.parse(JSON.stringify(generated)) as JsonObject)) {
      if (k.startsWith("@")) continue;
      if (!(k in node)) node[k] = v;
      else if (k === "sameAs") node[k] = unionStrings(asList(node[k]), asList(v));
    }
    graph.push(node);
    nodes.push({ id, type: types[0], origin: list.length ? "merged" : "new" });
    return node;
  };

  /**
   * An ImageObject node for `url`, merged with the page's ImageObjects of that URL or @id (which
   * then become references to it). Returns its @id.
   */
  const imageRole = (defaultId: string, url: string, generated: ImageObject, ids: string[]) => {
    const list = candidates.filter((c) =>
      anyIsA(c.types, "ImageObject") && !ctx.claimed.has(c.data) &&
      ((c.id && (ids.includes(c.id) || c.id === defaultId)) ||
        [...asList(c.data.url), ...asList(c.data.contentUrl)].some((u) =>
          absolute(u, page) === url
        ))
    );
    const id = stableId(list.find((c) => stableId(c.id))?.id) ?? defaultId;
    claim(list, id);
    build(id, ["ImageObject"], generated, list);
    return id;
  };

  // --- The primary image (claimed first, so embedded copies of it become references).
  const imageUrl = facts.primaryImage?.url ?? null;
  const imageId = imageUrl
    ? imageRole(ids.image, imageUrl, {
      "@type": "ImageObject",
      url: imageUrl,
      contentUrl: imageUrl,
      width: facts.primaryImage?.width ? String(facts.primaryImage.width) : undefined,
      height: facts.primaryImage?.height ? String(facts.primaryImage.height) : undefined,
      caption: facts.primaryImage?.alt ?? undefined,
    }, [])
    : null;

  // --- The site entity: the publisher of the WebSite if the page says, else its organization.
  const websiteCands = candidates.filter((c) => c.types.includes("WebSite"));
  const publisherPerson = websiteCands.flatMap((w) => asList(w.data.publisher)).map((p) =>
    candidates.find((c) =>
      (isReference(p) ? c.id === p["@id"] : c.data === p) && anyIsA(c.types, "Person")
    )
  ).find(Boolean);
  let siteId: string | null = null;
  let entityName: string | null = null;
  if (publisherPerson) {
    const list = [publisherPerson];
    siteId = stableId(publisherPerson.id) ?? ids.person;
    claim(list, siteId);
    const person: Obj<Person> = {
      "@type": "Person",
      name: facts.siteName ?? undefined,
      url: home,
      sameAs: facts.socialProfiles,
    };
    build(siteId, knownTypes(publisherPerson.types), person, list);
  } else {
    const orgCands = candidates.filter((c) =>
      anyIsA(c.types, "Organization") &&
      (!c.embedded ||
        ["publisher", "provider", "copyrightHolder", "about", "sourceOrganization"].includes(
          c.parentProperty ?? "",
        ))
    );
    const first = orgCands.find((c) => !c.embedded) ?? orgCands[0];
    const name = (first && firstString(first.data.name)) ?? facts.siteName;
    const list = first
      ? orgCands.filter((c) =>
        c === first || (c.id && c.id === first.id) ||
        nameKey(firstString(c.data.name)) === nameKey(name)
      )
      : [];
    if (name) {
      entityName = name;
      siteId = stableId(first?.id) ?? ids.org;
      claim(list, siteId);
      const types = first ? knownTypes(first.types) : ["Organization"];
      const logoUrl = logoOf(list, ctx) ?? facts.logo;
      const logoRefs = list.flatMap((c) => asList(c.data.logo)).filter(isReference).map((r) =>
        r["@id"]
      );
      const logoId = logoUrl
        ? imageRole(ids.logo, logoUrl, {
          "@type": "ImageObject",
          url: logoUrl,
          contentUrl: logoUrl,
        }, logoRefs)
        : null;
      const local = anyIsA(types, "LocalBusiness") || isHome;
      const org: Obj<Organization> = {
        "@type": "Organization",
        name,
        url: home,
        logo: logoId ? { "@id": logoId } : undefined,
        sameAs: facts.socialProfiles.length ? facts.socialProfiles : undefined,
        telephone: facts.contact.telephones[0],
        email: facts.contact.emails[0],
        address: local && facts.address ? facts.address : undefined,
      };
      const node = build(siteId, types, org, list);
      if (logoId) node.logo = { "@id": logoId };
    } else {
      fillIn.push({
        path: "Organization.name",
        why:
          "The page states no name for who is behind the site (no og:site_name, no brand in the title, no Organization markup): add an Organization node with name, url and logo.",
      });
    }
  }

  // --- WebSite.
  // The site is named as the page names it, else after the organization behind it.
  const siteName = firstString(websiteCands[0]?.data.name) ?? facts.siteName ?? entityName;
  let websiteId: string | null = null;
  if (siteName) {
    websiteId = stableId(websiteCands.find((c) => stableId(c.id))?.id) ?? ids.website;
    claim(websiteCands, websiteId);
    const website: WebSite = {
      "@type": "WebSite",
      name: siteName,
      url: home,
      publisher: siteId ? { "@id": siteId } : undefined,
      inLanguage: facts.lang ?? undefined,
    };
    build(websiteId, ["WebSite"], website, websiteCands);
  } else {
    fillIn.push({
      path: "WebSite.name",
      why:
        "Add a WebSite node with the site's name and home page URL (the page states no site name).",
    });
  }

  // --- BreadcrumbList.
  const crumbCands = candidates.filter((c) => c.types.includes("BreadcrumbList")).slice(0, 1);
  let breadcrumbId: string | null = null;
  const trail = facts.breadcrumbs;
  const trailComplete = trail.length >= 2 && trail.slice(0, -1).every((b) => b.url);
  // The page's own trail, made whole from what the page states (or nothing when it has no entry).
  const repairedCrumb = crumbCands.length
    ? repairTrail(crumbCands[0].data, input.detected, trail, page)
    : null;
  const crumbUsable = !!repairedCrumb && "itemListElement" in repairedCrumb;
  if (crumbUsable || trailComplete) {
    const own = crumbUsable ? crumbCands : [];
    breadcrumbId = stableId(own[0]?.id) ?? ids.breadcrumb;
    claim(own, breadcrumbId);
    if (own.length) own.splice(0, 1, { ...own[0], data: repairedCrumb! });
    const list: BreadcrumbList = {
      "@type": "BreadcrumbList",
      itemListElement: trail.map((b, i): ListItem => ({
        "@type": "ListItem",
        position: i + 1,
        name: b.name,
        item: b.url ?? undefined,
      })),
    };
    build(breadcrumbId, ["BreadcrumbList"], trailComplete ? list : {}, own);
  } else if (!isHome) {
    fillIn.push({
      path: "BreadcrumbList",
      why: trail.length
        ? "The breadcrumb trail on the page has entries without links; give every entry but the last its URL, then add a BreadcrumbList."
        : "Show a breadcrumb trail (Home > section > this page) and mark it up as a BreadcrumbList.",
    });
  }

  // --- The primary entity.
  const primary =
    candidates.find((c) => anyIsA(c.types, "Product") || anyIsA(c.types, "Article")) ??
      candidates.find((c) =>
        PRIMARY_TYPES.some((t) => anyIsA(c.types, t)) && !ctx.claimed.has(c.data)
      );
  let primaryId: string | null = null;
  const pageCands = candidates.filter((c) => anyIsA(c.types, "WebPage") && !c.embedded).slice(0, 1);
  const webpageId = stableId(pageCands[0]?.id) ?? ids.webpage;
  const webpageRef = { "@id": webpageId };
  if (primary && !ctx.claimed.has(primary.data)) {
    const kind = PRIMARY_TYPES.find((t) => anyIsA(primary.types, t))!;
    primaryId = stableId(primary.id) ?? `${page}#${kind.toLowerCase()}`;
    // One article per page: every other article the page declares (in any format, as an item or
    // as a page's main entity) is the same article, merged into this node rather than kept as a
    // twin.
    const same = kind === "Article"
      ? candidates.filter((c) =>
        c !== primary && anyIsA(c.types, "Article") && !ctx.claimed.has(c.data) &&
        (!c.embedded || ["mainEntity", "mainEntityOfPage"].includes(c.parentProperty ?? ""))
      )
      : [];
    claim([primary, ...same], primaryId);
    const extra = kind === "Article"
      ? articleNode(
        facts,
        siteId,
        imageId,
        home,
        graph,
        nodes,
        [primary, ...same].some((c) => c.data.author !== undefined),
      )
      : kind === "Product"
      ? productNode(facts, page, imageId)
      : {};
    const node = build(primaryId, knownTypes(primary.types), extra ?? {}, [primary, ...same]);
    node.mainEntityOfPage ??= webpageRef;
    if (kind === "Article" && node.author !== undefined) {
      const people = authorsAsPeople(node.author);
      if (people === undefined) delete node.author;
      else node.author = people;
    }
  } else if (
    facts.article?.headline && !candidates.some((c) => anyIsA(c.types, "Article"))
  ) {
    // (An article the page declares but another role took is not doubled by a new one.)
    primaryId = `${page}#article`;
    build(
      primaryId,
      ["Article"],
      articleNode(facts, siteId, imageId, home, graph, nodes)!,
      [],
    );
    graph[graph.length - 1].mainEntityOfPage = webpageRef;
  } else if (facts.product?.name) {
    const product = productNode(facts, page, imageId);
    if (product) {
      primaryId = `${page}#product`;
      build(primaryId, ["Product"], product, []);
      graph[graph.length - 1].mainEntityOfPage = webpageRef;
    } else {
      fillIn.push({
        path: "Product.offers",
        why: `The page shows a product but not its price and currency together (found price ${
          facts.product.price ?? "none"
        }, currency ${
          facts.product.currency ?? "none"
        }); add an Offer with price, priceCurrency and availability, then the Product.`,
      });
    }
  }

  // --- WebPage (FAQPage when the page is a list of questions and nothing else is primary).
  const faq = !primaryId && !pageCands.length && generatorPageTypes().includes("FAQPage") &&
    isFaqPage(facts);
  claim(pageCands, webpageId);
  const questionIds = faq ? facts.faq.map((_, i) => `${page}#faq-${i + 1}`) : [];
  const webpage: WebPage = {
    "@type": "WebPage",
    url: page,
    name: facts.title ?? undefined,
    description: facts.description ?? undefined,
    isPartOf: websiteId ? { "@id": websiteId } : undefined,
    about: isHome && siteId ? { "@id": siteId } : undefined,
    primaryImageOfPage: imageId ? { "@id": imageId } : undefined,
    breadcrumb: breadcrumbId ? { "@id": breadcrumbId } : undefined,
    inLanguage: facts.lang ?? undefined,
    datePublished: facts.article?.datePublished ?? undefined,
    dateModified: facts.article?.dateModified ?? undefined,
    mainEntity: questionIds.length ? questionIds.map((id) => ({ "@id": id })) : undefined,
  };
  const pageTypes = pageCands.length
    ? knownTypes(pageCands[0].types)
    : faq
    ? ["FAQPage"]
    : ["WebPage"];
  build(webpageId, pageTypes.length ? pageTypes : ["WebPage"], webpage, pageCands);
  for (const q of questionNodes(facts, questionIds)) {
    graph.push(q);
    nodes.push({ id: q["@id"] as string, type: "Question", origin: "new" });
  }

  // --- Everything else the page declares, kept (with references to merged nodes redirected).
  let n = 0;
  const kept = candidates.filter((c) => !c.embedded && !usedItems.has(c.item))
    .map((c) => ({ c, types: knownTypes(c.types) }))
    .filter((k) => k.types.length && !k.types.some((t) => NOISE_TYPES.has(t)))
    .map((k) => ({
      ...k,
      id: stableId(k.c.id) ?? `${page}#/schema/${k.types[0].toLowerCase()}/${++n}`,
    }));
  for (const k of kept) if (k.c.id && k.c.id !== k.id) ctx.idMap.set(k.c.id, k.id);
  for (const { c, types, id } of kept) {
    const node: JsonObject = { "@type": types.length === 1 ? types[0] : types, "@id": id };
    mergeInto(node, c.data, types, ctx);
    graph.push(node);
    nodes.push({ id, type: types[0], origin: "kept" });
  }
  return finishGraph(graph, nodes, fillIn);
}
