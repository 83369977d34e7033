/**
 * The other pages of the site a service that scans pages kept scans of (the schema service), each
 * with its own report: the report page's kept scans are this page's, these are the others.
 */
import type { VNode } from "preact";
import { LocalTime } from "../../../kit/ui/local_time.tsx";

/** A page of the site with kept scans, and its report's path. */
export interface SitePage {
  url: string;
  scannedAt: string;
  status: "ok" | "failed";
  report: string;
}

/** The other pages of the site that were scanned, each with its own report. */
export function SitePages(
  props: { pages: SitePage[]; current: string },
): VNode | null {
  const others = props.pages.filter((p) => p.url !== props.current);
  if (!others.length) return null;
  return (
    <section class="card site-pages" aria-labelledby="site-pages-title">
      <h2 id="site-pages-title">Other pages of this site</h2>
      <p class="muted">Each page scanned keeps its own report and history.</p>
      <ul>
        {others.slice(0, 50).map((p) => (
          <li>
            <a href={p.report}>{p.url}</a>: {p.status === "failed" ? "failed" : "scanned"}{" "}
            <LocalTime iso={p.scannedAt} />
          </li>
        ))}
      </ul>
    </section>
  );
}
