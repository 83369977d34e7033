/**
 * The report page's download links (JSON, Markdown, HTML) and, where the service compares sites,
 * the link to compare this one with others. Both services' report pages show it in their actions.
 */
import type { VNode } from "preact";
import { comparePagePath, reportDownloadPath } from "../report_urls.ts";

/** "Download JSON", "Markdown", "HTML report" and optionally "Compare with other sites". */
export function ExportLinks(props: { domain: string; compare?: boolean }): VNode {
  const { domain } = props;
  return (
    <nav class="export-links" aria-label="Download or compare this report">
      <a class="button button-secondary" href={reportDownloadPath(domain, "json")} download>
        Download JSON
      </a>
      <a class="button button-secondary" href={reportDownloadPath(domain, "md")} download>
        Markdown
      </a>
      <a class="button button-secondary" href={reportDownloadPath(domain, "html")} download>
        HTML report
      </a>
      {props.compare && (
        <a class="button button-secondary" href={comparePagePath([domain])}>
          Compare with other sites
        </a>
      )}
    </nav>
  );
}
