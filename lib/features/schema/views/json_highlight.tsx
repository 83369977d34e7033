/**
 * Server-side syntax highlighting of JSON (and of a `<script type="application/ld+json">`
 * element) into spans with classes: no client library, no inline style. Every piece of text
 * becomes a Preact text child, so it is escaped by the renderer: markup inside a JSON string
 * taken from a scanned page stays text.
 */
import type { ComponentChildren, VNode } from "preact";
import { isSpace } from "../../../kit/text/trim.ts";

/**
 * JSON text as highlighted children (keys, strings, numbers, literals, punctuation), read in one
 * pass. A string left open at the end of its line is plain text up to there (the expression this
 * replaces retried an open string from every quote after it: quadratic in a line of `\"`).
 */
export function highlightJson(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  let i = 0;
  const emit = (at: number, end: number, node: ComponentChildren, after?: string) => {
    if (at > last) out.push(text.slice(last, at));
    out.push(node);
    if (after) out.push(after);
    last = i = end;
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) {
        i = lineEnd(text, i);
        continue;
      }
      let k = end;
      while (k < text.length && isSpace(text.charCodeAt(k))) k++;
      const str = text.slice(i, end);
      if (text.charCodeAt(k) === COLON) {
        emit(i, k + 1, <span class="j-key">{str}</span>, text.slice(end, k + 1));
      } else emit(i, end, <span class="j-str">{str}</span>);
    } else if (isDigit(c) || (c === MINUS && isDigit(text.charCodeAt(i + 1)))) {
      const end = numberEnd(text, i);
      emit(i, end, <span class="j-num">{text.slice(i, end)}</span>);
    } else if (PUNCTUATION.has(c)) {
      emit(i, i + 1, <span class="j-pun">{text[i]}</span>);
    } else if (isWordChar(c) && (i === 0 || !isWordChar(text.charCodeAt(i - 1)))) {
      const word = LITERALS.find((w) =>
        text.startsWith(w, i) && !isWordChar(text.charCodeAt(i + w.length))
      );
      if (word) emit(i, i + word.length, <span class="j-lit">{word}</span>);
      else i++;
    } else i++;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, MINUS = 0x2d, NEWLINE = 0x0a;
const PUNCTUATION = new Set([..."{}[],"].map((ch) => ch.charCodeAt(0)));
const LITERALS = ["true", "false", "null"];

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** RegExp `\w`: ASCII letters, digits and `_`. */
function isWordChar(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

/** Where the string opening at `at` ends (after its quote), or -1 if a newline or the end comes first. */
function stringEnd(text: string, at: number): number {
  for (let k = at + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === QUOTE) return k + 1;
    if (c === NEWLINE) return -1;
    if (c === BACKSLASH) {
      const next = text.charCodeAt(k + 1);
      // An escape takes any character but a line terminator, as `\\.` did.
      if (
        Number.isNaN(next) || next === NEWLINE || next === 0x0d || next === 0x2028 ||
        next === 0x2029
      ) {
        return -1;
      }
      k++;
    }
  }
  return -1;
}

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl < 0 ? text.length : nl;
}

/** The end of `-?\d+(\.\d+)?([eE][+-]?\d+)?` starting at `at`. */
function numberEnd(text: string, at: number): number {
  let k = at;
  if (text.charCodeAt(k) === MINUS) k++;
  while (isDigit(text.charCodeAt(k))) k++;
  if (text.charCodeAt(k) === 0x2e && isDigit(text.charCodeAt(k + 1))) {
    k += 2;
    while (isDigit(text.charCodeAt(k))) k++;
  }
  const e = text.charCodeAt(k);
  if (e === 0x65 || e === 0x45) {
    let j = k + 1;
    const sign = text.charCodeAt(j);
    if (sign === 0x2b || sign === MINUS) j++;
    if (isDigit(text.charCodeAt(j))) {
      while (isDigit(text.charCodeAt(j))) j++;
      k = j;
    }
  }
  return k;
}

/** A `<script type="application/ld+json">…</script>` element: its tags dimmed, its JSON coloured. */
export function highlightJsonLdScript(script: string): ComponentChildren[] {
  const m = script.match(/^(\s*<script[^>]*>)([\s\S]*?)(<\/script>\s*)$/i);
  if (!m) return highlightJson(script);
  return [
    <span key="open" class="j-tag">{m[1]}</span>,
    ...highlightJson(m[2]),
    <span key="close" class="j-tag">{m[3]}</span>,
  ];
}

/** A `<pre><code>` block with an id (the copy button reads its text). */
export function CodeBlock(
  props: { id: string; children: ComponentChildren; /** Scrolls past ~30 lines. */ tall?: boolean },
): VNode {
  // Focusable so a keyboard user can scroll a wide (or tall) block.
  return (
    <pre class={props.tall ? "code-block tall" : "code-block"} tabIndex={0}>
      <code id={props.id}>{props.children}</code>
    </pre>
  );
}
