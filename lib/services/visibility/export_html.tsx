/** The AI Visibility Checker's HTML export body (lib/export/html.tsx wraps it in the document). */
import type { VNode } from "preact";
import type { ExportInput } from "../../service.ts";
import type { ScanRecord } from "../../visibility/record.ts";
import { Failed, How, Link } from "../../export/html.tsx";
import { RenderViewSection } from "../../ui/render_view.tsx";

/** The body of a visibility record's HTML report. */
export function visibilityHtml(input: ExportInput): VNode {
  return <VisibilityBody record={input.record as ScanRecord} input={input} />;
}

function VisibilityBody(props: { record: ScanRecord; input: ExportInput }): VNode {
  const { record } = props;
  const r = record.result;
  if (!r) return <Failed input={props.input} />;
  const o = record.offSite;
  return (
    <>
      <p class="score">
        {Math.round(r.score)}/100 · Grade {r.grade}
      </p>
      <p>{r.label}</p>
      <h2>Pillars</h2>
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
              <td class="num">{p.weight}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>What to fix first</h2>
      {r.topIssues.length === 0 && <p>Nothing to fix right now.</p>}
      {r.topIssues.map((issue, i) => (
        <section class="issue">
          <h3>
            {i + 1}. {issue.title}
          </h3>
          <p class="meta">
            {`Impact: ${issue.impact} · Effort: ${issue.fix.effort} · Status: ${issue.status}`}
            {" · Check: "}
            <code>{issue.id}</code>
          </p>
          <p>{issue.detail}</p>
          <p>
            <strong>What:</strong> {issue.fix.what}
          </p>
          <p>
            <strong>Why:</strong> {issue.fix.why}
          </p>
          <p>
            <strong>How:</strong>
          </p>
          <How how={issue.fix.how} />
        </section>
      ))}
      <h2>Every check, by pillar</h2>
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
                <th>Detail</th>
              </tr>
            </thead>
            <tbody>
              {p.signals.map((s) => (
                <tr>
                  <td>{s.title}</td>
                  <td class={s.status}>{s.status === "na" ? "n/a" : s.status}</td>
                  <td class="num">{s.maxPoints > 0 ? `${s.points}/${s.maxPoints}` : "–"}</td>
                  <td>{s.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ))}
      <RenderViewSection view={record.render} />
      <h2>Off-site presence</h2>
      {o
        ? (
          <table>
            <thead>
              <tr>
                <th>Source</th>
                <th>Status</th>
                <th>Detail</th>
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
                  <td>{c.status.replace("_", " ")}</td>
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
