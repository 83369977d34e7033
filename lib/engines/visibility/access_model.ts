/**
 * The one model of access, grouped by AI product: from the per-crawler verdicts of a scan (the
 * crawler matrix rows, crawlers_matrix.ts, stored on the `access.edge` signal), what each product
 * (products.ts) can do with the site: be found in its search and cited (its search crawlers),
 * fetch a page a person asks about (its user fetchers), train on it (its training crawlers; the
 * owner's choice, never scored); why not, in plain words; and the sentence that says why the score
 * is what it is. Pure functions of the record, so the report, the exports, compare, SARIF and MCP
 * all say the same thing; the fix texts read the same model (`productsOf(crawlerMatrix(ctx).rows)`).
 */
import type { CrawlerRow } from "./record.ts";
import { CRAWLERS, roleOf } from "./crawlers.ts";
import type { CrawlerPurpose } from "./crawlers_registry.ts";
import { joinNames, type Product, PRODUCTS } from "./products.ts";

/** What a product can do on one count (search, user, training), from its crawlers' verdicts. */
export type CapabilityState = "yes" | "no" | "partly" | "unknown" | "none";

/** Why crawlers are turned away, as the record's `causes` name it. */
export type AccessCause =
  | "robots"
  | "noindex"
  | "edge_refused"
  | "edge_challenge"
  | "edge_rate_limited"
  | "edge_block_page";

/** One count of a product: its state, the causes of the refusals, and the crawlers it rests on. */
export interface Capability {
  state: CapabilityState;
  /** The causes of its crawlers' refusals, most frequent first. */
  causes: AccessCause[];
  /** The crawlers (tokens) it rests on, each with its verdict. */
  crawlers: {
    token: string;
    state: "open" | "refused" | "unknown";
    causes: AccessCause[];
    /** Whether the edge's answer to its User-Agent was measured (a token-only crawler is not). */
    edgeMeasured: boolean;
  }[];
}

/** What one AI product can do with the site. */
export interface ProductAccess extends Product {
  /** Be found in its search and cited (its search crawlers). */
  search: Capability;
  /** Fetch a page a person asks about (its user-triggered fetchers and agents). */
  user: Capability;
  /** Train on it (its training crawlers): the owner's choice, never scored. */
  training: Capability;
  /** Its tokens the registry shows but cannot verify on the vendor's page (never counted). */
  unverified: string[];
}

const CAUSE_ORDER: readonly AccessCause[] = [
  "edge_refused",
  "edge_challenge",
  "edge_rate_limited",
  "edge_block_page",
  "robots",
  "noindex",
];

/**
 * The verdict of a row: the stored one, or (records made before the model) read from its robots.txt
 * verdict and edge answer. The edge's kind of refusal comes from the stored `edgeState` only; an
 * older record's refusal is a plain refusal, never guessed to be a challenge.
 */
export function rowVerdict(
  row: CrawlerRow,
): { state: "open" | "refused" | "unknown"; causes: AccessCause[] } {
  if (row.state) {
    return { state: row.state, causes: (row.causes ?? []) as AccessCause[] };
  }
  const causes: AccessCause[] = [];
  if (row.robots === "blocked") causes.push("robots");
  if (row.edgeRefused) causes.push("edge_refused");
  return {
    state: causes.length ? "refused" : row.robots === "unknown" ? "unknown" : "open",
    causes,
  };
}

/** The product a row's crawler feeds: stored, else the registry's. */
function productOfRow(row: CrawlerRow): string | null {
  return row.product ?? CRAWLERS.find((c) => c.token === row.token)?.product ?? null;
}

/** Whether a row counts (verified, not retired): stored, else the registry's. */
function countsOf(row: CrawlerRow): boolean {
  return row.counts ?? CRAWLERS.find((c) => c.token === row.token)?.counts ?? true;
}

function capability(rows: CrawlerRow[]): Capability {
  const crawlers = rows.map((r) => ({
    token: r.token,
    ...rowVerdict(r),
    edgeMeasured: r.edgeState ? r.edgeState !== "not_measured" : r.edgeRefused !== null,
  }));
  if (!crawlers.length) return { state: "none", causes: [], crawlers };
  const refused = crawlers.filter((c) => c.state === "refused");
  const open = crawlers.filter((c) => c.state === "open");
  const state: CapabilityState = refused.length === crawlers.length
    ? "no"
    : refused.length
    ? "partly"
    : open.length
    ? "yes"
    : "unknown";
  const counted = new Map<AccessCause, number>();
  for (const c of refused) for (const k of c.causes) counted.set(k, (counted.get(k) ?? 0) + 1);
  const causes = [...counted.keys()].sort((a, b) =>
    counted.get(b)! - counted.get(a)! || CAUSE_ORDER.indexOf(a) - CAUSE_ORDER.indexOf(b)
  );
  return { state, causes, crawlers };
}

/** What every product of the registry can do with the site, in report order. */
export function productsOf(rows: readonly CrawlerRow[]): ProductAccess[] {
  return PRODUCTS.map((p) => {
    const mine = rows.filter((r) => productOfRow(r) === p.id);
    const of = (role: "search" | "user" | "training") =>
      mine.filter((r) => countsOf(r) && roleOf(r.purpose as CrawlerPurpose) === role);
    return {
      ...p,
      search: capability(of("search")),
      user: capability(of("user")),
      training: capability(of("training")),
      unverified: mine.filter((r) => !countsOf(r)).map((r) => r.token),
    };
  }).filter((p) =>
    p.search.state !== "none" || p.user.state !== "none" || p.training.state !== "none" ||
    p.unverified.length > 0
  );
}

/** The crawler matrix rows of a record, or null when it has none (older or failed records). */
export function accessRows(
  result: { pillars: { signals: { id: string; crawlers?: CrawlerRow[] }[] }[] } | null,
): CrawlerRow[] | null {
  const edge = result?.pillars.flatMap((p) => p.signals).find((s) => s.id === "access.edge");
  return edge?.crawlers?.length ? edge.crawlers : null;
}

/** What turns a product's crawlers away, in the words a site owner acts on ("your CDN ..."). */
export function causeWords(cause: AccessCause, many: boolean): string {
  const their = many ? "their" : "its";
  switch (cause) {
    case "edge_refused":
      return `your CDN or firewall refuses ${their} crawlers`;
    case "edge_challenge":
      return `your CDN answers ${their} crawlers with a challenge page`;
    case "edge_rate_limited":
      return `your CDN rate-limits ${their} crawlers (HTTP 429)`;
    case "edge_block_page":
      return `your CDN serves ${their} crawlers a block page instead of your page`;
    case "robots":
      return `robots.txt tells ${their} crawlers to stay out`;
    case "noindex":
      return `the home page asks ${their} crawlers not to index it (noindex)`;
  }
}

/** A capability in a few words, for badges and cells ("No: CDN refuses", "Yes"). */
export function capabilityWords(c: Capability, training = false): string {
  const cause = c.causes[0];
  const short: Record<AccessCause, string> = {
    edge_refused: "your CDN refuses",
    edge_challenge: "CDN challenge page",
    edge_rate_limited: "CDN rate limit (429)",
    edge_block_page: "CDN block page",
    robots: "robots.txt",
    noindex: "noindex",
  };
  // A "yes" that rests on robots.txt alone (the edge was not probed with these User-Agents) says so.
  const robotsOnly = c.crawlers.every((x) => !x.edgeMeasured);
  switch (c.state) {
    case "yes":
      return `${training ? "Allowed" : "Yes"}${
        robotsOnly ? " by robots.txt (edge not probed)" : ""
      }`;
    case "no":
      return `${training ? "Told no" : "No"}${cause ? `: ${short[cause]}` : ""}`;
    case "partly":
      return `Partly${cause ? `: ${short[cause]}` : ""}`;
    case "unknown":
      return "Not measured";
    case "none":
      return "No crawler";
  }
}

/** Whether the product cannot read the site at all (search and user fetches both turned away). */
function cannotRead(p: ProductAccess): boolean {
  return p.search.state === "no" && (p.user.state === "no" || p.user.state === "none");
}

/** The products the score counts (whose search or user fetches are turned away), major first. */
export function affectedProducts(products: readonly ProductAccess[]): ProductAccess[] {
  return products.filter((p) =>
    ["no", "partly"].includes(p.search.state) || ["no", "partly"].includes(p.user.state)
  );
}

/** What a product cannot do, in words ("cannot read the site"). */
function whatOf(p: ProductAccess): string {
  return cannotRead(p)
    ? "cannot read the site"
    : p.search.state === "no"
    ? "cannot find the site in search"
    : p.user.state === "no" && p.search.state === "yes"
    ? "cannot fetch pages people ask about"
    : "can only partly read the site";
}

/** The main cause of a product's refusals (search first, then user fetches). */
function mainCause(p: ProductAccess): AccessCause | null {
  return p.search.causes[0] ?? p.user.causes[0] ?? null;
}

/**
 * Why AI products cannot read the site, as the line under the score says it: the affected major
 * products grouped by their main cause ("ChatGPT, Claude and Perplexity cannot read the site: your
 * CDN or firewall refuses their crawlers."), the minor ones counted. Null when every product's
 * search and user fetches get through (as far as measured).
 */
export function accessSentence(products: readonly ProductAccess[]): string | null {
  const affected = affectedProducts(products);
  if (!affected.length) return null;
  const major = affected.filter((p) => p.major);
  const minor = affected.filter((p) => !p.major);
  // One sentence per cause, naming every major product it turns away (at most seven) and what each
  // cannot do: "ChatGPT and Claude cannot read the site; Perplexity cannot find the site in
  // search: robots.txt tells their crawlers to stay out."
  const byCause = new Map<string, ProductAccess[]>();
  for (const p of major) {
    const key = mainCause(p) ?? "";
    byCause.set(key, [...(byCause.get(key) ?? []), p]);
  }
  const sentences = [...byCause].map(([cause, list]) => {
    const byWhat = new Map<string, string[]>();
    for (const p of list) byWhat.set(whatOf(p), [...(byWhat.get(whatOf(p)) ?? []), p.short]);
    const clauses = [...byWhat].map(([what, names]) => `${joinNames(names)} ${what}`);
    return `${clauses.join("; ")}${
      cause ? `: ${causeWords(cause as AccessCause, list.length > 1)}` : ""
    }.`;
  });
  if (minor.length) {
    const names = joinNames(minor.slice(0, 3).map((p) => p.short));
    const more = minor.length > 3 ? ` and ${minor.length - 3} more` : "";
    const cause = mainCause(minor[0]);
    sentences.push(
      major.length
        ? `Also affected: ${names}${more}.`
        : `${names}${more} cannot fully read the site${
          cause ? `: ${causeWords(cause, minor.length > 1)}` : ""
        }.`,
    );
  }
  return sentences.join(" ");
}
