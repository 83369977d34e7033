/**
 * What is kept of a log: counters per day (UTC) and crawler, by verdict, status class and path
 * class, with the paths verified crawlers fetched (no query string, capped per day and crawler) and
 * the networks (/24, /48) spoofed hits came from. Nothing of a request that named no crawler is
 * here, and no address of one that did: aggregates hold no line, no address and no User-Agent.
 *
 * Aggregates merge by adding counters (`mergeAggregates`), so logs read in shards, on several
 * machines or pushed by a CDN in batches, combine into the figures one read of the whole gives
 * (tests/features/logs/privacy_test.ts, "[logs/aggregate] shards of a log merge"), as long as no cap was reached.
 */

/** What a crawler hit was found to be. */
export type Verdict = "verified" | "spoofed" | "unverifiable";
/** How a verdict was reached. */
export type Basis = "ip_ranges" | "reverse_dns" | "web_bot_auth" | "none";
/** The status classes the owner sees (403 and 429 apart: what an edge answers crawlers). */
export type StatusClass = "2xx" | "3xx" | "403" | "429" | "4xx" | "5xx" | "other";
/** What kind of path was fetched. */
export type PathClass =
  | "page"
  | "asset"
  | "robots"
  | "sitemap"
  | "llms"
  | "feed"
  | "well_known"
  | "api";

export const VERDICTS: readonly Verdict[] = ["verified", "spoofed", "unverifiable"];
export const STATUS_CLASSES: readonly StatusClass[] = [
  "2xx",
  "3xx",
  "403",
  "429",
  "4xx",
  "5xx",
  "other",
];

/** Paths kept per day and crawler (the most fetched; the rest are counted). */
export const PATHS_PER_DAY = 300;
/** Spoofing networks kept per day and crawler. */
export const NETWORKS_PER_DAY = 50;
/** The longest path kept (longer ones are counted with the dropped). */
export const MAX_PATH = 512;

/** One path's counters. */
export interface PathCount {
  hits: number;
  status: Partial<Record<StatusClass, number>>;
}

/** One crawler on one day. */
export interface CrawlerDay {
  hits: Record<Verdict, number>;
  bytes: Record<Verdict, number>;
  status: Record<Verdict, Partial<Record<StatusClass, number>>>;
  /** Verified hits by path class. */
  pathClass: Partial<Record<PathClass, number>>;
  /** Verdicts by how they were reached. */
  basis: Partial<Record<Basis, number>>;
  /** Unverifiable hits by reason. */
  unverifiable: Record<string, number>;
  /** First and last verified hit (ms), 0 when none. */
  first: number;
  last: number;
  /** Verified hits by path. */
  paths: Record<string, PathCount>;
  /** Verified hits on paths not kept (over the cap or too long). */
  pathsDropped: number;
  /** Spoofed hits by network. */
  networks: Record<string, number>;
  networksDropped: number;
}

/** Aggregates of one or more logs of a site. */
export interface Aggregates {
  version: 1;
  /** Day (YYYY-MM-DD, UTC) -> crawler token -> counters. */
  days: Record<string, Record<string, CrawlerDay>>;
}

/** An empty aggregate. */
export function emptyAggregates(): Aggregates {
  return { version: 1, days: {} };
}

function emptyDay(): CrawlerDay {
  return {
    hits: { verified: 0, spoofed: 0, unverifiable: 0 },
    bytes: { verified: 0, spoofed: 0, unverifiable: 0 },
    status: { verified: {}, spoofed: {}, unverifiable: {} },
    pathClass: {},
    basis: {},
    unverifiable: {},
    first: 0,
    last: 0,
    paths: {},
    pathsDropped: 0,
    networks: {},
    networksDropped: 0,
  };
}

/** The class of a status code. */
export function statusClass(status: number): StatusClass {
  if (status === 403) return "403";
  if (status === 429) return "429";
  if (status >= 200 && status < 300) return "2xx";
  if (status >= 300 && status < 400) return "3xx";
  if (status >= 400 && status < 500) return "4xx";
  if (status >= 500 && status < 600) return "5xx";
  return "other";
}

const ASSET =
  /\.(?:css|js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot|mp4|webm|mp3|pdf|zip)$/i;

/** The class of a path (without its query). */
export function pathClass(path: string): PathClass {
  const p = path.toLowerCase();
  if (p === "/robots.txt") return "robots";
  if (p === "/llms.txt" || p === "/llms-full.txt") return "llms";
  if (p.startsWith("/.well-known/")) return "well_known";
  if (
    p.indexOf("/", 1) < 0 && p.includes("sitemap") && (p.endsWith(".xml") || p.endsWith(".xml.gz"))
  ) return "sitemap";
  if (p.endsWith(".rss") || p.endsWith(".atom") || p === "/feed" || p.startsWith("/feed/")) {
    return "feed";
  }
  if (p.startsWith("/api/")) return "api";
  return ASSET.test(p) ? "asset" : "page";
}

/** The path of a request target, without query or fragment; absolute URLs read as their path. */
export function pathOf(target: string): string {
  let t = target;
  if (!t.startsWith("/")) {
    try {
      t = new URL(t).pathname;
    } catch {
      return "/";
    }
  }
  const cut = t.search(/[?#]/);
  return (cut < 0 ? t : t.slice(0, cut)) || "/";
}

/** The /24 (IPv4) or /48 (IPv6) network of an address. */
export function networkOf(ip: string): string {
  if (ip.includes(":")) {
    const head = ip.toLowerCase().split("::")[0].split(":");
    return `${[...head, "0", "0", "0"].slice(0, 3).join(":")}::/48`;
  }
  const p = ip.split(".");
  return p.length === 4 ? `${p[0]}.${p[1]}.${p[2]}.0/24` : "unknown";
}

const DAY_MS = 86_400_000;
/** The day last asked for, from its first ms: a log's lines come day by day. */
let lastDay = { from: NaN, text: "" };

/** The day (UTC) of a time in ms. */
export function dayOf(ms: number): string {
  const from = Math.floor(ms / DAY_MS) * DAY_MS;
  if (from === lastDay.from) return lastDay.text;
  const text = new Date(ms).toISOString().slice(0, 10);
  // A time past the dates a Date holds has no day: not remembered (NaN is never equal).
  lastDay = { from, text };
  return text;
}

/** One judged crawler hit, as aggregate() takes it (the address is reduced to its network here). */
export interface JudgedHit {
  token: string;
  time: number;
  ip: string;
  target: string;
  status: number;
  bytes: number;
  verdict: Verdict;
  basis: Basis;
  /** Why a hit is unverifiable. */
  why?: string;
}

/** Adds one judged hit to the aggregates. */
export function addHit(agg: Aggregates, h: JudgedHit): void {
  const day = dayOf(h.time);
  const crawlers = agg.days[day] ??= {};
  const d = crawlers[h.token] ??= emptyDay();
  const sc = statusClass(h.status);
  d.hits[h.verdict]++;
  d.bytes[h.verdict] += h.bytes;
  d.status[h.verdict][sc] = (d.status[h.verdict][sc] ?? 0) + 1;
  d.basis[h.basis] = (d.basis[h.basis] ?? 0) + 1;
  if (h.verdict === "unverifiable") {
    const why = h.why ?? "unknown";
    d.unverifiable[why] = (d.unverifiable[why] ?? 0) + 1;
  }
  if (h.verdict === "spoofed") {
    const net = networkOf(h.ip);
    if (net in d.networks || Object.keys(d.networks).length < NETWORKS_PER_DAY) {
      d.networks[net] = (d.networks[net] ?? 0) + 1;
    } else d.networksDropped++;
  }
  if (h.verdict !== "verified") return;
  if (!d.first || h.time < d.first) d.first = h.time;
  if (h.time > d.last) d.last = h.time;
  const path = pathOf(h.target);
  const pc = pathClass(path);
  d.pathClass[pc] = (d.pathClass[pc] ?? 0) + 1;
  const known = d.paths[path];
  if (known) {
    known.hits++;
    known.status[sc] = (known.status[sc] ?? 0) + 1;
  } else if (path.length <= MAX_PATH && Object.keys(d.paths).length < PATHS_PER_DAY) {
    d.paths[path] = { hits: 1, status: { [sc]: 1 } };
  } else d.pathsDropped++;
}

const addRecord = <K extends string>(
  a: Partial<Record<K, number>>,
  b: Partial<Record<K, number>>,
) => {
  for (const [k, v] of Object.entries(b) as [K, number][]) a[k] = (a[k] ?? 0) + v;
};

/** Keeps the `cap` largest entries, returning the sum of the rest. */
function capped<T>(m: Record<string, T>, cap: number, size: (v: T) => number): number {
  const keys = Object.keys(m);
  if (keys.length <= cap) return 0;
  keys.sort((a, b) => size(m[b]) - size(m[a]) || (a < b ? -1 : 1));
  let dropped = 0;
  for (const k of keys.slice(cap)) {
    dropped += size(m[k]);
    delete m[k];
  }
  return dropped;
}

/** Adds `b` into `a` (both aggregates of one site) and returns `a`. */
export function mergeAggregates(a: Aggregates, b: Aggregates): Aggregates {
  for (const [day, crawlers] of Object.entries(b.days)) {
    const into = a.days[day] ??= {};
    for (const [token, src] of Object.entries(crawlers)) {
      const d = into[token] ??= emptyDay();
      for (const v of VERDICTS) {
        d.hits[v] += src.hits[v];
        d.bytes[v] += src.bytes[v];
        addRecord(d.status[v], src.status[v]);
      }
      addRecord(d.pathClass, src.pathClass);
      addRecord(d.basis, src.basis);
      addRecord(d.unverifiable, src.unverifiable);
      if (src.first && (!d.first || src.first < d.first)) d.first = src.first;
      if (src.last > d.last) d.last = src.last;
      for (const [path, c] of Object.entries(src.paths)) {
        const known = d.paths[path] ??= { hits: 0, status: {} };
        known.hits += c.hits;
        addRecord(known.status, c.status);
      }
      d.pathsDropped += src.pathsDropped + capped(d.paths, PATHS_PER_DAY, (c) => c.hits);
      addRecord(d.networks, src.networks);
      d.networksDropped += src.networksDropped + capped(d.networks, NETWORKS_PER_DAY, (n) => n);
    }
  }
  return a;
}

/** Drops the days before `fromDay` (retention). */
export function keepFrom(agg: Aggregates, fromDay: string): Aggregates {
  for (const day of Object.keys(agg.days)) if (day < fromDay) delete agg.days[day];
  return agg;
}
