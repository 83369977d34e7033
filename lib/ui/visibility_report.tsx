/**
 * The AI Visibility Checker's report page body, from a stored ScanRecord. The first screen answers
 * three questions (report_summary.tsx): how visible is the site, what holds it back most, and what
 * to do first. Everything else is one click away: the remaining fixes in order
 * (report_issues.tsx), every check by pillar (report_pillars.tsx), the off-site presence
 * (offsite_section.tsx) and the badge (badge_section.tsx). Everything from the record is rendered as text (escaped by Preact).
 */
import { BudgetNote } from "./budget_note.tsx";
import type { ComponentChildren, VNode } from "preact";
import type { ScanRecord } from "../visibility/record.ts";
import type { ReportProps } from "../service.ts";
import { capOf } from "../visibility/score.ts";
import { timeAgo } from "./format.ts";
import { LocalTime } from "./local_time.tsx";
import { ReportSummary, TOP_FIXES } from "./report_summary.tsx";
import { MoreFixes } from "./report_issues.tsx";
import { PillarsSection } from "./report_pillars.tsx";
import { OffSiteSection } from "./offsite_section.tsx";
import { BadgeSection } from "./badge_section.tsx";
import { PagesTable } from "./pages_table.tsx";
import { RenderViewSection } from "./render_view.tsx";
import { CrawlerMatrix } from "./crawler_matrix.tsx";

export { GRADE_MEANING, gradeOf, PILLAR_PURPOSE } from "./report_texts.ts";
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

/**
 * The report page body for an "ok" record. `children` go between the first screen and the rest
 * (e.g. what changed since the last scan).
 */
export function VisibilityReport(
  props: {
    record: ScanRecord;
    now: number;
    rescan: VNode;
    origin: string;
    /** On a kept scan's page: its id (its downloads are that scan's record). */
    scanId?: string;
    /** The badge's alt text and size, for its snippet. */
    badge: ReportProps["badge"];
    children?: ComponentChildren;
  },
): VNode {
  const { record } = props;
  const r = record.result!;
  // A signal that is also an issue points to its fix instead of repeating it.
  const issueNumbers = new Map(r.topIssues.map((issue, i) => [issue.id, i + 1]));
  return (
    <article class="report">
      <ReportHead record={record} now={props.now} />
      <ReportSummary record={record} rescan={props.rescan} scanId={props.scanId} />
      {props.children}
      <MoreFixes issues={r.topIssues} from={TOP_FIXES + 1} />
      <PagesTable record={record} />
      <RenderViewSection view={record.render} />
      <CrawlerMatrix record={record} />
      <PillarsSection pillars={r.pillars} cap={capOf(r)} issueNumbers={issueNumbers} />
      <OffSiteSection record={record} />
      <BadgeSection record={record} origin={props.origin} badge={props.badge} />
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

/** The frame of a failed scan's page, for both services: what went wrong, advice, scan again. */
export function FailedReportBody(
  props: {
    head: VNode;
    heading: string;
    failure: string;
    rescan: VNode;
    children: ComponentChildren;
  },
): VNode {
  return (
    <article class="report">
      {props.head}
      <section class="card" aria-labelledby="failed-title">
        <h2 id="failed-title">{props.heading}</h2>
        <div class="notice error">
          <p>
            <strong>What went wrong:</strong> {props.failure}
          </p>
        </div>
        {props.children}
        <div class="report-actions">{props.rescan}</div>
      </section>
    </article>
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
