/**
 * The fixes of the AI visibility report past the first screen, in the order they matter (the
 * same order the first screen starts), each collapsed to its title and badges, one click from the
 * full fix. Code blocks of a fix get their own Copy button; plain advice is prose, never code.
 */
import type { VNode } from "preact";
import { CopyButton } from "./copy_button.tsx";
import { parseHow } from "../visibility/fix_text.ts";
import type { Issue } from "../visibility/record.ts";
import { learnPath } from "../report_urls.ts";
import { EFFORT_TEXT, IMPACT_TEXT } from "./report_texts.ts";

/** Issues from `from` (1-based) on, collapsed, numbered on from the first screen's. */
export function MoreFixes(props: { issues: Issue[]; from: number }): VNode | null {
  const rest = props.issues.slice(props.from - 1);
  if (!rest.length) return null;
  return (
    <section aria-labelledby="more-title" class="more-fixes-section">
      <h2 id="more-title">More fixes, in order</h2>
      <p class="muted">
        Listed as they matter: anything that caps the score first, then critical, high, medium and
        low impact, and within each the most points for the least effort. Open one to see the fix
        written for this site.
      </p>
      <ol class="issues" start={props.from}>
        {rest.map((issue, i) => <IssueItem key={issue.id} issue={issue} n={props.from + i} />)}
      </ol>
    </section>
  );
}

/** One issue: its summary line (number, title, impact, effort) and the full fix behind it. */
export function IssueItem(props: { issue: Issue; n: number }): VNode {
  const { issue, n } = props;
  return (
    <li id={`issue-${n}`} class="card issue">
      <details class="fix-details">
        <summary>
          <span class="issue-summary">
            <span class="issue-n">{n}.</span> <strong>{issue.title}</strong>
          </span>{" "}
          <span class="issue-tags">
            <span class={`badge impact-${issue.impact}`}>{IMPACT_TEXT[issue.impact]}</span>
            <span class="badge effort">{EFFORT_TEXT[issue.fix.effort]}</span>
          </span>
        </summary>
        <p>{issue.detail}</p>
        <p class="why">
          <strong>Why it matters:</strong> {issue.fix.why}
        </p>
        <h4>How</h4>
        <FixHow how={issue.fix.how} n={n} />
        <p>
          <a href={learnPath(issue.id)}>
            Learn more<span class="visually-hidden">{` about ${issue.title}`}</span>
          </a>
        </p>
      </details>
    </li>
  );
}

const CODE_LABEL: Record<string, string> = {
  html: "HTML",
  xml: "XML",
  json: "JSON",
  markdown: "Markdown",
  robots: "robots.txt",
};

/**
 * A fix's `how`: its prose steps as paragraphs and each fenced code block as its own block with
 * its own Copy button, which copies exactly that code and nothing of the prose around it.
 */
export function FixHow(props: { how: string; n: number }): VNode {
  let k = 0;
  return (
    <div class="fix-steps">
      {parseHow(props.how).map((part, i) => {
        if (part.kind === "prose") {
          return <p key={i} class="fix-step">{part.text}</p>;
        }
        k++;
        const id = `fix-${props.n}-code-${k}`;
        return (
          <div key={i} class="code-with-copy">
            <div class="how-head">
              <span class="code-label">{CODE_LABEL[part.lang] ?? "Code"}</span>
              <CopyButton target={id} what={`code ${k} of fix ${props.n}`} />
            </div>
            <pre class="code-block fix-how" tabIndex={0}><code id={id}>{part.code}</code></pre>
          </div>
        );
      })}
    </div>
  );
}
