/**
 * The schema report's "added by JavaScript" section (docs/rendering.md): for a scan that asked to
 * render, the structured data scripts add, with each item's errors and rich results. Everything
 * from the page is text (escaped).
 */
import type { VNode } from "preact";
import type { RenderedStructured } from "../../../engines/structured/record.ts";

/** The schema report's "added by JavaScript" section; nothing when the scan did not render. */
export function RenderedStructureSection(
  props: { rendered: RenderedStructured | undefined },
): VNode | null {
  const r = props.rendered;
  if (!r) return null;
  const added = [...r.added.jsonLd, ...r.added.microdata, ...r.added.rdfa];
  return (
    <section aria-labelledby="rendered-title">
      <h2 id="rendered-title">Structured data added by JavaScript</h2>
      <div class="card">
        <p>{r.note}</p>
        {r.browser && <p class="muted">Rendered by {r.browser}.</p>}
        {added.length > 0 && (
          <ul>
            {added.map((item) => (
              <li>
                {item.types.join(", ") || "untyped"} ({item.location}): {r.findings.filter((f) =>
                  f.source === item.source && f.itemIndex === item.index &&
                  f.severity === "error"
                ).length} errors, {r.eligibility.filter((e) =>
                  e.source === item.source && e.itemIndex === item.index &&
                  e.status !== "not eligible"
                ).map((e) => e.feature).join(", ") || "no rich result"}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
