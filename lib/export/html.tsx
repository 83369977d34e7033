/**
 * The self-contained HTML export of a stored record (both services): one file that opens and
 * prints anywhere, offline. Its styles are inlined, it has no script and loads nothing (its own
 * Content-Security-Policy meta says `default-src 'none'`), and every string from the record is
 * escaped by Preact's renderer; links are written only for http(s) URLs.
 */
import type { ComponentChildren, VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { ScanRecord } from "../visibility/record.ts";
import type { SchemaScanRecord } from "../structured/record.ts";
import { parseHow } from "../visibility/fix_text.ts";
import { formatUtc, safeHttpUrl } from "../ui/format.ts";
import { RenderedStructureSection, RenderViewSection } from "../ui/render_view.tsx";
import { type ExportInput, reportTitle } from "./common.ts";
import type { ServiceName } from "../service_words.ts";

/** The export's whole policy: inline styles, nothing else (no script, fetch, frame or form). */
export const EXPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CSS = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--bad:#b42318;--warn:#9a6700;--good:#1a7f37}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
.meta,.muted{color:var(--muted)}
.score{font-size:1.4rem;font-weight:700}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.92rem}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:var(--bg)}td.num,th.num{text-align:right;white-space:nowrap}
pre{background:var(--bg);border:1px solid var(--line);padding:.6rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.issue{border:1px solid var(--line);border-radius:6px;padding:.25rem 1rem .75rem;margin:.75rem 0;break-inside:avoid}
.fail,.critical,.high,.error{color:var(--bad)}.warn,.medium,.warning{color:var(--warn)}.pass,.eligible{color:var(--good)}
footer{margin-top:2rem;font-size:.85rem;color:var(--muted)}
@media print{body{margin:0;max-width:none;font-size:11pt}a{color:inherit}h2{break-after:avoid}h3{break-after:avoid}tr,pre{break-inside:avoid}}
`;

/** Each service's report body. */
const BODIES: Record<ServiceName, (input: ExportInput) => VNode> = {
  visibility: (input) => <VisibilityBody record={input.record as ScanRecord} input={input} />,
  schema: (input) => <SchemaBody record={input.record as SchemaScanRecord} input={input} />,
};

/** The HTML report of a record of either service, as a complete document. */
export function recordToHtml(input: ExportInput): string {
  const title = reportTitle(input);
  const body = BODIES[input.service](input);
  return "<!doctype html>\n" + renderToString(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta http-equiv="Content-Security-Policy" content={EXPORT_CSP} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <header>
          <h1>{title}</h1>
          <p class="meta">
            Scanned {formatUtc(input.record.scannedAt)}
            {input.reportUrl && safeHttpUrl(input.reportUrl) && (
              <>
                {" · "}
                <Link href={input.reportUrl}>Live report</Link>
              </>
            )}
          </p>
        </header>
        <main>{body}</main>
        <footer>Exported from the stored record; it shows the scan as it was at that time.</footer>
      </body>
    </html>,
  ) + "\n";
}

/** An outbound link when `href` is a plain http(s) URL, else the text alone. */
function Link(props: { href: string | null | undefined; children: ComponentChildren }): VNode {
  const safe = safeHttpUrl(props.href);
  return safe
    ? <a href={safe} rel="noopener noreferrer nofollow">{props.children}</a>
    : <>{props.children}</>;
}

function Failed(props: { input: ExportInput }): VNode {
  return (
    <section>
      <h2>Scan failed</h2>
      <p>
        {props.input.failure
          ? <>What went wrong: {props.input.failure}</>
          : "The scan did not complete."}
      </p>
      <p>
        A page that cannot be fetched is not scored. Check that the site is up and reachable, then
        scan again.
      </p>
    </section>
  );
}

function How(props: { how: string }): VNode {
  return (
    <>
      {parseHow(props.how).map((p) =>
        p.kind === "prose" ? p.text.split(/\n\s*\n/).map((para, i) => <p key={i}>{para}</p>) : (
          <pre>
              <code>{p.code}</code>
          </pre>
        )
      )}
    </>
  );
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

function SchemaBody(props: { record: SchemaScanRecord; input: ExportInput }): VNode {
  const { record } = props;
  const page = (
    <p>
      Page: <Link href={record.url}>{record.url}</Link>
    </p>
  );
  const r = record.result;
  if (!r) {
    return (
      <>
        {page}
        <Failed input={props.input} />
      </>
    );
  }
  const s = r.summary;
  const eligibility = r.eligibility ?? [];
  const items = [...r.detected.jsonLd, ...r.detected.microdata, ...r.detected.rdfa];
  return (
    <>
      {page}
      <h2>Summary</h2>
      <table>
        <thead>
          <tr>
            <th class="num">Items</th>
            <th>Types</th>
            <th class="num">Errors</th>
            <th class="num">Warnings</th>
            <th class="num">Deprecated</th>
            <th class="num">Eligible for rich results</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td class="num">{s.items}</td>
            <td>{s.types.join(", ") || "none"}</td>
            <td class="num">{s.errors}</td>
            <td class="num">{s.warnings}</td>
            <td class="num">{s.deprecated}</td>
            <td class="num">{s.eligible ?? "–"}</td>
          </tr>
        </tbody>
      </table>
      <h2>Rich results</h2>
      {eligibility.length
        ? (
          <table>
            <thead>
              <tr>
                <th>Item</th>
                <th>Feature</th>
                <th>Status</th>
                <th>Reasons</th>
              </tr>
            </thead>
            <tbody>
              {eligibility.map((e) => (
                <tr>
                  <td>
                    {e.source} {e.itemIndex + 1}: {e.type}
                  </td>
                  <td>
                    <Link href={e.docs}>{e.feature}</Link>
                  </td>
                  <td class={e.status === "eligible" ? "eligible" : "warn"}>{e.status}</td>
                  <td>{e.reasons.join("; ") || "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : <p>No item on the page is a candidate for a Google rich result.</p>}
      <h2>Findings</h2>
      {r.findings.length
        ? (
          <table>
            <thead>
              <tr>
                <th>Severity</th>
                <th>Where</th>
                <th>What to fix</th>
                <th>Rule</th>
              </tr>
            </thead>
            <tbody>
              {r.findings.map((f) => (
                <tr>
                  <td class={f.severity}>{f.severity === "error" ? "Error" : "Warning"}</td>
                  <td>
                    <code>{f.path}</code>
                  </td>
                  <td>{f.message}</td>
                  <td>{f.rule}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : <p>No errors or warnings.</p>}
      {r.deprecated.length > 0 && (
        <>
          <h2>Retired or restricted markup</h2>
          <ul>
            {r.deprecated.map((d) => (
              <li>
                {d.feature} ({d.type}, since {d.since}): {d.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <RenderedStructureSection rendered={r.rendered} />
      <h2>Markup to paste</h2>
      <p>Paste this into the page's &lt;head&gt;, then fill in what the page does not say.</p>
      <pre>
        <code>{r.generated.script}</code>
      </pre>
      {r.generated.fillIn.length > 0 && (
        <>
          <h3>Fill in by hand</h3>
          <ul>
            {r.generated.fillIn.map((f) => (
              <li>
                <code>{f.path}</code>: {f.why}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Items found</h2>
      {items.length
        ? (
          <table>
            <thead>
              <tr>
                <th>Source</th>
                <th>Types</th>
                <th>Where</th>
                <th class="num">Properties</th>
              </tr>
            </thead>
            <tbody>
              {items.map((it) => (
                <tr>
                  <td>{it.source}</td>
                  <td>{it.types.join(", ") || "–"}</td>
                  <td>{it.location}</td>
                  <td class="num">{Object.keys(it.properties).length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : <p>The page has no structured data.</p>}
    </>
  );
}
