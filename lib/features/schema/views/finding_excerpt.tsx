/**
 * The code a structured-data finding is about, as the Rich Results Test shows it: a few numbered
 * lines of the JSON-LD script with the value (or the syntax error) highlighted. The excerpt comes
 * from lib/engines/structured/excerpts.ts; every character is text (escaped by Preact), never markup.
 */
import type { VNode } from "preact";
import type { Excerpt } from "../../../engines/structured/record.ts";

/**
 * The excerpt's lines, numbered, with its span in a `<mark>`. `position: false` when the finding's
 * own sentence says where (a syntax error): the caption names the block only, so each error gives
 * its line and column once.
 */
export function FindingExcerpt(props: { excerpt: Excerpt; position?: boolean }): VNode {
  const e = props.excerpt;
  const width = String(e.firstLine + e.lines.length - 1).length;
  return (
    <figure class="finding-excerpt">
      <figcaption class="muted">
        {props.position === false ? e.block : `${e.block}, line ${e.line}, column ${e.column}`}
      </figcaption>
      <pre class="code-block" tabIndex={0}>
        <code>
          {e.lines.map((text, i) => {
            const n = e.firstLine + i;
            const gutter = `${String(n).padStart(width)}  `;
            if (n !== e.line) {
              return <span class="excerpt-line" key={n}>{`${gutter}${text}\n`}</span>;
            }
            const from = Math.min(text.length, e.column - 1);
            const to = Math.min(text.length, from + Math.max(1, e.length));
            return (
              <span class="excerpt-line excerpt-at" key={n}>
                {`${gutter}${text.slice(0, from)}`}
                <mark>{text.slice(from, to) || " "}</mark>
                {`${text.slice(to)}\n`}
              </span>
            );
          })}
        </code>
      </pre>
    </figure>
  );
}

/** The summary's sentence when the page has no readable items: say why, never "no data". */
export function unreadableSummary(findings: { rule: string; itemIndex: number | null }[]) {
  const n = findings.filter((f) => f.rule === "json-ld" && f.itemIndex === null).length;
  return n
    ? `The page's structured data could not be read (${n} JSON-LD block${
      n === 1 ? "" : "s"
    }: see the finding below). `
    : null;
}
