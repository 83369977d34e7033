/**
 * The report page's table of the pages the site audit sampled: each page's path, its type, how its
 * fetch went and the checks it fails (compact: the report page has an HTML size budget). The rows
 * come from the record's `discovery.site_sample` signal; everything is rendered as text.
 */
import type { VNode } from "preact";
import type { ScanRecord } from "../../../engines/visibility/record.ts";
import { Breakable } from "../../../kit/ui/breakable.tsx";
import {
  pagePath,
  pageStatus,
  sampledPages,
} from "../../../engines/visibility/audit/format_pages.ts";

/** The sampled-pages section; nothing for records without a sample beyond the home page. */
export function PagesTable(props: { record: ScanRecord }): VNode | null {
  const pages = sampledPages(props.record);
  if (!pages || pages.length < 2) return null;
  return (
    <section aria-labelledby="pages-title">
      <h2 id="pages-title">Pages sampled across the site</h2>
      {
        /* A table wider than a phone scrolls inside its box: the box takes the keyboard's focus
          so it can be scrolled without a mouse (axe: scrollable-region-focusable). */
      }
      {
        /* Its own name: a landmark named as the section's is a second landmark of one name (axe:
        landmark-unique). */
      }
      <div
        class="card table-wrap"
        tabIndex={0}
        role="region"
        aria-label="Table of the pages sampled, scrolls sideways"
      >
        <table class="pages-table">
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
              return (
                <tr>
                  <th scope="row">
                    <Breakable text={pagePath(p.url)} />
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
