/**
 * The AI visibility report's presence beyond the site: Wikidata, Wikipedia, Common Crawl, what
 * was found and why each matters. Links taken from the record must pass {@link safeHttpUrl}.
 */
import type { VNode } from "preact";
import type { OffSiteCheck, ScanRecord } from "../../../engines/visibility/record.ts";
import { safeHttpUrl } from "../../../kit/ui/format.ts";

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
