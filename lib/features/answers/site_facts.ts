/**
 * What a site says about itself, read from its home page with the product's own parsers: its name
 * (the site-name choice of lib/engines/structured/site_name.ts: Organization, og:site_name, WebSite,
 * application-name, the title's brand part), what it offers (the names of its Product, Service and
 * Offer nodes, its serviceType and knowsAbout, else the title's other part), its category (a
 * specific schema.org Organization type, e.g. CafeOrCoffeeShop) and its town (the address's
 * addressLocality). Nothing is guessed: a fact the page does not state is null, and every fact
 * says where it came from, so the questions built from them can show their basis.
 *
 * The page is a stranger's: it is fetched and parsed in a worker (the "site-facts" job,
 * lib/features/answers/jobs.ts), never on the server's thread, where a name built to make the site-name
 * rules backtrack would stall every request (issue 39). The server sends {@link SiteFactsJob}
 * and gets the facts back, each clipped to {@link MAX_FACT} characters.
 */
import { extractPageFacts } from "../../engines/html/page_facts.ts";
import { looksLikeHtml } from "../../kit/net/decode.ts";
import type { PageFacts } from "../../engines/html/types.ts";
import { FetchError, type GuardedFetcher } from "../../kit/net/types.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import type { Config } from "../../kit/config.ts";
import {
  flattenJsonLd,
  type JsonLdNode,
  ORGANIZATION_TYPES,
  stringValues,
} from "../../engines/structured/page_graph.ts";
import {
  isDateLike,
  isSectionName,
  nameKey,
  type NameSource,
  siteNameChoice,
  titleSegments,
} from "../../engines/structured/site_name.ts";
import { isA } from "../../engines/structured/vocabulary.ts";

/** A fact and where the page states it. */
export interface Stated {
  text: string;
  /** "JSON-LD Organization name", "og:site_name", "the title", ... */
  source: string;
}

/** What the site says about itself. */
export interface SiteFacts {
  domain: string;
  /** The site's name; the domain when the page names none (source says so). */
  brand: Stated;
  /** What it offers, at most 3. */
  offers: Stated[];
  /** Its kind of business ("cafe or coffee shop"), from a specific schema.org type. */
  category: Stated | null;
  /** The town of its address. */
  locality: Stated | null;
  /** Why the facts are thin, when the home page could not be read. */
  problem: string | null;
}

/** Longest fact kept (characters). */
const MAX_FACT = 80;
/** Types too general to say what a business is. */
const GENERIC = new Set(["Organization", "Corporation", "LocalBusiness", "OnlineBusiness"]);

/** A "site-facts" job: the home page to read, and how a scan would fetch it. */
export interface SiteFactsJob {
  kind: "site-facts";
  url: string;
  domain: string;
  /** As a scan fetches (SCAN_RESOLVE applies): the configuration's fetch settings. */
  fetch: Pick<Config, "userAgent" | "scanResolve" | "requestTimeoutMs">;
}

/** Time a "site-facts" job is given: the fetch's 10 s, and the parse. */
export const SITE_FACTS_TIMEOUT_MS = 20_000;

/** The worker's entry point for "site-facts" jobs (lib/kit/isolate/protocol.ts ThreadJobModule). */
export async function runJob(job: SiteFactsJob): Promise<SiteFacts> {
  const fetcher = createGuardedFetcher({
    userAgent: job.fetch.userAgent,
    resolve: job.fetch.scanResolve,
    requestTimeoutMs: job.fetch.requestTimeoutMs,
  });
  try {
    return await readSiteFacts(fetcher, job.url, job.domain);
  } finally {
    await fetcher.close();
  }
}

/** Reads the home page `url` and what it says. Never throws for what the site answers. */
export async function readSiteFacts(
  fetcher: GuardedFetcher,
  url: string,
  domain: string,
): Promise<SiteFacts> {
  try {
    const page = await fetcher.fetch(url, { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000 });
    if (page.status !== 200 || !looksLikeHtml(page.headers["content-type"], page.body)) {
      return bare(domain, `the home page answered ${page.status} without an HTML page`);
    }
    return factsOfPage(extractPageFacts(page.body, page.finalUrl), domain);
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    return bare(domain, `the home page could not be read (${error.kind})`);
  }
}

/** Where a site name came from, in words. */
const SOURCE_WORDS: Record<NameSource, string> = {
  "organization": "the structured data's Organization name",
  "og:site_name": "og:site_name",
  "website": "the structured data's WebSite name",
  "application-name": "application-name",
  "title": "the page title",
  "domain spelling": "a name on the page that spells the domain",
};

/** The facts of a parsed home page. */
export function factsOfPage(page: PageFacts, domain: string): SiteFacts {
  const nodes = flattenJsonLd(page.jsonLd);
  // The product's one corroborated site name (lib/engines/structured/site_name.ts), and where it came from.
  const choice = siteNameChoice(page, nodes, domain);
  const name = choice.name;
  const brandSource = name === null
    ? "the domain (the page states no name)"
    : SOURCE_WORDS[choice.candidates[0].source];
  const brand = { text: clip(name ?? domain), source: brandSource };
  return {
    domain,
    brand,
    offers: offersOf(page, nodes, brand.text),
    category: categoryOf(nodes),
    locality: localityOf(nodes),
    problem: null,
  };
}

/** The facts of a home page that could not be read or analysed: the domain, and why. */
export function bare(domain: string, problem: string): SiteFacts {
  return {
    domain,
    brand: { text: domain, source: "the domain (the home page could not be read)" },
    offers: [],
    category: null,
    locality: null,
    problem,
  };
}

function offersOf(page: PageFacts, nodes: JsonLdNode[], brand: string): Stated[] {
  const found: Stated[] = [];
  const add = (text: string, source: string) => found.push({ text: clip(text), source });
  for (const n of nodes) {
    const type = n.types[0];
    if (["Product", "Service", "SoftwareApplication", "Course"].some((t) => n.types.includes(t))) {
      for (const v of stringValues(n.data.name)) add(v, `the JSON-LD ${type}'s name`);
    }
    for (const v of stringValues(n.data.serviceType)) add(v, `the JSON-LD ${type}'s serviceType`);
    if (ORGANIZATION_TYPES.some((t) => n.types.includes(t))) {
      for (const v of stringValues(n.data.knowsAbout)) add(v, `the JSON-LD ${type}'s knowsAbout`);
    }
  }
  // The title's parts that are neither the brand, a date nor a section ("Fresh Small-Batch
  // Coffee" in "Good Coffee Roasters | Fresh Small-Batch Coffee").
  for (const part of titleSegments(page.title ?? "")) {
    const t = part.trim();
    if (t && !isDateLike(t) && !isSectionName(t)) add(t, "the page title");
  }
  const brandKey = nameKey(brand);
  const seen = new Set<string>();
  return found.filter((o) => {
    const k = nameKey(o.text);
    // An offer that is (or contains) the brand would name it: those questions are the brand's.
    if (!k || k.length < 3 || k.includes(brandKey) || brandKey.includes(k) || seen.has(k)) {
      return false;
    }
    seen.add(k);
    return !/^https?:/i.test(o.text);
  }).slice(0, 3);
}

function categoryOf(nodes: JsonLdNode[]): Stated | null {
  for (const n of nodes) {
    for (const t of n.types) {
      if (GENERIC.has(t) || !/^[A-Z][A-Za-z]+$/.test(t)) continue;
      if (isA(t, "Organization") || isA(t, "LocalBusiness")) {
        return { text: words(t), source: `the JSON-LD type ${t}` };
      }
    }
  }
  return null;
}

function localityOf(nodes: JsonLdNode[]): Stated | null {
  for (const n of nodes) {
    if (!ORGANIZATION_TYPES.some((t) => n.types.includes(t)) && !isOrganization(n)) continue;
    const address = n.data.address;
    const town = address && typeof address === "object"
      ? (address as Record<string, unknown>).addressLocality
      : undefined;
    if (typeof town === "string" && town.trim()) {
      return { text: clip(town.trim()), source: "the JSON-LD address's addressLocality" };
    }
  }
  return null;
}

function isOrganization(n: JsonLdNode): boolean {
  return n.types.some((t) => /^[A-Z][A-Za-z]+$/.test(t) && isA(t, "Organization"));
}

/** "CafeOrCoffeeShop" -> "cafe or coffee shop". */
function words(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > MAX_FACT ? `${t.slice(0, MAX_FACT - 1)}…` : t;
}
