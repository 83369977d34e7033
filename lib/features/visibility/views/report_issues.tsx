/**
 * The fixes of the AI visibility report past the first screen, in the order they matter (the
 * same order the first screen starts), each collapsed to its title and badges (what it is worth,
 * impact, effort), one click from the full fix. Code blocks of a fix get their own Copy button;
 * plain advice is prose, never code (a command named in a sentence is inline code).
 */
import { Fragment, type VNode } from "preact";
import { CopyButton } from "../../../kit/ui/copy_button.tsx";
import { inlineParts, parseHow } from "../../../engines/visibility/fix_text.ts";
import { Breakable } from "../../../kit/ui/breakable.tsx";
import type { Issue, Result } from "../../../engines/visibility/record.ts";
import { learnPath } from "../../../kit/report_urls.ts";
import { EFFORT_TEXT, IMPACT_TEXT, worthText } from "../../../engines/visibility/report_texts.ts";

/** Issues from `from` (1-based) on, collapsed, numbered on from the first screen's. */
export function MoreFixes(props: { result: Result; from: number }): VNode | null {
  const rest = props.result.topIssues.slice(props.from - 1);
  if (!rest.length) return null;
  return (
    <section aria-labelledby="more-title" class="more-fixes-section">
      <h2 id="more-title">More fixes, in order</h2>
      <p class="muted">
        Listed as they matter: anything that caps the score first, then critical, high, medium and
        low impact, and within each the most points for the least effort. Fixes that change the same
        thing (the same robots.txt groups, the same template) are one. Open one to see the fix
        written for this site.
      </p>
      <ol class="issues" start={props.from}>
        {rest.map((issue, i) => (
          <IssueItem key={issue.id} issue={issue} n={props.from + i} result={props.result} />
        ))}
      </ol>
    </section>
  );
}

/** One issue: its summary line (number, title, worth, impact, effort) and the full fix behind it. */
export function IssueItem(props: { issue: Issue; n: number; result: Result }): VNode {
  const { issue, n } = props;
  return (
    <li id={`issue-${n}`} class="card issue" data-cause={issue.fix.cause?.key ?? issue.id}>
      <details class="fix-details">
        <summary>
          <span class="issue-summary">
            <span class="issue-n">{n}.</span> <strong>{issue.title}</strong>
          </span>{" "}
          <span class="issue-tags">
            <span class="badge worth">{worthText(issue, props.result)}</span>
            <span class={`badge impact-${issue.impact}`}>{IMPACT_TEXT[issue.impact]}</span>
            <span class="badge effort">{EFFORT_TEXT[issue.fix.effort]}</span>
          </span>
        </summary>
        <p>{issue.detail}</p>
        <p class="why">
          <strong>Why it matters:</strong> {issue.fix.why}
        </p>
        <Resolves issue={issue} />
        {/* Under the section's h2, the next level (axe: heading-order). */}
        <h3 class="how-title">How</h3>
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

/**
 * The checks one fix resolves when it is more than its own (fixes of one cause merged), each
 * linking to its explanation; nothing for a fix of one check.
 */
export function Resolves(props: { issue: Issue }): VNode | null {
  const list = props.issue.resolves ?? [];
  if (list.length < 2) return null;
  return (
    <p class="resolves">
      One change, {list.length} checks: {list.map((r, i) => (
        <>
          {i > 0 && (i === list.length - 1 ? " and " : ", ")}
          <a href={learnPath(r.id)}>{r.title}</a>
        </>
      ))}.
    </p>
  );
}

/**
 * A prose step: text, with the code spans it holds (a command, a tag) set as code. Each plain run
 * is its own Fragment: preact-render-to-string 6.8 with preact 11 escapes a bare string inside a
 * children array twice ("<head>" read "&amp;lt;head>"), tests/fixes_text_test.ts.
 */
export function ProseText(props: { text: string }): VNode {
  return (
    <>
      {inlineParts(props.text).map((p, i) =>
        p.code ? <code key={i}>{p.text}</code> : (
          <Fragment key={i}>
            <Breakable text={p.text} />
          </Fragment>
        )
      )}
    </>
  );
}

const CODE_LABEL: Record<string, string> = {
  html: "HTML",
  xml: "XML",
  json: "JSON",
  markdown: "Markdown",
  robots: "robots.txt",
  sh: "Shell",
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
          return (
            <p key={i} class="fix-step">
              <ProseText text={part.text} />
            </p>
          );
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
