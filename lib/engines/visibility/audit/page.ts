/**
 * Analysing one sampled page with the same code as the home page: the one-pass extraction
 * (lib/engines/html/page_facts.ts), the same JavaScript-shell rule as the home page (client_rendering.ts),
 * the same page signals (trust.author_dates, technical.title/description/canonical run on a
 * context for this page), the same robots.txt
 * matcher and meta/header directive reader, and the schema service's validator for its structured
 * data. The HTML is dropped as soon as this returns: only a {@link PageReport} is kept.
 */
import { extractPageFacts } from "../../html/page_facts.ts";
import type { PageFacts } from "../../html/types.ts";
import { type PageStructure, pageStructure } from "../../structured/page_structure.ts";
import { validateItems } from "../../structured/validate.ts";
import type { ScanContext } from "../check.ts";
import { crawlersByRole } from "../crawlers.ts";
import { forbidsIndexing, readDirectives, whoIsForbidden, xRobotsTagLines } from "../directives.ts";
import type { JsonLdNode } from "../../structured/page_graph.ts";
import { readRendering } from "../client_rendering.ts";
import type { SignalDef } from "../signal.ts";
import { canonical } from "../signals/technical/canonical.ts";
import { description } from "../signals/technical/description.ts";
import { title } from "../signals/technical/title.ts";
import { authorDates } from "../signals/trust/author_dates.ts";
import { type ParsedRobotsTxt, robotsVerdict } from "../robots.ts";
import { looksLikeHtml } from "../snapshot.ts";
import { llmsRelations } from "../link_header.ts";
import type { FetchOutcome, Snapshot } from "../snapshot_types.ts";
import { samePage } from "./sample.ts";
import type { PageReport, PageType } from "./types.ts";

/** What a page analysis needs besides the page. */
export interface PageInput {
  url: string;
  source: PageReport["source"];
  inSitemap: boolean;
  /** "about" / "contact" when the home page links to it as such. */
  role: "about" | "contact" | null;
  homeUrl: string;
  /** robots.txt as parsed for the site (null: none applies). */
  robots: ParsedRobotsTxt | null;
  /** robots.txt answered 5xx: every crawler must assume a complete disallow. */
  robotsServerError: boolean;
  /** The home page's snapshot: the per-page context is built on it. */
  snapshot: Snapshot;
  siteName: string | null;
  now: Date;
}

const SEARCH = crawlersByRole("search");
const ARTICLE_TYPES = ["Article", "BlogPosting", "NewsArticle", "TechArticle", "Report"];
const ARTICLE_PATH =
  /^\/(blog|blogs|news|article|articles|post|posts|stories|story|insights|journal|magazine)\/./i;
const PRODUCT_PATH = /^\/(product|products|shop|store|item|items|p)\/./i;
const DOCS_PATH =
  /^\/(doc|docs|documentation|guide|guides|help|support|kb|learn|manual|api)(\/|$)/i;

/** A path for examples: path and query. */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** Search crawler tokens robots.txt keeps away from a URL (all of them on a 5xx robots.txt). */
export function robotsBlocked(input: Pick<PageInput, "robots" | "robotsServerError">, url: string) {
  if (input.robotsServerError) return SEARCH.map((c) => c.token);
  if (!input.robots) return [];
  return SEARCH.filter((c) => !robotsVerdict(input.robots!, c.token, url).allowed).map((c) =>
    c.token
  );
}

/** A page that was not fetched (robots, budget) or whose fetch failed. */
export function unreadPage(
  input: PageInput,
  state: PageReport["state"],
  httpStatus: number | null = null,
  fails: string[] = [],
): PageReport {
  const blockedFor = robotsBlocked(input, input.url);
  return {
    url: input.url,
    path: pathOf(input.url),
    type: typeFromPath(input),
    source: input.source,
    inSitemap: input.inSitemap,
    state,
    httpStatus,
    fails: [...fails, ...(blockedFor.length ? [blockedLabel(blockedFor)] : [])],
    title: null,
    description: null,
    canonical: null,
    blockedFor,
    noindex: false,
    rendering: null,
    structured: null,
    author: null,
    date: null,
  };
}

function blockedLabel(tokens: string[]): string {
  return tokens.length === SEARCH.length
    ? "robots.txt blocks AI search"
    : tokens.length > 3
    ? `robots.txt blocks ${tokens.length} AI search crawlers`
    : `robots.txt blocks ${tokens.join(", ")}`;
}

function typeFromPath(input: PageInput, nodes: JsonLdNode[] = [], facts?: PageFacts): PageType {
  if (input.source === "home") return "home";
  if (input.role) return input.role;
  const path = pathOf(input.url);
  const types = new Set(nodes.flatMap((n) => n.types));
  if (/^\/about(-us)?\/?$/i.test(path) || types.has("AboutPage")) return "about";
  if (/^\/contact(-us)?\/?$/i.test(path) || types.has("ContactPage")) return "contact";
  if (types.has("Product") || PRODUCT_PATH.test(path)) return "product";
  if (
    ARTICLE_TYPES.some((t) => types.has(t)) || ARTICLE_PATH.test(path) ||
    facts?.openGraph["og:type"] === "article" || !!facts?.meta["article:published_time"]
  ) return "article";
  if (DOCS_PATH.test(path)) return "docs";
  if (types.has("CollectionPage") || types.has("Blog") || /^\/[^/]+\/$/.test(path)) {
    return "listing";
  }
  return "page";
}

/**
 * Analyses a fetched page (any status); the body is read once and not kept. `known` is the page's
 * facts when they were extracted already (the home page's).
 */
export function analysePage(
  input: PageInput,
  outcome: FetchOutcome,
  known?: PageFacts,
): PageReport {
  // The table's status column says what happened; fails name the cause when it adds something.
  if (!outcome.ok) return unreadPage(input, "error", null, [outcome.error.kind]);
  const r = outcome.result;
  if (r.status < 200 || r.status >= 300) {
    return unreadPage(input, "read", r.status);
  }
  if (!looksLikeHtml(r.headers["content-type"], r.body)) {
    return unreadPage(input, "not_html", r.status);
  }
  const facts = known ?? extractPageFacts(r.body, r.finalUrl);
  // The page's structure, worked out once per page (the home page's is the scan's own).
  const page = pageStructure(facts, r.body, r.finalUrl, input.snapshot.target.domain);
  const jsonLdNodes = page.jsonLdNodes;
  const structured = structuredData(page, facts, r.finalUrl);
  const nodes = structured.nodes.length ? structured.nodes : jsonLdNodes;
  const type = typeFromPath(input, nodes, facts);
  const ctx: ScanContext = {
    snapshot: { ...input.snapshot, home: outcome, facts },
    facts,
    robots: undefined as never, // the page signals run here do not read the home page's verdicts
    nodes: jsonLdNodes,
    items: nodes,
    siteName: input.siteName,
    pageUrl: r.finalUrl,
    offSite: null,
    now: input.now,
  };
  const fails: string[] = [];
  const statusOf = (signal: SignalDef) => {
    try {
      return signal.check(ctx)?.status ?? "unknown";
    } catch {
      return "unknown";
    }
  };
  // Directives per agent: noindex for all robots, or for some AI search crawlers only.
  const directives = readDirectives(facts.metaRobots, xRobotsTagLines(r));
  const noindexFor = whoIsForbidden(directives, forbidsIndexing);
  const noindex = noindexFor.all.length > 0;
  const robotsFor = robotsBlocked(input, r.finalUrl === r.url ? r.url : input.url);
  const blockedFor = SEARCH.filter((c) =>
    noindex || robotsFor.includes(c.token) || noindexFor.agents.has(c.token.toLowerCase())
  ).map((c) => c.token);
  if (noindex) fails.push("noindex");
  else if (noindexFor.agents.size) {
    fails.push(`noindex for ${[...noindexFor.agents.keys()].join(", ")}`);
  }
  if (robotsFor.length) fails.push(blockedLabel(robotsFor));
  // One rule for the home page and every sampled page: a shell needs little text AND signs of
  // client rendering; a short page without them is thin, never a shell. A rendered scan replaces
  // this verdict with the rendering's (lib/engines/visibility/render_step.ts).
  const rendering = readRendering(facts);
  if (rendering.kind === "shell") fails.push("JS shell");
  else if (rendering.kind === "thin") fails.push("thin text");
  if (statusOf(title) === "fail") fails.push("no title");
  if (statusOf(description) === "fail") fails.push("no description");
  const canonicalState = canonicalOf(facts, r.finalUrl, input.homeUrl, type);
  if (canonicalState === "home") fails.push("canonical to home");
  else if (canonicalState === "foreign") fails.push("canonical to another site");
  else if (canonicalState === "missing" || statusOf(canonical) !== "pass") {
    fails.push("no canonical");
  }
  if (structured.state === "none") fails.push("no structured data");
  if (structured.state === "invalid") fails.push("invalid structured data");
  let author: boolean | null = null;
  let date: boolean | null = null;
  if (type === "article") {
    const ev = authorDates.check(ctx)?.evidence ?? [];
    author = ev.some((e) => e.startsWith("author: "));
    date = ev.some((e) => e.startsWith("date: "));
    if (!author) fails.push("no author");
    if (!date) fails.push("no date");
  }
  return {
    url: input.url,
    path: pathOf(input.url),
    type,
    source: input.source,
    inSitemap: input.inSitemap,
    state: "read",
    httpStatus: r.status,
    fails,
    title: facts.title ? facts.title.slice(0, 200) : null,
    heading: facts.headings.find((h) => h.level === 1)?.text.slice(0, 200) || null,
    description: facts.metaDescription ? facts.metaDescription.slice(0, 300) : null,
    canonical: canonicalState,
    blockedFor,
    noindex,
    rendering,
    structured: structured.state,
    author,
    date,
    ...firstRelations(llmsRelations(facts, r.headers, r.finalUrl)),
  };
}

/** The first markdown version and llms.txt a page declares. */
function firstRelations(rel: { markdown: string[]; describedBy: string[] }) {
  return { markdown: rel.markdown[0] ?? null, describedBy: rel.describedBy[0] ?? null };
}

/** Where the page's canonical points, relative to where it should. */
function canonicalOf(
  facts: PageFacts,
  pageUrl: string,
  homeUrl: string,
  type: PageType,
): NonNullable<PageReport["canonical"]> {
  const c = facts.canonical;
  if (!c) return "missing";
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, "");
  try {
    if (bare(new URL(c).hostname) !== bare(new URL(pageUrl).hostname)) return "foreign";
  } catch {
    return "missing";
  }
  if (samePage(c, pageUrl)) return "self";
  if (type !== "home" && samePage(c, homeUrl)) return "home";
  return "other";
}

/** The page's structured data through the schema service's extraction and validator. */
function structuredData(
  page: PageStructure,
  facts: PageFacts,
  pageUrl: string,
): { state: "none" | "valid" | "invalid"; nodes: JsonLdNode[] } {
  try {
    const detected = page.detected;
    const items = [...detected.jsonLd, ...detected.microdata, ...detected.rdfa];
    const broken = facts.jsonLd.some((b) => b.error !== null);
    if (!items.length) return { state: broken ? "invalid" : "none", nodes: [] };
    const errors = validateItems(detected, pageUrl).findings.some((f) => f.severity === "error");
    return { state: errors || broken ? "invalid" : "valid", nodes: page.nodes };
  } catch {
    return { state: "none", nodes: [] };
  }
}
