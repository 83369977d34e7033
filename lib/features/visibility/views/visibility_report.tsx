/**
 * The AI Visibility Checker's report page body, from a stored ScanRecord: a list of sections in
 * page order ({@link REPORT_SECTIONS}), each a small component with one job. The first screen
 * answers three questions (report_summary.tsx): how visible is the site, what holds it back most,
 * and what to do first; after a rescan, what changed leads it (report_change_lead.tsx).
 * Everything else is one click away: what changed in full (report_changes.tsx), the remaining
 * fixes in order (report_issues.tsx), the sampled pages (pages_table.tsx), every check by pillar
 * (report_pillars.tsx), the off-site presence (offsite_section.tsx), the badge
 * (badge_section.tsx) and the earlier scans. A new section is one entry of the list. Everything
 * from the record is rendered as text (escaped by Preact).
 */
import { BudgetNote } from "../../../kit/ui/budget_note.tsx";
import type { VNode } from "preact";
import type { Result, ScanRecord } from "../../../engines/visibility/record.ts";
import type { ReportInserts, ReportProps } from "../../../service.ts";
import { capOf } from "../../../engines/visibility/score.ts";
import { timeAgo } from "../../../kit/ui/format.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { ReportSummary, TOP_FIXES } from "./report_summary.tsx";
import { MoreFixes } from "./report_issues.tsx";
import { PillarsSection } from "./report_pillars.tsx";
import { OffSiteSection } from "./offsite_section.tsx";
import { BadgeSection } from "../../../kit/ui/badge_section.tsx";
import { PagesTable } from "./pages_table.tsx";
import { RenderViewSection } from "./render_view.tsx";
import { FailedReportBody } from "../../../kit/ui/failed_report.tsx";

export {
  GRADE_MEANING,
  gradeOf,
  PILLAR_PURPOSE,
} from "../../../engines/visibility/report_texts.ts";
export { FixHow } from "./report_issues.tsx";

/** A one-line summary for meta descriptions and previews. */
export function describeRecord(record: ScanRecord): string {
  if (!record.result) {
    return `The scan of ${record.domain} failed: its home page could not be read. See why and scan it again.`;
  }
  const r = record.result;
  const first = r.topIssues[0];
  return clip(
    `${record.domain} scores ${Math.round(r.score)}/100 (grade ${r.grade}) for AI visibility. ` +
      (first ? `First fix: ${first.title}.` : r.label),
    200,
  );
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 1).trimEnd() + "…";
}

/** What every section of the report reads. */
export interface SectionProps {
  record: ScanRecord;
  result: Result;
  now: number;
  rescan: VNode;
  origin: string;
  /** On a kept scan's page: its id (its downloads are that scan's record). */
  scanId?: string;
  /** The badge's alt text and size, for its snippet. */
  badge: ReportProps["badge"];
  /**
   * What other features show on this page (what changed since the previous scan, answer presence,
   * the kept scans), by place: lib/kit/web/report_sections.ts.
   */
  inserts?: ReportInserts;
  /** What the account's own server logs show of each crawler (the products section shows it). */
  observed?: ReportProps["observed"];
}

/** One section of the report page: its name (for tests and other features) and its view. */
export interface ReportSection {
  id: string;
  render(props: SectionProps): VNode | null;
}

/**
 * The report's sections, in page order. A feature adds its section here, after the one it
 * belongs with; each renders nothing when it has nothing to say for this record.
 */
export const REPORT_SECTIONS: readonly ReportSection[] = [
  {
    id: "summary",
    render: (p) => (
      <ReportSummary
        record={p.record}
        rescan={p.rescan}
        scanId={p.scanId}
        change={p.inserts?.lead.length ? <>{p.inserts.lead}</> : null}
        observed={p.observed}
      />
    ),
  },
  // What other features show right after the summary (what changed in full, answer presence).
  { id: "inserts-top", render: (p) => p.inserts?.top.length ? <>{p.inserts.top}</> : null },
  { id: "more-fixes", render: (p) => <MoreFixes result={p.result} from={TOP_FIXES + 1} /> },
  { id: "pages", render: (p) => <PagesTable record={p.record} /> },
  { id: "rendered", render: (p) => <RenderViewSection view={p.record.render} /> },
  {
    id: "pillars",
    render: (p) => (
      <PillarsSection
        pillars={p.result.pillars}
        cap={capOf(p.result)}
        issueNumbers={issueNumbers(p.result)}
      />
    ),
  },
  { id: "offsite", render: (p) => <OffSiteSection record={p.record} /> },
  {
    id: "badge",
    render: (p) => <BadgeSection record={p.record} origin={p.origin} badge={p.badge} />,
  },
  // What other features show at the end (the kept scans).
  { id: "inserts-end", render: (p) => p.inserts?.end.length ? <>{p.inserts.end}</> : null },
];

/** A signal that a fix resolves points to that fix instead of repeating it: signal id -> number. */
function issueNumbers(r: Result): Map<string, number> {
  const numbers = new Map<string, number>();
  r.topIssues.forEach((issue, i) => {
    for (const id of [issue.id, ...(issue.resolves ?? []).map((x) => x.id)]) {
      if (!numbers.has(id)) numbers.set(id, i + 1);
    }
  });
  return numbers;
}

/** The report page body for an "ok" record: its head, then every section in order. */
export function VisibilityReport(
  props: Omit<SectionProps, "result"> & { sections?: readonly ReportSection[] },
): VNode {
  const section: SectionProps = { ...props, result: props.record.result! };
  return (
    <article class="report">
      <ReportHead record={props.record} now={props.now} />
      {(props.sections ?? REPORT_SECTIONS).map((s) => s.render(section))}
    </article>
  );
}

/** The page body for a failed scan: what went wrong and what it usually means. */
export function FailedReport(
  props: { record: ScanRecord; failure: string | null; now: number; rescan: VNode },
): VNode {
  return (
    <FailedReportBody
      head={<ReportHead record={props.record} now={props.now} failed />}
      heading="The scan could not read this site"
      failure={props.failure ?? "The home page could not be fetched."}
      rescan={props.rescan}
    >
      <p>
        No score is given: we only grade what we could read. If our scanner cannot fetch the home
        page, AI crawlers most likely cannot either.
      </p>
      <h3>What this usually means</h3>
      <ul>
        <li>The site was down or too slow to answer (we wait up to 25 seconds).</li>
        <li>
          A firewall or CDN refused our scanner. That alone does not show how it treats AI crawlers,
          which come from their vendors' own addresses.
        </li>
        <li>
          The address redirects in a loop, to a private network, or to a page that is not HTML.
        </li>
        <li>The domain has no web site at all (check the spelling).</li>
      </ul>
    </FailedReportBody>
  );
}

function ReportHead(props: { record: ScanRecord; now: number; failed?: boolean }): VNode {
  const { record } = props;
  return (
    <header class="report-head">
      <p class="eyebrow">AI visibility report</p>
      <h1>
        {props.failed ? `We could not scan ${record.domain}` : record.domain}
      </h1>
      <p class="muted">
        Scanned <LocalTime iso={record.scannedAt} /> ({timeAgo(record.scannedAt, props.now)}).{" "}
        {props.failed
          ? "Fixed it? Scan again below."
          : "Changed the site since? Scan again to see the new score."}
      </p>
      <BudgetNote budget={record.budget} />
    </header>
  );
}
