/**
 * The history part of a report page: what changed against the previous scan of the same target
 * (lib/engines/history/diff.ts, in plain words), the score trend (lib/features/history/views/trend_chart.tsx) and the list of
 * kept scans, each linking to its permanent page. Server-rendered; no script.
 */
import type { VNode } from "preact";
import type { ScanDiff } from "../../../engines/history/diff.ts";
import type { HistoryItem } from "../../../engines/history/service.ts";
import { changesJsonPath, historyJsonPath } from "../../../kit/report_urls.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { TrendChart } from "./trend_chart.tsx";

/** Kept scans listed on the page (the JSON lists them all). */
const LISTED = 20;

function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

/** What changed since the previous scan, in words and lists. */
export function ReportChanges(
  props: { domain: string; diff: ScanDiff | null; currentId: string | null },
): VNode | null {
  const d = props.diff;
  if (!d) return null;
  const moved = d.pillars.filter((p) => p.change !== 0);
  // The schema service has no score: its rows are counts (items, errors, warnings).
  const counts = d.from.score === null && d.to.score === null;
  const better = (p: ScanDiff["pillars"][number]) =>
    p.id === "errors" || p.id === "warnings" ? p.change < 0 : p.change > 0;
  return (
    <section class="card report-changes" aria-labelledby="changes-title">
      <h2 id="changes-title">What changed since the previous scan</h2>
      <p class="muted">
        Compared with the scan of <LocalTime iso={d.from.scannedAt} />.{" "}
        <a href={changesJsonPath(props.domain, d.from.id ?? undefined, d.to.id ?? undefined)}>
          As JSON
        </a>
      </p>
      <ul class="change-summary">
        {d.summary.map((s) => <li key={s}>{s}</li>)}
      </ul>
      {d.regression && (
        <p class="notice">
          <strong>Regression:</strong> {d.regressionReasons.join("; ")}.
        </p>
      )}
      {moved.length > 0 && (
        // Three columns ("before → now" in one), so the table fits a 320 px screen.
        <div class="table-wrap">
          <table class="change-table">
            <caption>{counts ? "Counts" : "Each pillar"}</caption>
            <thead>
              <tr>
                <th scope="col">{counts ? "What" : "Pillar"}</th>
                <th scope="col">Before → now</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {d.pillars.map((p) => (
                <tr key={p.id}>
                  <th scope="row">{p.title}</th>
                  <td class="num">
                    {p.from === null ? "–" : Math.round(p.from)} →{" "}
                    {p.to === null ? "–" : Math.round(p.to)}
                  </td>
                  <td class={`num ${p.change === 0 ? "" : better(p) ? "up" : "down"}`}>
                    {p.change === 0 ? "=" : signed(Math.round(p.change * 10) / 10)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {d.fixed.length > 0 && (
        <>
          <h3>Fixed</h3>
          <ul class="change-list fixed">
            {d.fixed.map((i) => <li key={i.id}>{i.title}{i.pillar ? ` (${i.pillar})` : ""}</li>)}
          </ul>
        </>
      )}
      {d.new.length > 0 && (
        <>
          <h3>New issues</h3>
          <ul class="change-list new">
            {d.new.map((i) => (
              <li key={i.id}>
                {i.title}
                {i.pillar ? ` (${i.pillar})` : ""}
                {i.impact === "critical" ? ": critical" : ""}
              </li>
            ))}
          </ul>
        </>
      )}
      {d.changed.length > 0 && (
        <>
          <h3>Other verdicts that changed</h3>
          <ul class="change-list">
            {d.changed.map((c) => <li key={c.id}>{c.title}: {c.from} before, {c.to} now</li>)}
          </ul>
        </>
      )}
    </section>
  );
}

/** The score trend and the kept scans, newest first, with links. */
export function ReportHistory(
  props: { domain: string; scans: HistoryItem[]; currentId: string | null },
): VNode | null {
  const { scans } = props;
  if (scans.length < 2) return null;
  const points = scans.filter((s) => s.score !== null).map((s) => ({
    scannedAt: s.scannedAt,
    score: s.score!,
  })).reverse();
  return (
    <section class="card report-history" aria-labelledby="history-title">
      <h2 id="history-title">Earlier scans</h2>
      <TrendChart points={points} />
      <ol class="history-list">
        {scans.slice(0, LISTED).map((s) => (
          <li key={s.id}>
            {s.id === props.currentId
              ? (
                <strong>
                  <LocalTime iso={s.scannedAt} /> (this scan)
                </strong>
              )
              : (
                <a href={s.page}>
                  <LocalTime iso={s.scannedAt} />
                </a>
              )}
            {": "}
            {s.status === "failed"
              ? "failed"
              : s.score === null
              ? `${s.issues ?? 0} issues`
              : `${Math.round(s.score)}/100${s.grade ? `, grade ${s.grade}` : ""}`}
            {s.url ? ` (${s.url})` : ""}
          </li>
        ))}
      </ol>
      <p class="muted">
        {scans.length > LISTED
          ? `${scans.length} scans kept; the ${LISTED} newest are listed. `
          : ""}
        <a href={historyJsonPath(props.domain)}>Every kept scan as JSON</a>
      </p>
    </section>
  );
}
