/**
 * The report page's download links (JSON, Markdown, HTML) and, where the service compares sites,
 * the link to compare this one with others. Both services' report pages show it in their actions.
 * Plain links, kept short: the report page has an HTML budget (tests/pages_test.ts), and the
 * server's Content-Disposition makes each a download without a `download` attribute.
 */
import type { VNode } from "preact";
import { comparePagePath, reportDownloadPath } from "../report_urls.ts";

/** "Download JSON, Markdown, HTML" and optionally "Compare sites". */
export function ExportLinks(props: { domain: string; compare?: boolean }): VNode {
  const { domain } = props;
  return (
    <p class="export-links">
      Download <a href={reportDownloadPath(domain, "json")}>JSON</a>,{" "}
      <a href={reportDownloadPath(domain, "md")}>Markdown</a>,{" "}
      <a href={reportDownloadPath(domain, "html")}>HTML</a>
      {props.compare && (
        <>
          {" · "}
          <a href={comparePagePath([domain])}>Compare sites</a>
        </>
      )}
    </p>
  );
}
