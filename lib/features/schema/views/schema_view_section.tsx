/**
 * The schema report's one view of the page (lib/engines/structured/merged_view.ts), in words: where each
 * item comes from (the server HTML, or scripts that add, change or remove it) and which readers
 * see it (Google renders; GPTBot, ClaudeBot and PerplexityBot do not, per the sources in
 * docs/rendering.md the record carries). The summary, the rich-result list, the findings and the
 * items table of lib/features/schema/views/schema_report.tsx use these words; the section below lists what scripts
 * did. Everything from the page is text (escaped by Preact).
 */
import type { VNode } from "preact";
import type {
  DetectedItem,
  ItemOrigin,
  PageView,
  Result,
} from "../../../engines/structured/record.ts";
import { allItems } from "../../../engines/structured/extract.ts";
import { nonRenderingNames } from "../../../engines/structured/page_view.ts";
import { safeHttpUrl } from "../../../kit/ui/format.ts";

/** Where an item comes from, as every view says it. */
export const ORIGIN_WORDS: Record<ItemOrigin, string> = {
  server: "Server HTML",
  added: "Added by scripts",
  changed: "Changed by scripts",
  removed: "Removed by scripts",
};

/** Which readers see an item of this origin, in plain words (the crawlers the record names). */
export function readersOf(origin: ItemOrigin, view: PageView | undefined): string {
  const others = nonRenderingNames(view?.readers ?? []);
  switch (origin) {
    case "server":
      return view?.rendered ? "Every crawler" : "Every crawler (scripts not run)";
    case "added":
      return `Google (renders); not ${others}`;
    case "changed":
      return `Google reads this version; ${others} the server HTML's`;
    case "removed":
      return `Only ${others}; Google does not see it`;
  }
}

/** A badge for an item that does not come from the server HTML unchanged; nothing otherwise. */
export function OriginBadge(props: { item: DetectedItem | undefined }): VNode | null {
  const origin = props.item?.origin;
  if (!origin || origin === "server") return null;
  return (
    <span class={`badge ${origin === "removed" ? "status-info" : "status-warn"}`}>
      {ORIGIN_WORDS[origin]}
    </span>
  );
}

/** The summary's sentence on who reads how many items, when the page was rendered. */
export function ReadersLine(props: { view: PageView | undefined }): VNode | null {
  const v = props.view;
  if (!v?.rendered) return null;
  const renders = v.readers.filter((r) => r.renders).map((r) => r.token);
  return (
    <p class="readers">
      {renders.length ? renders.join(" and ") : "Crawlers that render"} (they render the page) read
      {" "}
      <strong>{v.seen.rendering}</strong> item{v.seen.rendering === 1 ? "" : "s"};{" "}
      {nonRenderingNames(v.readers)} (they read the server HTML only) read{" "}
      <strong>{v.seen.nonRendering}</strong>.
    </p>
  );
}

/**
 * "Server HTML and rendered page": what scripts add, change and remove, and who sees each; or,
 * for a scan that asked to render and could not, why not. Nothing for a scan that did not ask.
 */
export function SchemaViewSection(props: { result: Result }): VNode | null {
  const r = props.result;
  const v = r.view;
  const attempt = r.rendered;
  if (!attempt && !v?.rendered) return null;
  const moved = allItems(r.detected).filter((i) => i.origin && i.origin !== "server");
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title">Server HTML and rendered page</h2>
      <div class="card">
        <p>{v?.note ?? attempt?.note}</p>
        {attempt?.browser && <p class="muted">Rendered by {attempt.browser}.</p>}
        {moved.length > 0 && (
          <ul class="view-items">
            {moved.map((item) => (
              <li>
                <OriginBadge item={item} /> <strong>{item.types.join(", ") || "untyped"}</strong>
                {" "}
                ({item.location}): {readersOf(item.origin!, v)}.
              </li>
            ))}
          </ul>
        )}
        {v && v.readers.length > 0 && (
          <p class="muted">
            Who renders: {v.readers.map((c, i) => (
              <>
                {i > 0 && ", "}
                {safeHttpUrl(c.source)
                  ? <a href={safeHttpUrl(c.source)!} rel="noopener noreferrer">{c.token}</a>
                  : c.token} {c.renders ? "renders" : "does not render"}
              </>
            ))} (sources checked {[...new Set(v.readers.map((c) => c.checked))].join(", ")}).
          </p>
        )}
      </div>
    </section>
  );
}
