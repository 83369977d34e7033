/**
 * The report page's crawler matrix: for each AI search and assistant crawler, what robots.txt
 * tells it about the home page, what the site declares for its purpose, and what the site's edge
 * answered our probe with its User-Agent, with the registry's source and "checked on" date. The
 * rows come from the record's `access.edge` signal (lib/engines/visibility/crawlers_matrix.ts); everything
 * is rendered as text. Collapsed: the report page has an HTML size budget.
 */
import type { VNode } from "preact";
import type { CrawlerRow, ScanRecord } from "../../../engines/visibility/record.ts";
import type { ObservedColumn } from "../../../service.ts";
import { safeHttpUrl } from "../../../kit/ui/format.ts";

/** The rows of the matrix in a record, or null when the record has none. */
function matrixRows(record: ScanRecord): CrawlerRow[] | null {
  const edge = record.result?.pillars.flatMap((p) => p.signals).find((s) => s.id === "access.edge");
  return edge?.crawlers?.length ? edge.crawlers : null;
}

const EDGE_WORDS = (r: CrawlerRow) =>
  r.edge === null
    ? "not probed"
    : r.edgeRefused === null
    ? r.edge
    : r.edgeRefused
    ? `refused: ${r.edge}`
    : `page (${r.edge})`;

/** Each vendor's documentation once, with the address lists it publishes per crawler. */
function vendors(rows: CrawlerRow[]): { vendor: string; docs: string; ips: [string, string][] }[] {
  const out: { vendor: string; docs: string; ips: [string, string][] }[] = [];
  for (const r of rows) {
    let v = out.find((x) => x.docs === r.docs);
    if (!v) out.push(v = { vendor: r.vendor, docs: r.docs, ips: [] });
    if (r.ipRanges) v.ips.push([r.token, r.ipRanges]);
  }
  return out;
}

/** A link from the record (read as stored): only an http(s) URL becomes an href, else text. */
function OutLink(props: { href: string | null; children: string }): VNode {
  const href = safeHttpUrl(props.href);
  return href ? <a href={href}>{props.children}</a> : <>{props.children}</>;
}

/**
 * The crawler matrix section; nothing for records without one. With `observed` (the reader's
 * account holds access logs of the site), a third view joins declared and enforced: what the logs
 * show each crawler really did, and the section opens.
 */
export function CrawlerMatrix(
  props: { record: ScanRecord; observed?: ObservedColumn },
): VNode | null {
  const rows = matrixRows(props.record)?.filter((r) => r.purpose !== "training");
  if (!rows?.length) return null;
  const observed = props.observed;
  return (
    <section aria-labelledby="crawlers-title">
      <details class="card" open={observed ? true : undefined}>
        <summary>
          <h2 id="crawlers-title">What each AI crawler is told, and what it gets</h2>
        </summary>
        <p class="muted small">
          robots.txt and the preferences the site declares are read from its files; the edge answer
          is what the site returned to our probe with the crawler's User-Agent. The probe comes from
          our scanner's address: a real crawler coming from its vendor's published addresses may be
          let through, or refused, where our probe was not. "Checked on" is the day we last checked
          the crawler against its vendor's documentation.
        </p>
        {observed && (
          <p class="small">
            Observed: what your server's access logs show each crawler did from{" "}
            {observed.period.from} to{" "}
            {observed.period.to}: hits from its vendor's published addresses (verified) with the
            answers your site gave, and hits that only claimed its name (spoofed) or could not be
            checked (unverifiable). Only you see this column.{" "}
            <a href={observed.href}>Your logs report</a>
          </p>
        )}
        <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="crawlers-title">
          <table class="pages-table">
            <thead>
              <tr>
                <th scope="col">Crawler</th>
                <th scope="col">robots.txt</th>
                <th scope="col">Declared</th>
                <th scope="col">Edge</th>
                {observed && <th scope="col">Observed in your logs</th>}
                <th scope="col">Checked on</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <th scope="row">{r.token}</th>
                  <td>{r.robots}</td>
                  <td>{r.preference ?? "-"}</td>
                  <td>{EDGE_WORDS(r)}</td>
                  {observed && <td>{observed.cells[r.token] ?? "not seen"}</td>}
                  <td>{r.checked}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class="small">
          Sources: {vendors(rows).map((v, i) => (
            <>
              {i ? "; " : ""}
              <OutLink href={v.docs}>{v.vendor}</OutLink>
              {v.ips.map(([token, url]) => (
                <>
                  {" "}
                  <OutLink href={url}>{`${token} IPs`}</OutLink>
                </>
              ))}
            </>
          ))}
        </p>
      </details>
    </section>
  );
}
