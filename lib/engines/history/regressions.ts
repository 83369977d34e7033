/**
 * What counts as a regression worth an alert, between the scan a watch saw last and a newer one of
 * the same target. Built on lib/engines/history/diff.ts (the score, the grade, the new issues) with the
 * facts a site owner acts on at once: a new gate, a crawler newly blocked, a rich result newly
 * lost. Improvements and unchanged scans are never regressions, so an unchanged site sends nothing.
 *
 * Each kind is one detector in {@link DETECTORS}; crawler access is read from a list of sources
 * ({@link CRAWLER_ACCESS_SOURCES}: robots.txt, the site's declared AI usage preferences and the
 * edge probe), so a new source of the same fact is one more entry, not a new detector.
 */
import { diffRecords, type ScanDiff } from "./diff.ts";
import type { BaseRecord } from "../../kit/storage/store_types.ts";

/** The kinds of regression, most serious first. */
export type RegressionKind =
  | "scan_failed"
  | "crawler_blocked"
  | "new_gate"
  | "new_critical"
  | "rich_result_lost"
  | "grade_drop"
  | "score_drop";

/** One regression, in plain words. */
export interface Regression {
  kind: RegressionKind;
  /** One sentence saying what got worse. */
  text: string;
  /** The checks, crawlers or features concerned (ids or names). */
  subjects: string[];
}

/** Options of {@link findRegressions}. */
export interface RegressionOptions {
  /** A score drop smaller than this (points) is not a regression by itself. Default 1. */
  minScoreDrop?: number;
  /**
   * The scan before `to` was also slower than `from` (a watch remembers it): a timing-only drop
   * has persisted two scans in a row and is a regression.
   */
  timingPersisted?: boolean;
}

/**
 * The signals that measure time (their verdicts move with the network and our own load): a drop
 * they alone explain is a regression only when it persists two scans in a row, or when the time
 * got worse past {@link TIMING_MARGIN_MS} into the slow band.
 */
export const TIMING_SIGNALS = ["technical.response_time"] as const;
/** A median first byte this much slower than before, and now slow (a failing verdict), alerts at once. */
export const TIMING_MARGIN_MS = 1000;

/** One row of the crawler matrix (lib/engines/visibility/record.ts `CrawlerRow`), as far as read here. */
interface CrawlerRow {
  token: string;
  purpose: string;
  robots: string;
  /** The one access verdict (records made since 2026-12). */
  state?: string;
  /** False: shown, not verified on its vendor's page (never counted, never alerted). */
  counts?: boolean;
  preference: string | null;
  edgeRefused: boolean | null;
}
interface Signal {
  id: string;
  title: string;
  status: string;
  points?: number;
  evidence?: string[];
  gate: { id: string; cap: number } | null;
  crawlers?: CrawlerRow[];
}
interface VisibilityResult {
  score: number;
  grade: string;
  pillars: { signals: Signal[] }[];
}
interface Eligibility {
  type: string;
  feature: string;
  status: string;
}

/** Whether one crawler may read the site, as one source says. */
export type CrawlerAccess = "allowed" | "blocked";

/**
 * One place that says whether crawlers may read the site. `read` returns null when the source
 * was not observed in this scan (e.g. robots.txt timed out): nothing is compared then.
 */
export interface CrawlerAccessSource {
  id: string;
  /** How a sentence names it: "robots.txt now blocks ...". */
  label: string;
  /** The sentence, when "<label> now blocks <crawlers>." does not read right. */
  sentence?: (crawlers: string) => string;
  read(result: VisibilityResult): Map<string, CrawlerAccess> | null;
}

function signalsOf(result: VisibilityResult): Map<string, Signal> {
  const out = new Map<string, Signal>();
  for (const p of result.pillars ?? []) for (const s of p.signals ?? []) out.set(s.id, s);
  return out;
}

/**
 * robots.txt's verdict per crawler whose block hides the site from AI answers (search and
 * user-triggered fetchers; training crawlers are a choice): from the crawler rows' `robots` column,
 * or, in records made before the rows carried the one access verdict, from the evidence lines
 * "<token>: allowed|blocked ..." of the search and user-fetcher signals.
 */
const robotsSource: CrawlerAccessSource = {
  id: "robots",
  label: "robots.txt",
  read(result) {
    const rows = answerCrawlers(result);
    if (rows?.some((r) => r.state)) {
      const judged = rows.filter((r) => r.robots === "allowed" || r.robots === "blocked");
      return judged.length
        ? new Map(judged.map((r) => [r.token, r.robots as CrawlerAccess]))
        : null;
    }
    const signals = signalsOf(result);
    const out = new Map<string, CrawlerAccess>();
    let observed = false;
    for (const id of ["access.search_crawlers", "access.user_fetchers"]) {
      const s = signals.get(id);
      if (!s || s.status === "unknown" || s.status === "na") continue;
      observed = true;
      for (const line of s.evidence ?? []) {
        const m = line.match(/^([A-Za-z0-9._-]+): (allowed|blocked)\b/);
        if (m) out.set(m[1], m[2] as CrawlerAccess);
      }
    }
    return observed ? out : null;
  },
};

/**
 * The crawlers whose block hides the site from AI answers (search and user-triggered fetchers),
 * from the crawler matrix on `access.edge`; training crawlers are the owner's choice.
 */
function answerCrawlers(result: VisibilityResult): CrawlerRow[] | null {
  const rows = signalsOf(result).get("access.edge")?.crawlers;
  // Crawlers shown but not verified on their vendors' pages never alert.
  return rows
    ? rows.filter((r) => (r.purpose === "search" || r.purpose === "user") && r.counts !== false)
    : null;
}

/**
 * The edge probe: each AI search and user-triggered crawler's User-Agent refused (or not) by the
 * site's CDN or firewall, from the crawler matrix. A record without the matrix (kept from before
 * it existed) reads the signal: failed means OAI-SearchBot's User-Agent was refused.
 */
const edgeSource: CrawlerAccessSource = {
  id: "edge",
  label: "the CDN or firewall",
  read(result) {
    const rows = answerCrawlers(result);
    if (rows) {
      const probed = rows.filter((r) => r.edgeRefused !== null);
      return probed.length
        ? new Map(probed.map((r) => [r.token, r.edgeRefused ? "blocked" : "allowed"]))
        : null;
    }
    const s = signalsOf(result).get("access.edge");
    if (!s || (s.status !== "pass" && s.status !== "fail")) return null;
    return new Map([["OAI-SearchBot", s.status === "fail" ? "blocked" : "allowed"]]);
  },
};

/**
 * The site's declared AI usage preferences (Content-Signal lines, Content-Usage) for the purpose
 * of each AI search and user-triggered crawler: "no" for its purpose blocks it, no preference or
 * "yes" leaves it allowed. Not observed when robots.txt could not be read (the matrix says
 * "unknown" for every crawler), since most preferences are written there.
 */
const preferencesSource: CrawlerAccessSource = {
  id: "preferences",
  label: "the site's declared AI usage preferences",
  sentence: (crawlers) =>
    `The site's declared AI usage preferences now say no to the purpose of ${crawlers}.`,
  read(result) {
    const rows = answerCrawlers(result);
    if (!rows?.length || rows.every((r) => r.robots === "unknown")) return null;
    return new Map(
      rows.map((r) => [r.token, r.preference?.startsWith("no") ? "blocked" : "allowed"]),
    );
  },
};

/** Every source of crawler access the alert compares. */
export const CRAWLER_ACCESS_SOURCES: CrawlerAccessSource[] = [
  robotsSource,
  preferencesSource,
  edgeSource,
];

const GRADES = ["A", "B", "C", "D", "F"];

interface Context {
  from: BaseRecord;
  to: BaseRecord;
  diff: ScanDiff;
  options: Required<RegressionOptions>;
  found: Regression[];
  /** Regressions held back: a timing-only drop seen once (see {@link TIMING_SIGNALS}). */
  held: Regression[];
}

/** The median first byte a response_time signal's evidence states, or null. */
function medianMs(s: Signal | undefined): number | null {
  const m = s?.evidence?.map((e) => e.match(/^median first byte: (\d+) ms/)).find(Boolean);
  return m ? Number(m[1]) : null;
}

/**
 * Whether the score drop is timing's alone: every signal that lost points measures time, and the
 * slowdown is not past the margin into the slow band. Such a drop waits for a second scan.
 */
function timingOnly(c: Context): boolean {
  const a = visibility(c.from);
  const b = visibility(c.to);
  if (!a || !b) return false;
  const before = signalsOf(a);
  const lost = [...signalsOf(b).values()].filter((s) => {
    const was = before.get(s.id);
    return was && (s.points ?? 0) < (was.points ?? 0);
  });
  if (!lost.length || !lost.every((s) => (TIMING_SIGNALS as readonly string[]).includes(s.id))) {
    return false;
  }
  return lost.every((s) => {
    const now = medianMs(s);
    const then = medianMs(before.get(s.id));
    const pastMargin = s.status === "fail" && now !== null &&
      (then === null || now - then >= TIMING_MARGIN_MS);
    return !pastMargin;
  });
}

function visibility(record: BaseRecord): VisibilityResult | null {
  const r = record.result as Partial<VisibilityResult> | null;
  return r && Array.isArray(r.pillars) ? r as VisibilityResult : null;
}

function eligibility(record: BaseRecord): Eligibility[] | null {
  const r = record.result as { eligibility?: Eligibility[] } | null;
  return r && Array.isArray(r.eligibility) ? r.eligibility : null;
}

function names(list: string[], max = 6): string {
  const shown = list.slice(0, max).join(", ");
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/** The detectors, in the order their sentences are listed. */
const DETECTORS: ((c: Context) => void)[] = [
  function scanFailed(c) {
    if (c.from.status === "ok" && c.to.status === "failed") {
      c.found.push({
        kind: "scan_failed",
        text: "The scan failed where the one before worked: the site could not be read.",
        subjects: [],
      });
    }
  },
  function crawlerBlocked(c) {
    const a = visibility(c.from);
    const b = visibility(c.to);
    if (!a || !b) return;
    for (const source of CRAWLER_ACCESS_SOURCES) {
      const before = source.read(a);
      const after = source.read(b);
      if (!before || !after) continue;
      const newly = [...after].filter(([token, v]) =>
        v === "blocked" && before.get(token) === "allowed"
      )
        .map(([token]) => token);
      if (newly.length) {
        c.found.push({
          kind: "crawler_blocked",
          text: source.sentence?.(names(newly)) ?? `${source.label} now blocks ${names(newly)}.`,
          subjects: newly,
        });
      }
    }
  },
  function newGate(c) {
    const a = visibility(c.from);
    const b = visibility(c.to);
    if (!a || !b) return;
    const before = signalsOf(a);
    const gates = [...signalsOf(b).values()].filter((s) =>
      s.gate && s.status === "fail" &&
      !(before.get(s.id)?.gate && before.get(s.id)?.status === "fail")
    );
    if (gates.length) {
      c.found.push({
        kind: "new_gate",
        text: `New score cap: ${
          gates.map((s) => `${s.title} (at most ${s.gate!.cap})`).join("; ")
        }.`,
        subjects: gates.map((s) => s.id),
      });
    }
  },
  function newCritical(c) {
    const gated = new Set(c.found.filter((r) => r.kind === "new_gate").flatMap((r) => r.subjects));
    const critical = c.diff.new.filter((i) =>
      (i.impact === "critical" || i.status === "error") && !gated.has(i.id)
    );
    if (critical.length) {
      c.found.push({
        kind: "new_critical",
        text: `New critical issue${critical.length > 1 ? "s" : ""}: ${
          names(critical.map((i) => i.title), 5)
        }.`,
        subjects: critical.map((i) => i.id),
      });
    }
  },
  function richResultLost(c) {
    const a = eligibility(c.from);
    const b = eligibility(c.to);
    if (!a || !b) return;
    const key = (e: Eligibility) => `${e.type}: ${e.feature}`;
    const ok = (e: Eligibility) => e.status !== "not eligible";
    const was = new Set(a.filter(ok).map(key));
    const still = new Set(b.filter(ok).map(key));
    const lost = [...was].filter((k) => !still.has(k));
    if (lost.length) {
      c.found.push({
        kind: "rich_result_lost",
        text: `No longer eligible for ${names(lost)}.`,
        subjects: lost,
      });
    }
  },
  function gradeDrop(c) {
    const { from, to } = c.diff;
    const i = GRADES.indexOf(from.grade ?? "");
    const j = GRADES.indexOf(to.grade ?? "");
    if (i >= 0 && j > i) {
      (timingOnly(c) && !c.options.timingPersisted ? c.held : c.found).push({
        kind: "grade_drop",
        text: `The grade went from ${from.grade} to ${to.grade}.`,
        subjects: [],
      });
    }
  },
  function scoreDrop(c) {
    const { from, to, scoreChange } = c.diff;
    if (scoreChange === null || -scoreChange < c.options.minScoreDrop) return;
    (timingOnly(c) && !c.options.timingPersisted ? c.held : c.found).push({
      kind: "score_drop",
      text: `The score dropped from ${Math.round(from.score!)} to ${Math.round(to.score!)} (${
        Math.round(scoreChange * 10) / 10
      }).`,
      subjects: [],
    });
  },
];

/**
 * The regressions of `to` against `from` (two scans of the same target), with the diff they were
 * read from. An empty list means nothing got worse. `held`: a score or grade drop that timing
 * alone explains, seen for the first time: not a regression yet (a watch keeps its baseline and
 * alerts if the next scan is still slower, passing `timingPersisted`).
 */
export function findRegressions(
  from: BaseRecord,
  to: BaseRecord,
  options: RegressionOptions = {},
): { diff: ScanDiff; regressions: Regression[]; held: Regression[] } {
  const diff = diffRecords(from, to);
  const c: Context = {
    from,
    to,
    diff,
    options: {
      minScoreDrop: options.minScoreDrop ?? 1,
      timingPersisted: options.timingPersisted ?? false,
    },
    found: [],
    held: [],
  };
  for (const detect of DETECTORS) detect(c);
  return { diff, regressions: c.found, held: c.held };
}
