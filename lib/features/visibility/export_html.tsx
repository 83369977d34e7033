/**
 * The AI Visibility Checker's HTML export body (lib/engines/export/html.tsx wraps it in the document). It
 * reads like the report page and the Markdown export: the grade in a word and a sentence, the cap
 * in plain words, each fix with its worth, impact and effort in words, the checks it resolves and
 * its steps, every check's result in words, links to the learn pages when the address is known.
 */
import type { VNode } from "preact";
import type { ExportInput } from "../../service.ts";
import type { Issue, Result, ScanRecord } from "../../engines/visibility/record.ts";
import { capOf } from "../../engines/visibility/score.ts";
import { gateText } from "../../engines/visibility/learn.ts";
import { learnPath } from "../../kit/report_urls.ts";
import { httpBase } from "../../engines/export/sarif.ts";
import { Failed, How, Link } from "../../engines/export/html.tsx";
import { RenderViewSection } from "./views/render_view.tsx";
import {
  capLiftText,
  EFFORT_TEXT,
  GRADE_MEANING,
  gradeWord,
  IMPACT_TEXT,
  STATUS_TEXT,
  worthText,
} from "../../engines/visibility/report_texts.ts";

/** The body of a visibility record's HTML report. */
export function visibilityHtml(input: ExportInput): VNode {
  return <VisibilityBody record={input.record as ScanRecord} input={input} />;
}

/** A check's name, linked to its learn page when the export knows this service's address. */
function Check(props: { title: string; id: string; base: string | null }): VNode {
  return props.base
    ? <Link href={`${props.base}${learnPath(props.id)}`}>{props.title}</Link>
    : <>{props.title}</>;
}

const OFFSITE_WORDS = { found: "Found", not_found: "Not found", unknown: "Could not check" };

function VisibilityBody(props: { record: ScanRecord; input: ExportInput }): VNode {
  const { record } = props;
  const r = record.result;
  if (!r) return <Failed input={props.input} />;
  const base = httpBase(props.input.reportUrl ?? props.input.sarif?.learnBase);
  const o = record.offSite;
  return (
    <>
      <p class="score">
        {Math.round(r.score)}/100 · Grade {r.grade}: {gradeWord(r.score)}
      </p>
      <p>{GRADE_MEANING[r.grade] ?? ""}</p>
      <CapNote result={r} base={base} />
      <h2>What to fix first</h2>
      {r.topIssues.length === 0 && <p>Nothing to fix right now.</p>}
      {r.topIssues.map((issue, i) => (
        <IssueSection
          issue={issue}
          n={i + 1}
          result={r}
          base={base}
        />
      ))}
      <h2>Every check, by pillar</h2>
      <table>
        <thead>
          <tr>
            <th>Pillar</th>
            <th class="num">Score</th>
            <th class="num">Points</th>
            <th class="num">Weight</th>
          </tr>
        </thead>
        <tbody>
          {r.pillars.map((p) => (
            <tr>
              <td>{p.title}</td>
              <td class="num">{Math.round(p.score)}/100</td>
              <td class="num">{Math.round(p.points * 10) / 10}</td>
              <td class="num">{p.weight}%</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.pillars.map((p) => (
        <>
          <h3>
            {p.title} ({Math.round(p.score)}/100)
          </h3>
          <table>
            <thead>
              <tr>
                <th>Check</th>
                <th>Result</th>
                <th class="num">Points</th>
                <th>What we saw</th>
              </tr>
            </thead>
            <tbody>
              {p.signals.map((s) => (
                <tr>
                  <td>
                    <Check title={s.title} id={s.id} base={base} />
                  </td>
                  <td class={s.status}>{STATUS_TEXT[s.status] ?? s.status}</td>
                  <td class="num">{s.maxPoints > 0 ? `${s.points} of ${s.maxPoints}` : "–"}</td>
                  <td>{s.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ))}
      <RenderViewSection view={record.render} />
      <h2>Presence beyond the site</h2>
      {o
        ? (
          <table>
            <thead>
              <tr>
                <th>Source</th>
                <th>Result</th>
                <th>What we saw</th>
              </tr>
            </thead>
            <tbody>
              {([["Wikidata", o.wikidata], ["Wikipedia", o.wikipedia], [
                "Common Crawl",
                o.commonCrawl,
              ]] as const).map(([name, c]) => (
                <tr>
                  <td>
                    <Link href={c.url}>{name}</Link>
                  </td>
                  <td>{OFFSITE_WORDS[c.status]}</td>
                  <td>{c.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : <p>The off-site checks could not run.</p>}
    </>
  );
}

/** What caps the score, in the words of the report page's notice. */
function CapNote(props: { result: Result; base: string | null }): VNode | null {
  const cap = capOf(props.result);
  if (!cap) return null;
  const gate = gateText(cap.gateId);
  return (
    <section class="issue critical">
      <p>
        <strong>
          What holds it back most: the score is capped at {cap.cap} because{" "}
          {gate?.name ?? cap.gateId.replace(/_/g, " ")}.
        </strong>{" "}
        {gate?.why}
      </p>
      <p>
        {capLiftText(props.result) ?? "Fix this first: nothing else counts while it stands."}
        {gate && ` It lifts when: ${gate.lift}`}
        {props.base && (
          <>
            {" "}
            <Link href={`${props.base}${learnPath(cap.signalId)}`}>Learn more</Link>
          </>
        )}
      </p>
    </section>
  );
}

/** One fix: title, worth, impact and effort in words, what it resolves, why and how. */
function IssueSection(
  props: { issue: Issue; n: number; result: Result; base: string | null },
): VNode {
  const { issue, base } = props;
  const resolves = issue.resolves ?? [];
  return (
    <section class="issue">
      <h3>
        {props.n}. {issue.title}
      </h3>
      <p class="meta">
        <strong>{worthText(issue, props.result)}</strong>
        {` · ${IMPACT_TEXT[issue.impact]} · ${EFFORT_TEXT[issue.fix.effort]}`}
        {base && (
          <>
            {" · "}
            <Link href={`${base}${learnPath(issue.id)}`}>About this check</Link>
          </>
        )}
      </p>
      <p>{issue.detail}</p>
      <p>
        <strong>Why it matters:</strong> {issue.fix.why}
      </p>
      {resolves.length > 1 && (
        <p>
          <strong>One change, {resolves.length} checks:</strong> {resolves.map((c, i) => (
            <>
              {i > 0 && ", "}
              <Check title={c.title} id={c.id} base={base} />
            </>
          ))}
        </p>
      )}
      <p>
        <strong>How to fix it:</strong>
      </p>
      <How how={issue.fix.how} />
    </section>
  );
}
