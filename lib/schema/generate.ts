/**
 * The markup a page should carry: one self-contained `@graph` in the style of Yoast's schema
 * graph. The site entity (Organization, LocalBusiness or Person) with its logo, the WebSite, the
 * WebPage (or the subtype the page declares), the page's primary entity (Article, Product, or
 * the Event/Recipe/VideoObject/... the page declares), the BreadcrumbList and the images, linked
 * by stable absolute `@id`s: `<origin>/#organization`, `<origin>/#website`, `<origin>/#logo`,
 * `<page>#webpage`, `<page>#breadcrumb`, `<page>#primaryimage`, `<page>#article`, ...
 *
 * Rules:
 * - No invented values: every value is the page's own (facts or existing markup) or derived from
 *   its URL (@ids, url). A node whose required data is missing is left out, and `fillIn` says
 *   what to add by hand (plus what Google's rules still miss in the generated graph).
 * - Merged, not duplicated: an entity the page already declares (in JSON-LD, microdata or RDFa,
 *   top-level or embedded) becomes the graph's node for that role, keeping its @id and values and
 *   gaining what the page states elsewhere; other declared items are kept as they are. The script
 *   replaces the page's existing JSON-LD.
 * - Closed: every `{"@id"}` reference resolves inside the graph (dangling ones are removed and
 *   listed in `fillIn`).
 *
 * New nodes are typed with `schema-dts`, so a misspelt property fails `deno check`.
 */
import type {
  Answer,
  Article,
  BreadcrumbList,
  ImageObject,
  ListItem,
  Offer,
  Organization,
  Person,
  Product,
  Question,
  WebPage,
  WebSite,
} from "schema-dts";
import { allItems, type Detected } from "./extract.ts";
import {
  type CopyContext,
  copyValue,
  dropDanglingRefs,
  knownTypes,
  mergeInto,
  slug,
  unionStrings,
} from "./graph_tools.ts";
import type { DetectedItem, Facts, Generated } from "./record.ts";
import {
  asList,
  isObject,
  isReference,
  type JsonObject,
  type JsonValue,
  typesOf,
} from "./terms.ts";
import { linkRefs } from "./jsonld.ts";
import { validateItems } from "./validate.ts";
import { anyIsA, isA } from "./vocabulary.ts";

type Obj<T> = Exclude<T, string>;

/** What the generator reads. */
export interface GenerateInput {
  /** The page's final URL. */
  pageUrl: string;
  facts: Facts;
  detected: Detected;
}

/** A candidate from the page's markup for a role in the graph. */
interface Candidate {
  data: JsonObject;
  types: string[];
  id: string | null;
  item: DetectedItem;
  embedded: boolean;
  parentProperty: string | null;
}

const PRIMARY_TYPES = [
  "Product",
  "Article",
  "Event",
  "Recipe",
  "VideoObject",
  "JobPosting",
  "Course",
  "SoftwareApplication",
  "Book",
  "Movie",
  "Service",
];

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
    claim([primary], primaryId);
    const extra = kind === "Article"
      ? articleNode(
        facts,
        siteId,
        imageId,
        home,
        graph,
        nodes,
        !!primary.data.author,
      )
      : kind === "Product"
      ? productNode(facts, page, imageId)
      : {};
    const node = build(primaryId, knownTypes(primary.types), extra ?? {}, [primary]);
    node.mainEntityOfPage ??= webpageRef;
  } else if (facts.article?.headline) {
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
  const faq = !primaryId && !pageCands.length && isFaqPage(facts);
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
  facts.faq.slice(0, questionIds.length).forEach((qa, i) => {
    const answer: Answer = { "@type": "Answer", text: qa.answer };
    const q: Question = {
      "@type": "Question",
      "@id": questionIds[i],
      name: qa.question,
      acceptedAnswer: answer,
    };
    graph.push(toJson(q));
    nodes.push({ id: questionIds[i], type: "Question", origin: "new" });
  });

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

  // Huge lists (a 200,000-entry sameAs) are cut before anything reads them again.
  for (let i = 0; i < graph.length; i++) graph[i] = capLists(graph[i]);
  // The paste must be no worse than the page: a nested value with an error is dropped from a
  // node the page declared; a kept item, or a declared item that is not the page's main kind,
  // that still has an error (nothing on the page states what is missing) is left out.
  for (let round = 0; round < 3; round++) {
    const broken = brokenNodes(graph, nodes);
    if (!broken.size) break;
    for (const [id, paths] of broken) {
      const at = graph.findIndex((x) => x["@id"] === id);
      if (at < 0) continue;
      const node = graph[at];
      const origin = nodes.find((x) => x.id === id)?.origin;
      const type = String(asList(node["@type"])[0]);
      const nested = [
        ...new Set(
          paths.filter((p) => p.split(".").length >= 3)
            .map((p) => p.split(".")[1].replace(/\[\d+\]$/, "")),
        ),
      ];
      if (origin === "merged" && nested.length && round === 0) {
        // A broken nested value goes only where the node is no worse without it.
        const before = paths.filter((p) => p.split(".").length < 3).length;
        const saved = nested.map((prop) => [prop, node[prop]] as const);
        for (const prop of nested) delete node[prop];
        const after = (brokenNodes(graph, nodes).get(id) ?? []).filter((p) =>
          p.split(".").length < 3
        ).length;
        if (after > before) {
          for (const [prop, value] of saved) node[prop] = value;
          continue;
        }
        fillIn.push(...nested.map((prop) => ({
          path: `${type}.${prop}`,
          why:
            `The page's ${type}.${prop} lacks what Google requires and the page does not state it, so it is left out; complete it in the page's markup.`,
        })));
        continue;
      }
      if (origin === "new" || (origin === "merged" && KEEP_ALWAYS.some((t) => isA(type, t)))) {
        continue;
      }
      graph.splice(at, 1);
      nodes.splice(nodes.findIndex((x) => x.id === id), 1);
      fillIn.push({
        path: type,
        why:
          `The page's ${type} lacks what Google requires and the page does not state it, so it is left out; add the missing properties to the page's own markup.`,
      });
    }
  }
  for (const path of dropDanglingRefs(graph)) {
    fillIn.push({
      path,
      why: "This referred to a node the page does not declare; add that node or the value itself.",
    });
  }
  const cleaned = mergeDuplicateIds(graph.map(stripUndefined).map((g) => capLists(g)));
  for (const f of ruleGaps(cleaned)) if (!fillIn.some((x) => x.path === f.path)) fillIn.push(f);
  const full = { "@context": "https://schema.org" as const, "@graph": cleaned };
  const listed = nodes.filter((x, i) => nodes.findIndex((y) => y.id === x.id) === i);
  return { graph: full, script: scriptFor(full), nodes: listed, fillIn };
}

/** The ready-to-paste script element (`<` escaped so no value can close the element). */
export function scriptFor(
  graph: JsonObject | { "@context": string; "@graph": JsonValue[] },
): string {
  return `<script type="application/ld+json">\n${
    JSON.stringify(graph, null, 2).replace(/</g, "\\u003c")
  }\n</script>`;
}

/** The URL the page is known by: its canonical when that is on the same origin, else its URL. */
function pageIdentity(pageUrl: string, canonical: string | null): string {
  const u = new URL(pageUrl);
  u.hash = "";
  if (canonical) {
    try {
      const c = new URL(canonical);
      c.hash = "";
      if (c.origin === u.origin) return c.href;
    } catch { /* not a URL: keep the page's */ }
  }
  return u.href;
}

/** Items and their embedded typed nodes (three levels down), in document order. */
function collectCandidates(d: Detected): Candidate[] {
  const out: Candidate[] = [];
  for (const item of allItems(d)) {
    out.push({
      data: item.properties,
      types: item.types,
      id: item.id,
      item,
      embedded: false,
      parentProperty: null,
    });
    const stack: [JsonObject, number][] = [[item.properties, 0]];
    while (stack.length) {
      const [obj, depth] = stack.pop()!;
      if (depth >= 3) continue;
      for (const [k, v] of Object.entries(obj)) {
        if (k.startsWith("@")) continue;
        for (const x of asList(v)) {
          if (!isObject(x) || isReference(x)) continue;
          const types = typesOf(x);
          if (types.length) {
            out.push({
              data: x,
              types,
              id: typeof x["@id"] === "string" ? x["@id"] : null,
              item,
              embedded: true,
              parentProperty: k,
            });
          }
          stack.push([x, depth + 1]);
        }
      }
    }
  }
  return out;
}

function articleNode(
  facts: Facts,
  siteId: string | null,
  imageId: string | null,
  home: string,
  graph: JsonObject[],
  nodes: Generated["nodes"],
  hasAuthor = false,
): Obj<Article> | null {
  const a = facts.article;
  if (!a) return { "@type": "Article", publisher: siteId ? { "@id": siteId } : undefined };
  let authorId: string | null = null;
  if (a.author && !hasAuthor) {
    authorId = `${home}#/schema/person/${slug(a.author)}`;
    const person: Obj<Person> = {
      "@type": "Person",
      "@id": authorId,
      name: a.author,
      url: a.authorUrl ?? undefined,
    };
    graph.push(toJson(person));
    nodes.push({ id: authorId, type: "Person", origin: "new" });
  }
  return {
    "@type": "Article",
    headline: a.headline ?? undefined,
    datePublished: a.datePublished ?? undefined,
    dateModified: a.dateModified ?? undefined,
    author: authorId ? { "@id": authorId } : undefined,
    publisher: siteId ? { "@id": siteId } : undefined,
    image: imageId ? { "@id": imageId } : undefined,
    inLanguage: facts.lang ?? undefined,
  };
}

/** A Product with its Offer, or null when the page lacks a price and currency for it. */
function productNode(facts: Facts, page: string, imageId: string | null): Obj<Product> | null {
  const p = facts.product;
  if (!p?.price || !p.currency) return null;
  const offer: Offer = {
    "@type": "Offer",
    price: p.price,
    priceCurrency: p.currency,
    availability: (p.availability ?? undefined) as Offer["availability"],
    url: page,
  };
  return {
    "@type": "Product",
    name: p.name ?? undefined,
    description: facts.description ?? undefined,
    image: imageId ? { "@id": imageId } : undefined,
    sku: p.sku ?? undefined,
    brand: p.brand ? { "@type": "Brand", name: p.brand } : undefined,
    offers: offer,
  };
}

/** The logo URL the existing organization markup gives, if any. */
function logoOf(list: Candidate[], ctx: CopyContext): string | null {
  for (const c of list) {
    for (const v of asList(c.data.logo)) {
      const copied = copyValue(v, "logo", ctx, 0);
      if (typeof copied === "string") return copied;
      if (isObject(copied)) {
        const url = firstString(copied.url) ?? firstString(copied.contentUrl);
        if (url) return url;
      }
    }
  }
  return null;
}

/** Google's rules run on the generated graph: what is still missing becomes "fill in". */
function ruleGaps(graph: JsonObject[]): Generated["fillIn"] {
  const items: DetectedItem[] = graph.map((node, index) => {
    const properties: JsonObject = {};
    for (const [k, v] of Object.entries(node)) if (!k.startsWith("@")) properties[k] = v;
    return {
      index,
      source: "json-ld",
      id: node["@id"] as string,
      types: typesOf(node),
      properties,
      refs: [],
      location: "generated",
    };
  });
  linkRefs(items, new Map(items.map((i) => [i.id!, i])));
  const { findings } = validateItems({ jsonLd: items, microdata: [], rdfa: [] });
  return findings.filter((f) => f.rule.startsWith("google:")).map((f) => ({
    path: f.path,
    why: f.message,
  }));
}

/**
 * A page's BreadcrumbList made whole from what the page states: each entry's `item` as its URL
 * (an entry written as {"@id", "name"} or referring to such a node keeps both), its name from
 * the entry, its item or the visible trail (matched by URL), positions 1..n in document order;
 * entries without a name, and entries but the last without a URL, are dropped.
 */
function repairTrail(
  data: JsonObject,
  detected: Detected,
  visible: Facts["breadcrumbs"],
  page: string,
): JsonObject {
  const byId = new Map(allItems(detected).filter((i) => i.id).map((i) => [i.id!, i]));
  const nodeOf = (v: JsonValue | undefined): JsonObject | null =>
    isReference(v)
      ? { ...(byId.get(v["@id"])?.properties ?? {}), "@id": v["@id"] }
      : isObject(v)
      ? v
      : null;
  const entries = asList(data.itemListElement).map(nodeOf).filter((e): e is JsonObject => !!e);
  const ordered = entries.map((e, i) => ({ e, i, pos: Number(asList(e.position)[0]) }))
    .sort((a, b) =>
      (Number.isFinite(a.pos) ? a.pos : a.i + 1) - (Number.isFinite(b.pos) ? b.pos : b.i + 1) ||
      a.i - b.i
    );
  const out: JsonObject[] = [];
  for (const { e } of ordered) {
    const raw = asList(e.item)[0];
    const item = typeof raw === "string" ? null : nodeOf(raw);
    const url = absolute(
      typeof raw === "string" ? raw : (item?.["@id"] ?? asList(item?.url)[0] ?? null) as JsonValue,
      page,
    );
    const name = firstString(e.name) ?? (item ? firstString(item.name) : null) ??
      visible.find((b) => url && b.url === url)?.name ?? null;
    if (!name) continue; // Google requires every entry's name; one the page does not state is dropped.
    const entry: JsonObject = { "@type": "ListItem", position: out.length + 1 };
    if (name) entry.name = name;
    if (url) entry.item = url;
    out.push(entry);
  }
  // Only the last entry may go without a URL (Google's rule): others without one are dropped.
  const linked = out.filter((e, i) => e.item || i === out.length - 1)
    .map((e, i) => ({ ...e, position: i + 1 }));
  const copy: JsonObject = { ...data };
  if (linked.length) copy.itemListElement = linked;
  else delete copy.itemListElement;
  return copy;
}

/** Page furniture schema.org can describe but that is no content of the page's own. */
const NOISE_TYPES = new Set([
  "SiteNavigationElement",
  "WPHeader",
  "WPFooter",
  "WPSideBar",
  "WPAdBlock",
  "Comment",
  "UserComments",
]);

/** The longest list a generated property keeps (a page's 200,000-entry sameAs is noise). */
const MAX_LIST = 50;

/** A node with every list (at any depth) cut to {@link MAX_LIST} entries. */
function capLists(node: JsonObject, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = capValue(v, depth);
  return out;
}

function capValue(v: JsonValue, depth: number): JsonValue {
  if (depth > 30) return null;
  if (Array.isArray(v)) return v.slice(0, MAX_LIST).map((x) => capValue(x, depth + 1));
  return isObject(v) ? capLists(v, depth + 1) : v;
}

/**
 * Declared kinds a generated graph always keeps (the page's main entity and the site's own
 * nodes), with what is missing listed to fill in instead.
 */
const KEEP_ALWAYS = [
  "Recipe",
  "Event",
  "Product",
  "Article",
  "WebSite",
  "WebPage",
  "Organization",
  "Person",
  "BreadcrumbList",
];

/** The nodes (by @id) copied from the page that still have an error finding, with its paths. */
function brokenNodes(graph: JsonObject[], nodes: Generated["nodes"]): Map<string, string[]> {
  const keptIds = new Set(nodes.filter((x) => x.origin !== "new").map((x) => x.id));
  const broken = new Map<string, string[]>();
  if (!keptIds.size) return broken;
  const items: DetectedItem[] = graph.map((node, index) => ({
    index,
    source: "json-ld",
    id: node["@id"] as string,
    types: typesOf(node),
    properties: Object.fromEntries(Object.entries(node).filter(([k]) => !k.startsWith("@"))),
    refs: [],
    location: "generated",
  }));
  linkRefs(items, new Map(items.map((i) => [i.id!, i])));
  const { findings } = validateItems({ jsonLd: items, microdata: [], rdfa: [] });
  for (const f of findings) {
    const id = f.itemIndex === null ? null : items[f.itemIndex]?.id;
    if (f.severity !== "error" || !id || !keptIds.has(id)) continue;
    broken.set(id, [...broken.get(id) ?? [], f.path]);
  }
  return broken;
}

/**
 * Whether the page is a list of questions and answers, not an article or post that asks
 * questions in its headings: no article facts or og:type article, at least two pairs, and every
 * answer an answer (some text, not itself a question).
 */
export function isFaqPage(facts: Facts): boolean {
  if (facts.article || /article|blog|post/i.test(facts.ogType ?? "")) return false;
  if (facts.faq.length < 2) return false;
  return facts.faq.every((qa) => /\S+\s+\S+/.test(qa.answer) && !/[?\uff1f]\s*$/.test(qa.answer));
}

/** One node per @id: later nodes with an @id seen before are folded into the first. */
function mergeDuplicateIds(graph: JsonObject[]): JsonObject[] {
  const byId = new Map<string, JsonObject>();
  const out: JsonObject[] = [];
  for (const node of graph) {
    const id = node["@id"] as string;
    const first = byId.get(id);
    if (!first) {
      byId.set(id, node);
      out.push(node);
      continue;
    }
    for (const [k, v] of Object.entries(node)) if (!(k in first)) first[k] = v;
  }
  return out;
}

/** A URL value resolved against the page, or null. */
function absolute(v: JsonValue, base: string): string | null {
  if (typeof v !== "string") return null;
  try {
    return new URL(v.trim(), base).href;
  } catch {
    return null;
  }
}

/** An existing @id worth keeping: absolute http(s), not a blank node. */
function stableId(id: string | null | undefined): string | null {
  return id && /^https?:\/\//i.test(id) ? id : null;
}

/** A schema-dts typed node as plain JSON (undefined properties dropped). */
function toJson(node: object): JsonObject {
  return JSON.parse(JSON.stringify(node));
}

function stripUndefined(o: JsonObject): JsonObject {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

function firstString(v: JsonValue | undefined): string | null {
  const s = asList(v).find((x) => typeof x === "string" && x.trim());
  return typeof s === "string" ? s.trim() : null;
}

function nameKey(s: string | null): string {
  return (s ?? "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}
