/**
 * Server-side syntax highlighting of JSON (and of a `<script type="application/ld+json">`
 * element) into spans with classes: no client library, no inline style. Every piece of text
 * becomes a Preact text child, so it is escaped by the renderer: markup inside a JSON string
 * taken from a scanned page stays text.
 */
import type { ComponentChildren, VNode } from "preact";

const TOKEN =
  /("(?:[^"\\\n]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g;

/** JSON text as highlighted children (keys, strings, numbers, literals, punctuation). */
export function highlightJson(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index!;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined) {
      if (m[2] !== undefined) {
        out.push(<span class="j-key">{m[1]}</span>, m[2]);
      } else out.push(<span class="j-str">{m[1]}</span>);
    } else if (m[3] !== undefined) out.push(<span class="j-num">{m[3]}</span>);
    else if (m[4] !== undefined) out.push(<span class="j-lit">{m[4]}</span>);
    else out.push(<span class="j-pun">{m[5]}</span>);
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
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
