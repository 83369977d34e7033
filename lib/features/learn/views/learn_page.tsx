/**
 * The "learn more" pages: /learn lists every check of the AI visibility report by pillar, and
 * /learn/<signal id> explains one check (what it is, why AI systems care, how we test it, and the
 * vendors' own documentation). The texts come from lib/engines/visibility/learn.ts, which the CLI and MCP
 * read too.
 */
import { Fragment, type VNode } from "preact";
import { learnEntries, type LearnEntry } from "../../../engines/visibility/learn.ts";
import { PILLARS } from "../../../engines/visibility/score.ts";
import { LEARN_INDEX_PATH, learnPath } from "../../../kit/report_urls.ts";
import { PILLAR_PURPOSE } from "../../../engines/visibility/report_texts.ts";

/**
 * Text with `backticked` code, as the learn texts write it, with the code set as code. Plain runs
 * are keyed Fragments: a bare string in a children array is escaped twice by
 * preact-render-to-string 6.8 with preact 11 ("<title>" read "&amp;lt;title>").
 */
export function Prose(props: { text: string }): VNode {
  return (
    <>
      {props.text.split("`").map((part, i) =>
        i % 2 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>
      )}
    </>
  );
}

/** /learn: every check, grouped by pillar. */
export function LearnIndex(): VNode {
  const entries = learnEntries();
  return (
    <article class="learn">
      <header class="report-head">
        <p class="eyebrow">Learn</p>
        <h1>What each check means</h1>
        <p class="lead">
          Every check of the AI visibility report, in plain words: what it is, why AI search engines
          and assistants care, how we test it, and the vendors' own documentation behind it.
        </p>
      </header>
      {PILLARS.map((p) => (
        <section class="card" aria-labelledby={`learn-${p.id}`}>
          <h2 id={`learn-${p.id}`}>
            {p.title} <span class="muted weight">{p.weight}% of the score</span>
          </h2>
          <p class="muted">{PILLAR_PURPOSE[p.id]}</p>
          <ul class="learn-list">
            {entries.filter((e) => e.pillar === p.id).map((e) => (
              <li>
                <a href={learnPath(e.id)}>{e.title}</a>{" "}
                <span class="muted">
                  <Prose text={e.what} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}

/** /learn/<id>: one check explained. */
export function LearnArticle(props: { entry: LearnEntry }): VNode {
  const e = props.entry;
  const pillar = PILLARS.find((p) => p.id === e.pillar);
  const gates = e.gate ? [e.gate] : [];
  return (
    <article class="learn">
      <header class="report-head">
        <p class="eyebrow">
          <a href={LEARN_INDEX_PATH}>Learn</a>
          {pillar ? ` · ${pillar.title}` : ""}
        </p>
        <h1>{e.title}</h1>
        <p class="lead">
          <Prose text={e.what} />
        </p>
      </header>
      <section class="card" aria-labelledby="learn-why">
        <h2 id="learn-why">Why AI systems care</h2>
        <p>
          <Prose text={e.why} />
        </p>
        {gates.map((g) => (
          <p class="gate">
            <strong>This check caps the whole score at {g.cap} when {g.name}.</strong>{" "}
            <span class="gate-why">{g.why}</span>{" "}
            <span class="gate-lift">It lifts when: {g.lift}</span>
          </p>
        ))}
      </section>
      <section class="card" aria-labelledby="learn-how">
        <h2 id="learn-how">How we test it</h2>
        <p>
          <Prose text={e.how} />
        </p>
        <p class="muted small">
          Check id: <code>{e.id}</code> (the <code>id</code> of the signal in the JSON report).
        </p>
      </section>
      {e.sources.length > 0 && (
        <section class="card" aria-labelledby="learn-sources">
          <h2 id="learn-sources">What the vendors say</h2>
          <ul>
            {e.sources.map((s) => (
              <li>
                <a href={s.url} rel="noopener noreferrer" class="external">{s.title}</a>{" "}
                <span class="muted">({s.by}, checked on {s.checked})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p>
        <a href={LEARN_INDEX_PATH}>Every check explained</a>
      </p>
    </article>
  );
}
