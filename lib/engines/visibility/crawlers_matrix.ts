/**
 * The crawler matrix of a scan, which is the one model of access (issue 40): for each crawler of
 * the registry, what robots.txt tells it about the home page (with the deciding line), what the
 * home page's robots meta tags and X-Robots-Tag header tell it (search crawlers: a noindex for all
 * robots or for its token), what the site's edge answered our probe with its User-Agent
 * (edge_probe.ts), and what the site declares for the crawler's purpose (usage_prefs.ts; shown,
 * never scored), combined into one verdict: open, refused (with every cause), or unknown. The
 * search and user-fetcher signals score that verdict; the report groups it by AI product
 * (access_model.ts). Computed once per scan context.
 */
import type { ScanContext } from "./check.ts";
import { CRAWLERS } from "./crawlers.ts";
import {
  type EdgeAnswer,
  edgeAnswer,
  edgeStateOf,
  isRefusal,
  refusedOutright,
} from "./edge_probe.ts";
import {
  describeDirective,
  forbidsIndexing,
  readDirectives,
  type RobotsDirective,
  xRobotsTagLines,
} from "./directives.ts";
import type { CrawlerRow } from "./record.ts";
import { robotsFile } from "./robots.ts";
import {
  preferenceFor,
  purposeOfRole,
  PURPOSES,
  readUsagePreferences,
  type UsagePreferences,
} from "./usage_prefs.ts";
import type { ParsedRobotsTxt } from "./robots.ts";

/** What the matrix is built from, kept for the signals that read it. */
export interface CrawlerMatrix {
  rows: CrawlerRow[];
  /** Each probed crawler's answer, by token. */
  answers: Map<string, EdgeAnswer>;
  /** The browser-like probe's own answer. */
  browser: EdgeAnswer;
  /**
   * The edge refused the scanner as a whole: the browser-like probe and every crawler probe that
   * was answered. Nothing is then said about the crawlers.
   */
  scannerRefused: boolean;
  prefs: UsagePreferences;
  parsed: ParsedRobotsTxt | null;
}

const cache = new WeakMap<ScanContext, CrawlerMatrix>();

/** The parsed robots.txt of the scan when it holds rules (null: missing, unreadable, not a file). */
export function scanRobots(ctx: ScanContext): ParsedRobotsTxt | null {
  const out = ctx.snapshot.robots;
  return ctx.robots.state === "ok" && out.ok ? robotsFile(out.result.body) : null;
}

/** The matrix of a scan. */
export function crawlerMatrix(ctx: ScanContext): CrawlerMatrix {
  const known = cache.get(ctx);
  if (known) return known;
  const parsed = scanRobots(ctx);
  const home = ctx.snapshot.home;
  const prefs = readUsagePreferences(parsed, home.ok ? home.result.headers : {});
  const { browser, crawlers } = ctx.snapshot.edge;
  // A browser refused while our own fetch got the page compares against our own fetch.
  const baseline = refusedOutright(browser) || !browser.ok ? home : browser;
  const answers = new Map(crawlers.map((p) => [p.token, edgeAnswer(p.outcome, baseline)]));
  const answered = [...answers.values()].filter((a) => a.kind !== "failed");
  const browserAnswer = edgeAnswer(browser, home);
  const scannerRefused = refusedOutright(browser) && answered.length > 0 &&
    answered.every(isRefusal);
  const directives = home.ok
    ? readDirectives(ctx.facts.metaRobots, xRobotsTagLines(home.result))
    : [];
  const rows: CrawlerRow[] = CRAWLERS.map((c) => {
    const access = ctx.robots.crawlers.find((a) => a.token === c.token);
    const purpose = purposeOfRole(c.role);
    const pref = purpose ? preferenceFor(prefs, parsed, c.token, purpose) : null;
    const answer = answers.get(c.token);
    const name = PURPOSES.find((p) => p.id === purpose)?.name.split(" (")[0] ?? "";
    const robots = ctx.robots.state === "unreachable"
      ? "unknown"
      : access?.allowed
      ? "allowed"
      : "blocked";
    const edgeState = scannerRefused ? "not_measured" : edgeStateOf(answer);
    // Indexing directives concern the crawlers that index (search); a page a user asks about is
    // fetched whatever its noindex says.
    const noindex = c.role === "search" ? noindexFor(directives, c.token) : null;
    const causes = [
      ...(robots === "blocked" ? ["robots"] : []),
      ...(noindex ? ["noindex"] : []),
      ...(edgeState !== "open" && edgeState !== "not_measured" ? [`edge_${edgeState}`] : []),
    ];
    return {
      token: c.token,
      vendor: c.vendor,
      purpose: c.purpose,
      robots,
      preference: pref && pref.allowed !== null ? `${pref.allowed ? "yes" : "no"}: ${name}` : null,
      edge: answer ? answer.detail : null,
      edgeRefused: !answer || answer.kind === "failed" || scannerRefused ? null : isRefusal(answer),
      docs: c.url,
      ipRanges: c.ipRanges ?? null,
      checked: c.checked,
      product: c.product,
      counts: c.counts,
      state: causes.length ? "refused" : robots === "unknown" ? "unknown" : "open",
      causes,
      edgeState,
      robotsLine: robots === "blocked" && access?.line
        ? `line ${access.line}: ${access.lineText ?? ""}`.slice(0, 160)
        : robots === "blocked" && ctx.robots.state === "server_error"
        ? `robots.txt answered HTTP ${ctx.robots.httpStatus}`
        : null,
      directive: noindex ? describeDirective(noindex).slice(0, 160) : null,
    };
  });
  const matrix = { rows, answers, browser: browserAnswer, scannerRefused, prefs, parsed };
  cache.set(ctx, matrix);
  return matrix;
}

/** The noindex (or none) that applies to a crawler: one for all robots, or one naming its token. */
function noindexFor(directives: RobotsDirective[], token: string): RobotsDirective | null {
  const agent = token.toLowerCase();
  return directives.find((d) => forbidsIndexing(d) && (d.agent === "*" || d.agent === agent)) ??
    null;
}

/**
 * The AI search crawlers that count and that the home page lets in (by every path): what the
 * site-level checks ask about. A crawler turned away from the home page is counted once, in the
 * search crawlers' check, so it costs the same whichever path turns it away from the whole site.
 */
export function searchOpenOnHome(ctx: ScanContext): Set<string> {
  const rows = crawlerMatrix(ctx).rows;
  return new Set(
    CRAWLERS.filter((c) => c.counts && c.role === "search").filter((c) =>
      rows.find((r) => r.token === c.token)?.state !== "refused"
    ).map((c) => c.token),
  );
}
