/**
 * The frame of a failed scan's page, the same in every service's report: what went wrong, the
 * service's advice (its children), and the form to scan again.
 */
import type { ComponentChildren, VNode } from "preact";

/** The frame of a failed scan's page, for both services: what went wrong, advice, scan again. */
export function FailedReportBody(
  props: {
    head: VNode;
    heading: string;
    failure: string;
    rescan: VNode;
    children: ComponentChildren;
  },
): VNode {
  return (
    <article class="report">
      {props.head}
      <section class="card" aria-labelledby="failed-title">
        <h2 id="failed-title">{props.heading}</h2>
        <div class="notice error">
          <p>
            <strong>What went wrong:</strong> {props.failure}
          </p>
        </div>
        {props.children}
        <div class="report-actions">{props.rescan}</div>
      </section>
    </article>
  );
}
