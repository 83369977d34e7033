/**
 * Watch alerts from a site's server-log aggregates (lib/features/logs/, handed in by the composition
 * root as {@link WatchDeps.logSeries}): once a day, when a watch runs, its account's daily crawler
 * counts of the site are checked against two rules, and a rule that newly holds sends an alert to
 * the watch's webhook (a "watch.logs" event). Counts only ever come from verified hits: an
 * impostor refused is the edge doing its job.
 *
 * The rules, on the last day of the logs D (a "covered" day is one with a hit of any crawler in
 * the logs: a day without a single crawler line cannot be told from a day whose log was never
 * sent, so it never counts as a crawler's absence):
 *
 * - **Refusals jump**: over the 14 days before the last 3 (D-16 to D-3) the crawler had at least
 *   20 verified hits, a share `b` of them answered 403 or 429; on at least 2 of the last 3 days
 *   (D-2 to D) it had at least 10 verified hits and a refused share of at least `b` + 25 points.
 * - **A verified crawler stops coming**: it had verified hits on at least 7 of the 14 days before,
 *   and none on each of the last 3 days, all 3 covered.
 *
 * No alert rests on one day: the first needs 2 of 3 days, the second 3 of 3. An alert is sent when
 * its rule starts to hold, not again while it goes on holding (the rules holding are kept on the
 * watch).
 */
import type { Watch } from "./store_types.ts";

/** One crawler on one day: verified hits, and how many of them were answered 403 or 429. */
export interface CrawlerDayCounts {
  verified: number;
  refused: number;
}

/** A site's daily crawler counts: day (YYYY-MM-DD, UTC) -> crawler token -> counts. */
export type DailyCrawlerCounts = Record<string, Record<string, CrawlerDayCounts>>;

/** The thresholds of the rules (docs/watch.md). */
export const LOG_RULES = {
  recentDays: 3,
  baselineDays: 14,
  refusals: { baselineHits: 20, dayHits: 10, jump: 0.25, days: 2 },
  stopped: { baselineDays: 7 },
} as const;

/** A rule that holds. */
export interface LogAlert {
  /** `refusals:<token>` or `stopped:<token>`. */
  key: string;
  kind: "refusals_jump" | "crawler_stopped";
  crawler: string;
  /** One sentence. */
  text: string;
}

const DAY_MS = 86_400_000;
const dayBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The rules that hold on these counts (none without enough days of logs). */
export function logAlerts(counts: DailyCrawlerCounts): LogAlert[] {
  const days = Object.keys(counts).sort();
  if (!days.length) return [];
  const last = days[days.length - 1];
  const { recentDays, baselineDays } = LOG_RULES;
  const recent = Array.from({ length: recentDays }, (_, i) => dayBefore(last, recentDays - 1 - i));
  const baseline = Array.from(
    { length: baselineDays },
    (_, i) => dayBefore(last, recentDays + baselineDays - 1 - i),
  );
  const covered = (day: string) => Object.keys(counts[day] ?? {}).length > 0;
  const tokens = new Set(days.flatMap((d) => Object.keys(counts[d])));
  const out: LogAlert[] = [];
  for (const token of [...tokens].sort()) {
    const at = (day: string) => counts[day]?.[token] ?? { verified: 0, refused: 0 };
    const base = baseline.map(at);
    const baseHits = base.reduce((n, c) => n + c.verified, 0);
    const baseRefused = base.reduce((n, c) => n + c.refused, 0);
    const r = LOG_RULES.refusals;
    if (baseHits >= r.baselineHits) {
      const share = baseRefused / baseHits;
      const jumped = recent.map(at).filter((c) =>
        c.verified >= r.dayHits && c.refused / c.verified >= share + r.jump
      );
      if (jumped.length >= r.days) {
        const shares = jumped.map((c) => c.refused / c.verified);
        const low = pct(Math.min(...shares)), high = pct(Math.max(...shares));
        out.push({
          key: `refusals:${token}`,
          kind: "refusals_jump",
          crawler: token,
          text: `${token}: on ${jumped.length} of the last ${recentDays} days of your logs, ${
            low === high ? low : `${low}-${high}`
          } of its verified hits were refused (403 or 429), against ${
            pct(share)
          } over the ${baselineDays} days before.`,
        });
      }
    }
    const cameOn = base.filter((c) => c.verified > 0).length;
    if (
      cameOn >= LOG_RULES.stopped.baselineDays && recent.every(covered) &&
      recent.every((d) => at(d).verified === 0)
    ) {
      out.push({
        key: `stopped:${token}`,
        kind: "crawler_stopped",
        crawler: token,
        text:
          `${token} came (verified) on ${cameOn} of the ${baselineDays} days before, and not on any of the last ${recentDays} days of your logs (other crawlers did, so the logs cover them).`,
      });
    }
  }
  return out;
}

/** What a watch keeps of its log rules: the day last checked and the rules then holding. */
export type WatchLogState = NonNullable<Watch["logAlerts"]>;

/**
 * The check of one day: the alerts to send (rules that hold now and did not at the last check)
 * and the state to keep; null when the watch was already checked that day.
 */
export function checkLogDay(
  previous: WatchLogState | undefined,
  counts: DailyCrawlerCounts,
  today: string,
): { send: LogAlert[]; state: WatchLogState } | null {
  if (previous?.checkedDay === today) return null;
  const holding = logAlerts(counts);
  const before = new Set(previous?.holding ?? []);
  return {
    send: holding.filter((a) => !before.has(a.key)),
    state: { checkedDay: today, holding: holding.map((a) => a.key) },
  };
}
