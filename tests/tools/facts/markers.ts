/**
 * The markers that hold generated facts in a Markdown file, and their filling. Two kinds, both
 * invisible once rendered:
 *
 * - a block, on lines of its own: `<!-- facts:NAME -->`, the generated Markdown, `<!-- /facts:NAME -->`
 *   (a table, a list);
 * - an inline value inside prose, its opening marker glued to the word before it and its value
 *   after a space: `each of the<!--fact:NAME--> 32<!--/fact--> crawlers`. Markdown reads a line
 *   that starts with `<!--` as an HTML block (the paragraph would end there and the rest of the
 *   line would lose its Markdown), and `deno fmt` may break a line before any space: glued, neither
 *   marker can start a line (the value may wrap; it has no space before its closing marker). In a
 *   table row, which never wraps, a cell may start with one: `| <!--fact:NAME-->32<!--/fact--> |`.
 *
 * Filling replaces what is between each pair with the fact's current text; a name that is not
 * known, or a marker left open, is an error (never a silent skip).
 */

/** The line that opens a generated block. */
export const blockOpen = (name: string): string => `<!-- facts:${name} -->`;
/** The line that closes a generated block. */
export const blockClose = (name: string): string => `<!-- /facts:${name} -->`;

const INLINE_OPEN = "<!--fact:";
const INLINE_CLOSE = "<!--/fact-->";
const BLOCK_OPEN = "<!-- facts:";

/**
 * True when `index` is inside code (a fenced block, or a code span of its line), where a marker
 * is text about markers, not one.
 */
function inCode(text: string, index: number): boolean {
  let fenced = false;
  for (let at = 0; at < index;) {
    const end = text.indexOf("\n", at);
    const stop = end < 0 || end >= index ? index : end;
    if (text.slice(at, stop).trimStart().startsWith("```") && stop !== index) fenced = !fenced;
    if (stop === index) {
      const ticks = text.slice(at, index).split("`").length - 1;
      return fenced || ticks % 2 === 1;
    }
    at = end + 1;
  }
  return fenced;
}

/** The next `marker` at or after `from` that is not inside code, or -1. */
function nextMarker(text: string, marker: string, from: number): number {
  for (let i = text.indexOf(marker, from); i >= 0; i = text.indexOf(marker, i + 1)) {
    if (!inCode(text, i)) return i;
  }
  return -1;
}

/** The generated facts a file may name. */
export interface FactSource {
  /** Block name -> its Markdown (without the markers). */
  blocks: Record<string, () => string>;
  /** Inline name -> its text. */
  inline: Record<string, string>;
}

/** A marker that cannot be filled. */
export class FactMarkerError extends Error {
  override name = "FactMarkerError";
}

/** The names of the facts a text holds, blocks and inline values. */
export function factNames(text: string): { blocks: string[]; inline: string[] } {
  const names = (open: string, end: string) => {
    const out: string[] = [];
    for (let i = nextMarker(text, open, 0); i >= 0; i = nextMarker(text, open, i + 1)) {
      const stop = text.indexOf(end, i + open.length);
      if (stop >= 0) out.push(text.slice(i + open.length, stop));
    }
    return out;
  };
  return { blocks: names(BLOCK_OPEN, " -->"), inline: names(INLINE_OPEN, "-->") };
}

/** `text` with every block and inline fact replaced by its current value. */
export function fillFacts(text: string, source: FactSource, file = "the text"): string {
  return fillInline(fillBlocks(text, source, file), source, file);
}

function fillBlocks(text: string, source: FactSource, file: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const open = nextMarker(text, BLOCK_OPEN, at);
    if (open < 0) return out + text.slice(at);
    const nameEnd = text.indexOf(" -->", open);
    if (nameEnd < 0) throw new FactMarkerError(`${file}: an unterminated block marker`);
    const name = text.slice(open + BLOCK_OPEN.length, nameEnd);
    const make = source.blocks[name];
    if (!make) throw new FactMarkerError(`${file}: no generated block named "${name}"`);
    const close = text.indexOf(blockClose(name), nameEnd);
    if (close < 0) throw new FactMarkerError(`${file}: block "${name}" has no ${blockClose(name)}`);
    out += `${text.slice(at, open)}${blockOpen(name)}\n\n${make().trim()}\n\n${blockClose(name)}`;
    at = close + blockClose(name).length;
  }
}

function fillInline(text: string, source: FactSource, file: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const open = nextMarker(text, INLINE_OPEN, at);
    if (open < 0) return out + text.slice(at);
    const nameEnd = text.indexOf("-->", open);
    if (nameEnd < 0) throw new FactMarkerError(`${file}: an unterminated fact marker`);
    const name = text.slice(open + INLINE_OPEN.length, nameEnd);
    if (!(name in source.inline)) throw new FactMarkerError(`${file}: no fact named "${name}"`);
    // A table row never wraps, and its line starts with "|": there a cell may start with a fact.
    const inRow = text.slice(text.lastIndexOf("\n", open) + 1, open).trimStart().startsWith("|");
    if (!inRow && (open === 0 || /\s/.test(text[open - 1]))) {
      throw new FactMarkerError(
        `${file}: glue fact "${name}" to the word before it (\`of the<!--fact:${name}--> ...\`), ` +
          "or deno fmt may start a line with it",
      );
    }
    const close = text.indexOf(INLINE_CLOSE, nameEnd);
    const next = nextMarker(text, INLINE_OPEN, nameEnd);
    if (close < 0 || (next >= 0 && next < close)) {
      throw new FactMarkerError(`${file}: fact "${name}" has no ${INLINE_CLOSE}`);
    }
    // The space between the marker and the value stays (a line may break there); none is added.
    const space = /^\s/.test(text.slice(nameEnd + 3, close)) ? " " : "";
    const value = source.inline[name];
    out += `${text.slice(at, open)}${INLINE_OPEN}${name}-->${space}${value}${INLINE_CLOSE}`;
    at = close + INLINE_CLOSE.length;
  }
}
