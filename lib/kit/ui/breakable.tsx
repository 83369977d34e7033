/**
 * Text whose long runs (a URL, a path) may wrap at their separators (issue 42: paths break at
 * separators, never mid-word, and never push a page sideways): a `<wbr>` goes before each `/`, `?`,
 * `#` and `.` and after each `-`, `_`, `=` and `&` of a run longer than {@link LONG}; short words
 * are left alone. The text is escaped by Preact as any other; each piece is its own keyed
 * Fragment (preact-render-to-string 6.8 with preact 11 escapes a bare string in a children array
 * twice, see lib/features/visibility/views/report_issues.tsx).
 */
import { Fragment, type VNode } from "preact";

/** Runs at least this long get break opportunities (a phone's column holds about 30 characters). */
export const LONG = 20;

const BEFORE = new Set(["/", "?", "#", "."]);
const AFTER = new Set(["-", "_", "=", "&"]);

/**
 * The pieces of `text` between break opportunities: a run of non-space characters longer than
 * {@link LONG} is cut before `/?#.` and after `-_=&` (one pass over the text).
 */
export function breakPieces(text: string): string[] {
  const out: string[] = [];
  let piece = "";
  let runEnd = 0;
  let long = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    // At the start of a run of non-space characters, find its end once (the scan moves on).
    if (i >= runEnd && !/\s/.test(c)) {
      runEnd = i;
      while (runEnd < text.length && !/\s/.test(text[runEnd])) runEnd++;
      long = runEnd - i > LONG;
    } else if (/\s/.test(c)) long = false;
    // Never inside "//" or ":/" (a scheme reads whole).
    const prev = text[i - 1] ?? " ";
    if (long && BEFORE.has(c) && piece && !/[\s/:]/.test(prev)) {
      out.push(piece);
      piece = "";
    }
    piece += c;
    if (long && AFTER.has(c) && i + 1 < runEnd) {
      out.push(piece);
      piece = "";
    }
  }
  if (piece) out.push(piece);
  return out;
}

/** `text` with a `<wbr>` at each break opportunity of its long runs. */
export function Breakable(props: { text: string }): VNode {
  const pieces = breakPieces(props.text);
  return (
    <>
      {pieces.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </>
  );
}
