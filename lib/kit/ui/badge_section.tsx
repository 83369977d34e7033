/**
 * The badge of a report page and the snippets to embed it (both services' report pages show it):
 * the badge's alt text and size come from the service (lib/kit/ui/badge.ts, lib/service.ts ReportProps).
 */
import type { VNode } from "preact";
import { CopyButton } from "./copy_button.tsx";
import type { BaseRecord, ReportProps } from "../../service.ts";
import { badgePath, reportPagePath } from "../report_urls.ts";

/** The badge, and the snippets to embed it (shared by both services' report pages). */
export function BadgeSection(
  props: { record: BaseRecord; origin: string; badge: ReportProps["badge"] },
): VNode {
  const domain = props.record.domain;
  const what = props.badge.alt;
  const size = { width: props.badge.width, height: props.badge.height };
  const badge = `${props.origin}${badgePath(domain)}`;
  const report = `${props.origin}${reportPagePath(domain)}`;
  const markdown = `[![${what} of ${domain}](${badge})](${report})`;
  const html = `<a href="${report}"><img src="${badge}" alt="${what} of ${domain}"></a>`;
  return (
    <section class="card no-print" aria-labelledby="badge-title">
      <h2 id="badge-title">Show your score</h2>
      <p>
        <img
          src={badgePath(domain)}
          alt={`${what} badge of ${domain}`}
          width={size.width}
          height={size.height}
        />
      </p>
      <p class="muted">
        The badge always shows the latest result. Put it in a README or on your site:
      </p>
      <div class="how-head">
        <h3>Markdown</h3>
        <CopyButton target="badge-md" what="the Markdown" />
      </div>
      <pre class="code-block" tabIndex={0}><code id="badge-md">{markdown}</code></pre>
      <div class="how-head">
        <h3>HTML</h3>
        <CopyButton target="badge-html" what="the HTML" />
      </div>
      <pre class="code-block" tabIndex={0}><code id="badge-html">{html}</code></pre>
    </section>
  );
}
