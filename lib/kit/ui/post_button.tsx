/**
 * A form of one button that posts the session's form token (`csrf`) to `action`: signing out,
 * removing a thing. Server-rendered: it works without JavaScript.
 */
import type { VNode } from "preact";

/** The form. */
export function PostButton(props: { action: string; csrf: string; label: string }): VNode {
  return (
    <form method="post" action={props.action}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <button type="submit" class="secondary">{props.label}</button>
    </form>
  );
}
