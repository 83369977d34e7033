/**
 * A "Copy" button for a code block (a fix's `how`, the generated JSON-LD, a badge snippet). It
 * copies the text of the element whose id it is given, so the text is not repeated in the page's
 * props. Server-rendered hidden: without JavaScript it cannot work, and the text stays selectable.
 */
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";

export type CopyButtonProps = {
  /** The id of the element whose text is copied. */
  target: string;
  /** What is copied, for screen readers: "Copy" + this ("the robots.txt lines"). */
  what: string;
};

/** Copies the target's text; says "Copied" for a moment. */
export function CopyButton(props: CopyButtonProps): VNode {
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    const text = document.getElementById(props.target)?.textContent ?? "";
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      selectText(props.target);
      setState("failed");
    }
  }

  return (
    <span class="copy">
      <button type="button" class="secondary copy-button" hidden={!ready} onClick={copy}>
        {state === "copied" ? "Copied" : "Copy"}
        <span class="visually-hidden">{` ${props.what}`}</span>
      </button>
      <span class="copy-status" role="status">
        {state === "copied"
          ? "Copied to the clipboard."
          : state === "failed"
          ? "Copying is blocked here: the text is selected, press Ctrl+C."
          : ""}
      </span>
    </span>
  );
}

/** Selects the target's text so the visitor can copy it by hand. */
function selectText(id: string): void {
  const el = document.getElementById(id);
  const selection = globalThis.getSelection?.();
  if (!el || !selection) return;
  const range = document.createRange();
  range.selectNodeContents(el);
  selection.removeAllRanges();
  selection.addRange(range);
}
