/**
 * The AI's-eye view on the report pages (docs/rendering.md): for a scan that asked to render, each
 * page's server HTML beside its rendered DOM, in plain words what GPTBot, ClaudeBot and
 * PerplexityBot miss, and which crawlers render (with the registry's sources). The Schema Markup
 * Generator's view of the page is lib/features/schema/views/schema_view_section.tsx. Everything from
 * the page is text (escaped).
 */
import type { VNode } from "preact";
import type { RenderedPage, RenderView } from "../../../engines/render/view.ts";
import { pagePath } from "../../../engines/visibility/audit/format_pages.ts";
import { safeHttpUrl } from "../../../kit/ui/format.ts";

const VERDICT_WORDS: Record<RenderedPage["verdict"], string> = {
  server: "in the server HTML",
  partly_js: "partly added by scripts",
  js_only: "only after scripts",
  thin: "thin in both views",
  unknown: "not rendered",
};

/** Which crawlers render, in one sentence per side, with the sources. */
function CrawlerFacts(props: { view: RenderView }): VNode {
  const renders = props.view.crawlers.filter((c) => c.renders);
  const not = props.view.crawlers.filter((c) => !c.renders);
  const links = (list: RenderView["crawlers"]) =>
    list.map((c, i) => (
      <>
        {i > 0 && ", "}
        {safeHttpUrl(c.source)
          ? <a href={safeHttpUrl(c.source)!} rel="noopener noreferrer">{c.token}</a>
          : c.token}
      </>
    ));
  return (
    <p class="muted">
      Run JavaScript: {links(renders)} (their vendors say so). Do not: {links(not)}{" "}
      (a published measurement of their traffic; their vendors are silent). Other crawlers are
      documented neither way. Checked {props.view.crawlers[0]?.checked ?? "–"}.
    </p>
  );
}

/** The rendered view of a visibility record; nothing for a scan that did not ask to render. */
export function RenderViewSection(props: { view: RenderView | undefined }): VNode | null {
  const view = props.view;
  if (!view) return null;
  const rendered = view.status === "rendered" || view.status === "partial";
  return (
    <section aria-labelledby="render-title">
      <h2 id="render-title">What AI crawlers see: server HTML and rendered page</h2>
      <div class="card">
        {rendered
          ? (
            <p>
              Rendered by {view.browser} in {Math.round(view.elapsedMs / 100) / 10} s (budget{" "}
              {Math.round(view.budgetMs / 1000)} s).{" "}
              {view.reason ? `Not every page: ${view.reason}.` : ""}
            </p>
          )
          : (
            <p>
              <strong>Not rendered</strong>:{" "}
              {view.reason}. Nothing is concluded from that: the JavaScript verdicts in this report
              are judged from the server HTML alone.
            </p>
          )}
        <CrawlerFacts view={view} />
      </div>
      {view.pages.length > 0 && (
        <div class="card table-wrap">
          <table class="pages-table">
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Text</th>
                <th scope="col">Words (server → rendered)</th>
                <th scope="col">What GPTBot, ClaudeBot and PerplexityBot miss</th>
              </tr>
            </thead>
            <tbody>
              {view.pages.map((p) => (
                <tr>
                  <th scope="row">{pagePath(p.url)}</th>
                  <td>{VERDICT_WORDS[p.verdict]}</td>
                  <td>{p.raw && p.rendered ? `${p.raw.words} → ${p.rendered.words}` : "–"}</td>
                  <td>{p.missed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
