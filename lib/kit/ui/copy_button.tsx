/**
 * A "Copy" button for a code block (a fix's `how`, the generated JSON-LD, a badge snippet),
 * server-rendered and hidden: islands/copy.ts (in both browser bundles) shows every such button
 * and handles their clicks with one listener, so a report with twenty fixes carries twenty small
 * buttons, not twenty islands. Without JavaScript the button stays hidden and the text selectable.
 */
import type { VNode } from "preact";

/** A copy button for the element with id `target`; `what` completes "Copy" for screen readers. */
export function CopyButton(props: { target: string; what: string }): VNode {
  return (
    <span class="copy">
      <button type="button" class="secondary copy-button" data-copy={props.target} hidden>
        Copy<span class="visually-hidden">{` ${props.what}`}</span>
      </button>
      <span class="copy-status" role="status"></span>
    </span>
  );
}
