/** The Schema Markup Generator's HTML export body (lib/engines/export/html.tsx wraps it in the document). */
import type { VNode } from "preact";
import type { ExportInput } from "../../service.ts";
import type { SchemaScanRecord } from "../../engines/structured/record.ts";
import { Failed, Link } from "../../engines/export/html.tsx";
import { ORIGIN_WORDS, readersOf, SchemaViewSection } from "./views/schema_view_section.tsx";
import { moreLikeThis } from "../../engines/structured/finding_log.ts";

/** The body of a schema record's HTML report. */
export function schemaHtml(input: ExportInput): VNode {
  return <SchemaBody record={input.record as SchemaScanRecord} input={input} />;
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
                  <td>{f.message}{moreLikeThis(f)}</td>
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
      <SchemaViewSection result={r} />
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
                {r.view?.rendered && <th>From</th>}
                {r.view?.rendered && <th>Read by</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((it) => (
                <tr>
                  <td>{it.source}</td>
                  <td>{it.types.join(", ") || "–"}</td>
                  <td>{it.location}</td>
                  <td class="num">{Object.keys(it.properties).length}</td>
                  {r.view?.rendered && <td>{ORIGIN_WORDS[it.origin ?? "server"]}</td>}
                  {r.view?.rendered && <td>{readersOf(it.origin ?? "server", r.view)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        )
        : <p>The page has no structured data.</p>}
    </>
  );
}
