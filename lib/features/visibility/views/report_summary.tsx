/**
 * The first screen of the AI visibility report, which answers three questions: how visible is the
 * site (score, grade, and the line that says why from its top causes: which AI products cannot
 * read the site and what turns them away, with the first fix), what holds it back most (the gate
 * that caps the score, in plain words), and what to do first (the top three fixes with their worth
 * and effort, each one click from its full fix). Between them, what each AI product can do with
 * the site (report_products.tsx). After a rescan, what changed leads it (`change`,
 * lib/features/history/views/report_change_lead.tsx).
 */
import type { ObservedColumn } from "../../../service.ts";
import type { VNode } from "preact";
import type { Issue, Result, ScanRecord } from "../../../engines/visibility/record.ts";
import { type CapInfo, capIssueIndex, capOf } from "../../../engines/visibility/score.ts";
import { gateText } from "../../../engines/visibility/learn.ts";
import { learnPath } from "../../../kit/report_urls.ts";
import { ExportLinks } from "../../../kit/ui/export_links.tsx";
import { ScoreGauge } from "./gauge.tsx";
import {
  capLiftText,
  EFFORT_TEXT,
  gradeWord,
  IMPACT_TEXT,
  scoreReason,
  worthText,
} from "../../../engines/visibility/report_texts.ts";
import { ProductsSection } from "./report_products.tsx";
import { FixHow, Resolves } from "./report_issues.tsx";

/** The evidence lines the cap notice shows (the check below lists them all). */
const CAP_EVIDENCE = 6;

/** How many fixes the first screen shows. */
export const TOP_FIXES = 3;

/**
 * Score, cap and top fixes, then the report's actions. `example` (the home page's sample) leaves
 * out the actions and the link to the rest of the report, and keeps element ids unique.
 */
export function ReportSummary(
  props: {
    record: ScanRecord;
    rescan?: VNode;
    example?: boolean;
    scanId?: string;
    /** What changed since the previous scan: it leads the first screen. */
    change?: VNode | null;
    /** What the reader's own server logs show of each crawler (only to their account). */
    observed?: ObservedColumn;
  },
): VNode {
  const r = props.record.result!;
  const score = Math.round(r.score);
  const cap = capOf(r);
  const top = r.topIssues.slice(0, TOP_FIXES);
  const reason = scoreReason(r);
  return (
    <>
      {props.change}
      <section class="card summary" aria-labelledby="summary-title">
        <div class="summary-grid">
          <ScoreGauge score={r.score} grade={r.grade} />
          <div>
            <h2 id="summary-title" class="score-line">
              <span class={`grade-${r.grade}`}>{score} / 100</span>
              <span class="grade-chip">Grade {r.grade}: {gradeWord(score)}</span>
            </h2>
            <p class="plain score-reason">
              {reason}
              {top[0] && !reason.includes(top[0].title) && (
                <>
                  {" "}
                  <a href={`#issue-1`} class="first-fix">First fix: {top[0].title}</a>
                </>
              )}
            </p>
          </div>
        </div>
        {cap && <CapNotice cap={cap} result={r} />}
      </section>
      {!props.example && <ProductsSection record={props.record} observed={props.observed} />}
      <section id="top-fixes" class="card top-fixes" aria-labelledby="top-title">
        <h2 id="top-title">What to do first</h2>
        {top.length
          ? (
            <ol class="top-list">
              {top.map((issue, i) => <TopFix key={issue.id} issue={issue} n={i + 1} result={r} />)}
            </ol>
          )
          : <p>Nothing to fix right now: no failing or weak signal has a fix to suggest.</p>}
        {!props.example && r.topIssues.length > TOP_FIXES && (
          <p class="more-fixes">
            <a href="#more-title">
              {r.topIssues.length - TOP_FIXES}{" "}
              more fix{r.topIssues.length - TOP_FIXES === 1 ? "" : "es"}, in order
            </a>
          </p>
        )}
      </section>
      {!props.example && (
        <div class="report-actions">
          <ExportLinks domain={props.record.domain} compare scanId={props.scanId} />
          {props.rescan}
        </div>
      )}
    </>
  );
}

/** What caps the score, in plain words: which gate, why it matters, and that it comes first. */
function CapNotice(props: { cap: CapInfo; result: Result }): VNode {
  const { cap } = props;
  const gate = gateText(cap.gateId);
  const n = capIssueIndex(props.result.topIssues, cap) + 1;
  return (
    <div class="cap-notice" id="cap-notice" role="note">
      <h3>What holds it back most</h3>
      <p>
        <strong>
          The score is capped at {cap.cap} because {gate?.name ?? cap.gateId.replace(/_/g, " ")}.
        </strong>{" "}
        {gate?.why}
      </p>
      {cap.evidence.length > 0 && (
        <p class="cap-evidence">
          Evidence: {cap.evidence.slice(0, CAP_EVIDENCE).join("; ")}
          {cap.evidence.length > CAP_EVIDENCE
            ? `; and ${cap.evidence.length - CAP_EVIDENCE} more in the check below.`
            : "."}
        </p>
      )}
      {gate && <p class="cap-lift">It lifts when: {gate.lift}</p>}
      <p>
        {capLiftText(props.result) ??
          "Fix this first: the other scores are low too, but nothing else counts while it stands."}
      </p>
      <p class="cap-links">
        {n > 0 && <a href={`#issue-${n}`}>How to fix it</a>}
        <a href={learnPath(cap.signalId)}>
          Learn more<span class="visually-hidden">{` about ${gate?.name ?? "this gate"}`}</span>
        </a>
      </p>
    </div>
  );
}

/**
 * One of the first fixes: title, what it is worth, impact, effort, why, the checks it resolves,
 * and its full fix one click away.
 */
function TopFix(props: { issue: Issue; n: number; result: Result }): VNode {
  const { issue, n } = props;
  return (
    <li id={`issue-${n}`} class="top-fix" data-cause={issue.fix.cause?.key ?? issue.id}>
      <h3>
        <span class="issue-n">{n}.</span> {issue.title}
      </h3>
      <p class="issue-tags">
        <span class="badge worth">{worthText(issue, props.result)}</span>
        <span class={`badge impact-${issue.impact}`}>{IMPACT_TEXT[issue.impact]}</span>
        <span class="badge effort">{EFFORT_TEXT[issue.fix.effort]}</span>
      </p>
      <p class="why">{issue.fix.why}</p>
      <Resolves issue={issue} />
      <details class="fix-details">
        <summary>
          How to fix it<span class="visually-hidden">{`: ${issue.title}`}</span>
        </summary>
        <p>{issue.detail}</p>
        <FixHow how={issue.fix.how} n={n} />
        <p>
          <a href={learnPath(issue.id)}>
            Learn more<span class="visually-hidden">{` about ${issue.title}`}</span>
          </a>
        </p>
      </details>
    </li>
  );
}
