/**
 * The parts of the AI visibility report below the checks: presence beyond the site (Wikidata,
 * Wikipedia, Common Crawl) and the badge with its snippets (the badge section serves both
 * services). Links taken from the record must pass {@link safeHttpUrl}.
 */
import type { VNode } from "preact";
import { CopyButton } from "./copy_button.tsx";
import type { OffSiteCheck, ScanRecord } from "../visibility/record.ts";
import type { BaseRecord, ReportProps } from "../service.ts";
import { safeHttpUrl } from "./format.ts";
import { badgePath, reportPagePath } from "../report_urls.ts";

const OFFSITE: { key: "wikidata" | "wikipedia" | "commonCrawl"; name: string; why: string }[] = [
  {
    key: "wikidata",
    name: "Wikidata",
    why: "The open knowledge base many AI systems use to tell who is who.",
  },
  {
    key: "wikipedia",
    name: "Wikipedia",
    why: "One of the most cited sources in AI answers and training data.",
  },
  {
    key: "commonCrawl",
    name: "Common Crawl",
    why: "The public web archive most language models learn from.",
  },
];

const OFFSITE_STATUS: Record<OffSiteCheck["status"], string> = {
  found: "Found",
  not_found: "Not found",
  unknown: "Could not check",
};

/** Wikidata, Wikipedia and Common Crawl: what was found and why each matters. */
export function OffSiteSection(props: { record: ScanRecord }): VNode {
  const off = props.record.offSite;
  return (
    <section aria-labelledby="offsite-title">
      <h2 id="offsite-title">Presence beyond the site</h2>
      <p class="muted">
        AI systems weigh what other sources say about a site. These three matter most.
      </p>
      {off
        ? (
          <ul class="offsite grid">
            {OFFSITE.map(({ key, name, why }) => {
              const check = off[key];
              const href = safeHttpUrl(check.url);
              const status = check.status === "found"
                ? "pass"
                : check.status === "not_found"
                ? "warn"
                : "unknown";
              return (
                <li class="card">
                  <h3>{name}</h3>
                  <p>
                    <span class={`badge status-${status}`}>{OFFSITE_STATUS[check.status]}</span>
                  </p>
                  <p>{check.detail}</p>
                  <p class="muted">{why}</p>
                  {href && (
                    <p>
                      <a href={href} rel="nofollow noopener noreferrer" class="external">
                        Open on {name}
                        <span class="visually-hidden">{` (${props.record.domain})`}</span>
                      </a>
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        )
        : <p>The off-site checks could not run for this scan.</p>}
    </section>
  );
}

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
