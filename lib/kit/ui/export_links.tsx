/**
 * The report page's download links (JSON, Markdown, HTML) and, where the service compares sites,
 * the link to compare this one with others. Both services' report pages show it in their actions.
 * Plain links, kept short: the report page has an HTML budget (tests/pages_test.ts), and the
 * server's Content-Disposition makes each a download without a `download` attribute.
 */
import type { VNode } from "preact";
import { comparePagePath, reportDownloadPath, scanJsonPath } from "../report_urls.ts";

/** "Download JSON, Markdown, HTML" and optionally "Compare sites". */
export function ExportLinks(
  props: { domain: string; compare?: boolean; scanId?: string },
): VNode {
  const { domain } = props;
  if (props.scanId) {
    // A kept scan's page downloads that scan's record, never the latest one.
    return (
      <p class="export-links">
        Download{" "}
        <a href={scanJsonPath(domain, props.scanId)} download={`${domain}-${props.scanId}.json`}>
          the JSON of this scan
        </a>
      </p>
    );
  }
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
