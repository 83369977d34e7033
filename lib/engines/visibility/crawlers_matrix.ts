/**
 * The crawler matrix of a scan: for each crawler of the registry, what robots.txt tells it about
 * the home page, what the site declares for the crawler's purpose (usage_prefs.ts), and what the
 * site's edge answered our probe with its User-Agent (edge_probe.ts), next to the registry entry's
 * source and the day it was checked. Computed once per scan context.
 */
import type { ScanContext } from "./check.ts";
import { CRAWLERS } from "./crawlers.ts";
import { type EdgeAnswer, edgeAnswer, isRefusal, refusedOutright } from "./edge_probe.ts";
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
  const rows: CrawlerRow[] = CRAWLERS.map((c) => {
    const access = ctx.robots.crawlers.find((a) => a.token === c.token);
    const purpose = purposeOfRole(c.role);
    const pref = purpose ? preferenceFor(prefs, parsed, c.token, purpose) : null;
    const answer = answers.get(c.token);
    const name = PURPOSES.find((p) => p.id === purpose)?.name.split(" (")[0] ?? "";
    return {
      token: c.token,
      vendor: c.vendor,
      purpose: c.purpose,
      robots: ctx.robots.state === "unreachable"
        ? "unknown"
        : access?.allowed
        ? "allowed"
        : "blocked",
      preference: pref && pref.allowed !== null ? `${pref.allowed ? "yes" : "no"}: ${name}` : null,
      edge: answer ? answer.detail : null,
      edgeRefused: !answer || answer.kind === "failed" || scannerRefused ? null : isRefusal(answer),
      docs: c.url,
      ipRanges: c.ipRanges ?? null,
      checked: c.checked,
    };
  });
  const matrix = { rows, answers, browser: browserAnswer, scannerRefused, prefs, parsed };
  cache.set(ctx, matrix);
  return matrix;
}
