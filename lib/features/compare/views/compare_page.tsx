/**
 * The body of GET /compare: a form of up to five sites (plain GET, works without JavaScript) and,
 * when sites are named, their latest stored reports side by side: score and grade, each pillar,
 * and the issues one has that another does not. A site never scanned says so, with a link to its
 * report page, where it can be scanned. Every string from a record is escaped by Preact.
 */
import type { VNode } from "preact";
import type { CompareSite, Comparison } from "../compare.ts";
import { COMPARE_MAX_SITES } from "../compare.ts";
import { compareJsonPath, PATHS } from "../../../kit/report_urls.ts";
import { IMPACT_TEXT } from "../../../engines/visibility/severity.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { gradeOf, gradeWord } from "../../../engines/visibility/report_texts.ts";

/** The compare page: the form, an error when the request was not understood, the comparison. */
export function ComparePage(
  props: { domains: string[]; comparison: Comparison | null; error?: string; inputs?: string[] },
): VNode {
  const values = props.inputs ?? props.domains;
  const c = props.comparison;
  return (
    <article class="report compare">
      <header class="report-head">
        <p class="eyebrow">Compare sites</p>
        <h1>{c ? c.domains.join(" vs ") : "Compare AI visibility, side by side"}</h1>
        <p class="muted">
          The latest stored report of up to {COMPARE_MAX_SITES}{" "}
          sites: score, every pillar, and the issues one site has and another does not. Nothing is
          scanned here; scan a site from its report page first.
        </p>
      </header>
      <form class="card compare-form" method="get" action={PATHS.compare}>
        <fieldset>
          <legend>Sites to compare</legend>
          <div class="compare-inputs">
            {Array.from({ length: COMPARE_MAX_SITES }, (_, i) => (
              <label key={i}>
                <span class="visually-hidden">Site {i + 1}</span>
                <input
                  type="text"
                  name="d"
                  value={values[i] ?? ""}
                  placeholder={i === 0 ? "example.com" : "another-site.com"}
                  autocomplete="off"
                  spellcheck={false}
                />
              </label>
            ))}
          </div>
        </fieldset>
        <button class="button" type="submit">Compare</button>
      </form>
      {props.error && (
        <p class="notice error" role="alert">
          {props.error}
        </p>
      )}
      {c && <CompareTables comparison={c} />}
    </article>
  );
}

function SiteHead(props: { site: CompareSite }): VNode {
  const s = props.site;
  return (
    <th scope="col">
      <a href={s.reportPath}>{s.domain}</a>
    </th>
  );
}

function ScoreCell(props: { site: CompareSite }): VNode {
  const s = props.site;
  if (s.status === "not_scanned") {
    return (
      <td class="muted">
        Not scanned yet. <a href={s.reportPath}>Scan it</a>
      </td>
    );
  }
  if (s.status === "failed" || s.score === null) {
    return (
      <td>
        <span class="badge status-fail">Scan failed</span>
        {s.failure && <span class="muted">{s.failure}</span>}
      </td>
    );
  }
  return (
    <td>
      <strong class={`grade-${s.grade}`}>{Math.round(s.score)}/100</strong> grade {s.grade}
      <br />
      {
        /* The grade's word and the cap only: a label's full sentence in a narrow column made the
        row hundreds of pixels tall; the site's report says the rest. */
      }
      <span class="muted">
        {gradeWord(s.score)}
        {s.label?.match(/\(capped at \d+/) ? `, ${s.label.match(/capped at \d+/)![0]}` : ""}
      </span>
    </td>
  );
}

function CompareTables(props: { comparison: Comparison }): VNode {
  const { sites, pillars, issues } = props.comparison;
  const scored = sites.filter((s) => s.score !== null);
  const differing = issues.filter((i) => !i.shared);
  const shared = issues.filter((i) => i.shared);
  return (
    <>
      <section aria-labelledby="compare-scores">
        <h2 id="compare-scores">Scores, pillar by pillar</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Site</th>
                {sites.map((s) => <SiteHead key={s.domain} site={s} />)}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Score</th>
                {sites.map((s) => <ScoreCell key={s.domain} site={s} />)}
              </tr>
              <tr>
                <th scope="row">Scanned</th>
                {sites.map((s) => (
                  <td key={s.domain}>{s.scannedAt ? <LocalTime iso={s.scannedAt} /> : "–"}</td>
                ))}
              </tr>
              {pillars.map((p) => {
                const values = Object.values(p.scores).filter((v): v is number => v !== null);
                const best = values.length > 1 ? Math.max(...values) : null;
                return (
                  <tr key={p.id}>
                    <th scope="row">
                      {p.title} <span class="muted">({p.weight}% of the score)</span>
                    </th>
                    {sites.map((s) => {
                      const v = p.scores[s.domain];
                      return v === null || v === undefined
                        ? <td key={s.domain}>–</td>
                        : (
                          <td key={s.domain} class={v === best ? "compare-best" : undefined}>
                            <span class={`grade-${gradeOf(v)}`}>{Math.round(v)}</span>
                            {v === best && <span class="visually-hidden">(best)</span>}
                          </td>
                        );
                    })}
                  </tr>
                );
              })}
              <tr>
                <th scope="row">Issues to fix</th>
                {sites.map((s) => (
                  <td key={s.domain}>
                    {s.issueCount ?? "–"}
                    {s.onlyHere.length > 0 && (
                      <span class="muted">{` (${s.onlyHere.length} only this site has)`}</span>
                    )}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      </section>
      {scored.length === 1 && (
        <p>
          Only one of these sites has a report, so there are no issues to compare yet. Scan the
          others from their report pages, then come back.
        </p>
      )}
      {scored.length > 1 && (
        <section aria-labelledby="compare-issues">
          <h2 id="compare-issues">Issues one site has and another does not</h2>
          {differing.length
            ? <IssueTable sites={scored} issues={differing} />
            : <p>No difference: the sites list the same issues.</p>}
          {shared.length > 0 && (
            <details>
              <summary>Issues every site has ({shared.length})</summary>
              <IssueTable sites={scored} issues={shared} />
            </details>
          )}
        </section>
      )}
      <p class="muted">
        The same comparison as JSON:{" "}
        <a href={compareJsonPath(props.comparison.domains)}>
          {compareJsonPath(props.comparison.domains)}
        </a>
      </p>
    </>
  );
}

function IssueTable(
  props: { sites: CompareSite[]; issues: Comparison["issues"] },
): VNode {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Issue</th>
            {props.sites.map((s) => <th key={s.domain} scope="col">{s.domain}</th>)}
          </tr>
        </thead>
        <tbody>
          {props.issues.map((i) => (
            <tr key={i.id} data-issue={i.id}>
              <th scope="row">{i.title}</th>
              {props.sites.map((s) =>
                i.has.includes(s.domain)
                  ? (
                    <td key={s.domain}>
                      <span class="badge status-fail">Has it</span>{" "}
                      {/* The impact this site's own report gives it: one value in every view. */}
                      <span class={`badge impact-${i.impacts[s.domain] ?? i.impact}`}>
                        {IMPACT_TEXT[i.impacts[s.domain] ?? i.impact]}
                      </span>{" "}
                      <a href={`${s.reportPath}#top-fixes`}>see the fix</a>
                    </td>
                  )
                  : (
                    <td key={s.domain}>
                      <span class="badge status-pass">No</span>
                    </td>
                  )
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
