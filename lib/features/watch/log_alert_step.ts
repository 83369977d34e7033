/**
 * The watch scheduler's step for server logs (lib/features/watch/log_alerts.ts has the rules): for a
 * watch that is due, once a UTC day, its account's daily crawler counts of the site are checked,
 * the rules holding kept on the watch, and those that started to hold sent to its webhook as one
 * "watch.logs" delivery, in the same commit.
 */
import { accountSiteLogsPath, reportPagePath } from "../../kit/report_urls.ts";
import type { WatchDeps } from "./context.ts";
import { newDelivery } from "./delivery.ts";
import { feedPath } from "./feed.ts";
import { checkLogDay } from "./log_alerts.ts";
import { regressionEvent } from "./payload.ts";

/** Checks one due watch's logs; returns the alerts sent (0 or more, in one delivery). */
export async function checkWatchLogs(
  deps: WatchDeps,
  accountId: string,
  id: string,
  now: number,
): Promise<number> {
  const entry = await deps.watches.get(accountId, id);
  const w = entry.value;
  if (!w || !deps.logSeries) return 0;
  const today = new Date(now).toISOString().slice(0, 10);
  if (w.logAlerts?.checkedDay === today) return 0;
  const counts = await deps.logSeries(accountId, w.domain);
  const checked = checkLogDay(w.logAlerts, counts, today);
  if (!checked) return 0;
  const delivery = checked.send.length
    ? newDelivery(
      w,
      {
        ...regressionEvent({
          type: "watch.logs",
          id: crypto.randomUUID(),
          now,
          service: deps.service.name,
          watch: w,
          from: null,
          to: null,
          regressions: [],
          diff: null,
          links: {
            report: `${deps.origin}${accountSiteLogsPath(w.domain)}`,
            changes: `${deps.origin}${reportPagePath(w.domain)}`,
            feed: `${deps.origin}${feedPath(w.domain)}`,
          },
        }),
        logs: checked.send.map((a) => ({ kind: a.kind, crawler: a.crawler, text: a.text })),
      },
      now,
    )
    : null;
  if (checked.send.length) {
    deps.log({
      event: "watch.logs_alert",
      watchId: w.id,
      domain: w.domain,
      kinds: checked.send.map((a) => a.kind),
    });
  }
  const saved = await deps.watches.save(
    entry,
    { ...w, logAlerts: checked.state },
    delivery ? (op) => deps.watches.addDelivery(op, delivery) : undefined,
  );
  return saved ? checked.send.length : 0;
}
