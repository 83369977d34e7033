/**
 * The report page's table of the pages the site audit sampled: each page's path (a link to it,
 * when it is a safe http(s) URL), its type, how its fetch went and the checks it fails. The rows
 * come from the record's `discovery.site_sample` signal; everything is rendered as text.
 */
import type { VNode } from "preact";
import type { ScanRecord } from "../visibility/record.ts";
import { pagePath, pageStatus, sampledPages } from "../visibility/audit/format_pages.ts";
import { safeHttpUrl } from "./format.ts";

/** The sampled-pages section; nothing for records without a sample beyond the home page. */
export function PagesTable(props: { record: ScanRecord }): VNode | null {
  const pages = sampledPages(props.record);
  if (!pages || pages.length < 2) return null;
  const note = props.record.result?.pillars.flatMap((p) => p.signals)
    .find((s) => s.id === "discovery.site_sample")?.detail;
  return (
    <section aria-labelledby="pages-title">
      <h2 id="pages-title">Pages sampled across the site</h2>
      {note && <p class="muted">{note}</p>}
      <div class="card table-wrap">
        <table class="pages-table">
          <caption class="visually-hidden">
            Sampled pages: type, status and the checks each fails
          </caption>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Fails</th>
            </tr>
          </thead>
          <tbody>
            {pages.map((p) => {
              const href = safeHttpUrl(p.url);
              const path = pagePath(p.url);
              return (
                <tr>
                  <th scope="row">
                    {href ? <a href={href} rel="nofollow noopener noreferrer">{path}</a> : path}
                  </th>
                  <td>{p.type}</td>
                  <td>{pageStatus(p)}</td>
                  <td>
                    {p.fails.length ? p.fails.join("; ") : <span class="muted">none</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
