/**
 * What the owner sees of a site's logs, counted from its aggregates (our own stored counters: no
 * stranger's text is read here, so the server's thread computes it): per crawler and grouped by
 * AI product (its vendor), verified hits per day, distinct pages, the status mix, bytes, first and
 * last seen; spoofed hits and the networks they came from; the pages most crawled and the
 * important pages never crawled; and, when answer presence has run, the pages an assistant cited
 * beside the pages its crawlers fetched. Which verified fetches the site's robots.txt disallows
 * needs that text parsed: report.ts adds them (in a worker, for the server).
 */
import { CRAWLERS } from "../../engines/visibility/crawlers.ts";
import {
  type Aggregates,
  type Basis,
  type CrawlerDay,
  STATUS_CLASSES,
  type StatusClass,
  type Verdict,
  VERDICTS,
} from "./aggregate.ts";

/** What the figures join the aggregates with (each optional). */
export interface FiguresContext {
  /** Paths that matter: the home page and the sitemap's pages. */
  importantPages?: string[];
  /**
   * Pages each assistant cited in the account's answer-presence run (lib/features/answers/
   * cited_pages.ts), as paths, with the crawlers its vendor fetches pages with.
   */
  cited?: { assistant: string; crawlers: string[]; paths: string[] }[];
  /** Days shown, ending at the last day with data (default 30). */
  days?: number;
}

/** One crawler's figures over the period. */
export interface CrawlerFigures {
  token: string;
  vendor: string;
  purpose: string;
  hits: Record<Verdict, number>;
  /** Verified hits per day, oldest first, every day of the period. */
  perDay: { day: string; verified: number }[];
  /** Distinct paths verified hits fetched (a lower bound when `pathsDropped`). */
  distinctPages: number;
  pathsDropped: number;
  /** Status mix of verified hits. */
  status: Record<StatusClass, number>;
  /** Bytes served to verified hits. */
  bytes: number;
  /** First and last verified hit (ISO 8601), null when none. */
  firstSeen: string | null;
  lastSeen: string | null;
  basis: Partial<Record<Basis, number>>;
  unverifiable: Record<string, number>;
}

/** The report. */
export interface LogReport {
  period: { from: string; to: string; days: number } | null;
  totals: Record<Verdict, number>;
  crawlers: CrawlerFigures[];
  /** Crawlers grouped by the vendor that runs them (one AI product family each). */
  products: { vendor: string; tokens: string[]; hits: Record<Verdict, number> }[];
  spoofed: { token: string; hits: number; networks: { network: string; hits: number }[] }[];
  /** Verified fetches of paths the site's robots.txt disallows for the crawler (report.ts). */
  disallowed: {
    token: string;
    path: string;
    hits: number;
    status: Partial<Record<StatusClass, number>>;
    rule: { line: number; pattern: string };
  }[];
  topPages: { path: string; hits: number; crawlers: string[] }[];
  neverCrawled: string[];
  /**
   * Answer presence joined with the logs: per assistant, the pages its answers cited, how many of
   * them its crawlers fetched (verified hits in the period), which they did not, and how many
   * pages they fetched in all.
   */
  answers: {
    assistant: string;
    crawlers: string[];
    cited: number;
    citedAndFetched: number;
    citedNotFetched: string[];
    fetched: number;
  }[];
}

const DAY_MS = 86_400_000;

function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

const zeroVerdicts = (): Record<Verdict, number> => ({ verified: 0, spoofed: 0, unverifiable: 0 });

/** Verified hits of one crawler on one path over a period, by status class. */
export type CrawledPages = Map<
  string,
  Map<string, { hits: number; status: Partial<Record<StatusClass, number>> }>
>;

/**
 * The report of a site's aggregates without its robots.txt (`disallowed` is empty), and the paths
 * each crawler's verified hits fetched in the report's period (what report.ts judges against the
 * robots.txt).
 */
export function logFigures(
  agg: Aggregates,
  ctx: FiguresContext = {},
): { report: LogReport; pages: CrawledPages } {
  const allDays = Object.keys(agg.days).sort();
  const report: LogReport = {
    period: null,
    totals: zeroVerdicts(),
    crawlers: [],
    products: [],
    spoofed: [],
    disallowed: [],
    topPages: [],
    neverCrawled: [],
    answers: [],
  };
  const pagesByCrawler: CrawledPages = new Map();
  if (!allDays.length) return { report, pages: pagesByCrawler };
  const to = allDays[allDays.length - 1];
  const span = Math.max(1, ctx.days ?? 30);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (span - 1) * DAY_MS).toISOString().slice(
    0,
    10,
  );
  const days = daysBetween(from < allDays[0] ? allDays[0] : from, to);
  report.period = { from: days[0], to, days: days.length };

  // Per crawler, over the period.
  const per = new Map<string, CrawlerDay[]>();
  for (const day of days) {
    for (const [token, d] of Object.entries(agg.days[day] ?? {})) {
      const list = per.get(token) ?? [];
      list.push(d);
      per.set(token, list);
    }
  }
  for (const c of CRAWLERS) {
    const list = per.get(c.token);
    if (!list) continue;
    const f: CrawlerFigures = {
      token: c.token,
      vendor: c.vendor,
      purpose: c.purpose,
      hits: zeroVerdicts(),
      perDay: days.map((day) => ({ day, verified: agg.days[day]?.[c.token]?.hits.verified ?? 0 })),
      distinctPages: 0,
      pathsDropped: 0,
      status: Object.fromEntries(STATUS_CLASSES.map((s) => [s, 0])) as Record<StatusClass, number>,
      bytes: 0,
      firstSeen: null,
      lastSeen: null,
      basis: {},
      unverifiable: {},
    };
    const pages = new Map<string, { hits: number; status: Partial<Record<StatusClass, number>> }>();
    let first = 0, last = 0;
    for (const d of list) {
      for (const v of VERDICTS) f.hits[v] += d.hits[v];
      for (const [s, n] of Object.entries(d.status.verified)) f.status[s as StatusClass] += n ?? 0;
      f.bytes += d.bytes.verified;
      for (const [b, n] of Object.entries(d.basis)) {
        f.basis[b as Basis] = (f.basis[b as Basis] ?? 0) + (n ?? 0);
      }
      for (const [w, n] of Object.entries(d.unverifiable)) {
        f.unverifiable[w] = (f.unverifiable[w] ?? 0) + n;
      }
      if (d.first && (!first || d.first < first)) first = d.first;
      if (d.last > last) last = d.last;
      f.pathsDropped += d.pathsDropped;
      for (const [p, pc] of Object.entries(d.paths)) {
        const known = pages.get(p) ?? { hits: 0, status: {} };
        known.hits += pc.hits;
        for (const [s, n] of Object.entries(pc.status)) {
          known.status[s as StatusClass] = (known.status[s as StatusClass] ?? 0) + (n ?? 0);
        }
        pages.set(p, known);
      }
    }
    f.distinctPages = pages.size;
    f.firstSeen = first ? new Date(first).toISOString() : null;
    f.lastSeen = last ? new Date(last).toISOString() : null;
    for (const v of VERDICTS) report.totals[v] += f.hits[v];
    report.crawlers.push(f);
    pagesByCrawler.set(c.token, pages);
  }

  // Grouped by vendor.
  for (const f of report.crawlers) {
    let g = report.products.find((p) => p.vendor === f.vendor);
    if (!g) report.products.push(g = { vendor: f.vendor, tokens: [], hits: zeroVerdicts() });
    g.tokens.push(f.token);
    for (const v of VERDICTS) g.hits[v] += f.hits[v];
  }

  // Spoofed hits and their networks.
  for (const f of report.crawlers) {
    if (!f.hits.spoofed) continue;
    const nets = new Map<string, number>();
    for (const d of per.get(f.token) ?? []) {
      for (const [n, c] of Object.entries(d.networks)) nets.set(n, (nets.get(n) ?? 0) + c);
    }
    report.spoofed.push({
      token: f.token,
      hits: f.hits.spoofed,
      networks: [...nets].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20)
        .map(([network, hits]) => ({ network, hits })),
    });
  }

  // Pages most crawled (verified, all crawlers), and important pages never crawled.
  const all = new Map<string, { hits: number; crawlers: Set<string> }>();
  for (const [token, pages] of pagesByCrawler) {
    for (const [path, pc] of pages) {
      const e = all.get(path) ?? { hits: 0, crawlers: new Set() };
      e.hits += pc.hits;
      e.crawlers.add(token);
      all.set(path, e);
    }
  }
  report.topPages = [...all].sort((a, b) => b[1].hits - a[1].hits || (a[0] < b[0] ? -1 : 1))
    .slice(0, 20).map(([path, e]) => ({ path, hits: e.hits, crawlers: [...e.crawlers].sort() }));
  const important = [...new Set(["/", ...(ctx.importantPages ?? [])])];
  report.neverCrawled = important.filter((p) => !all.has(p)).slice(0, 50);

  // Answer presence: pages each assistant cited against pages its crawlers fetched.
  for (const a of ctx.cited ?? []) {
    const fetched = new Set<string>();
    for (const token of a.crawlers) {
      for (const p of pagesByCrawler.get(token)?.keys() ?? []) fetched.add(p);
    }
    const cited = [...new Set(a.paths)];
    const notFetched = cited.filter((p) => !fetched.has(p));
    report.answers.push({
      assistant: a.assistant,
      crawlers: a.crawlers,
      cited: cited.length,
      citedAndFetched: cited.length - notFetched.length,
      citedNotFetched: notFetched.slice(0, 20),
      fetched: fetched.size,
    });
  }
  return { report, pages: pagesByCrawler };
}

/**
 * The matrix's "observed in logs" cell of a crawler (the report's AI products section shows it
 * beside the crawler's verdict, lib/features/visibility/views/report_products.tsx).
 */
function observedCell(report: LogReport, token: string): string {
  const f = report.crawlers.find((c) => c.token === token);
  if (!f) return report.period ? "not seen" : "no logs";
  const parts: string[] = [];
  if (f.hits.verified) {
    const mix = STATUS_CLASSES.filter((s) => f.status[s]).map((s) => `${s} ${f.status[s]}`).join(
      ", ",
    );
    parts.push(`${f.hits.verified} verified (${mix})`);
  }
  if (f.hits.spoofed) parts.push(`${f.hits.spoofed} spoofed`);
  if (f.hits.unverifiable) parts.push(`${f.hits.unverifiable} unverifiable`);
  return parts.join("; ");
}

/**
 * The matrix's observed column of a report (lib/service.ts ObservedColumn): a cell for every
 * registry crawler, `href` being where the account's logs report is; null without any crawler hit.
 */
export function observedColumn(
  report: LogReport,
  href: string,
): { period: { from: string; to: string }; cells: Record<string, string>; href: string } | null {
  if (!report.period) return null;
  const cells: Record<string, string> = {};
  for (const c of CRAWLERS) cells[c.token] = observedCell(report, c.token);
  return { period: { from: report.period.from, to: report.period.to }, cells, href };
}
