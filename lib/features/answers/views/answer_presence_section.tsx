/**
 * The report's "Answer presence" section (lib/features/answers/panel.ts gives its data), shown only to the
 * signed-in account that watches the site: per provider, how often its answers named and cited the
 * site (k of N with the 95% interval), beside what the site's robots.txt and edge say about that
 * vendor's crawlers; the questions and their basis; what each assistant said and cited; the
 * estimated cost of a run and the form that starts one. It does not change the score. Everything
 * from a vendor or a page is text (Preact escapes it); sources are links with rel="nofollow".
 */
import type { VNode } from "preact";
import type { AnswersPanel } from "../panel.ts";
import type { Measures, ProviderResult } from "../run_types.ts";
import { rateText } from "../wilson.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { safeHttpUrl } from "../../../kit/ui/format.ts";
import { fillPath, PATHS } from "../../../kit/report_urls.ts";

const MEASURE_WORDS: [keyof Measures, string][] = [
  ["mentioned", "Named"],
  ["cited", "Cited"],
  ["competitorOnly", "Only others cited"],
  ["retrievedNotCited", "Found, not cited"],
];

/** The section. */
export function AnswerPresenceSection(props: { panel: AnswersPanel }): VNode {
  const { panel } = props;
  const { plan, latest } = panel;
  const configured = plan.providers.some((p) => p.configured);
  const left = plan.budget.account
    ? Math.max(0, plan.budget.account.limit - plan.budget.account.used)
    : null;
  return (
    <section id="answers" class="card answer-presence" aria-labelledby="answers-title">
      <h2 id="answers-title">Answer presence</h2>
      <p class="muted">
        What AI assistants answer when asked about this site, through their own APIs. Only your
        account sees this section; it does not change the score. Each question is asked{" "}
        {plan.samples} times of each provider, because answers vary from one time to the next.
      </p>
      {latest ? <RunResults panel={panel} /> : <p>No run yet.</p>}
      <h3>The questions</h3>
      <ol>
        {plan.questions.map((q) => (
          <li key={q.text}>
            {q.text} <span class="muted">({q.basis}{q.namesSite ? "; names the site" : ""})</span>
          </li>
        ))}
      </ol>
      <details>
        <summary>Edit the questions and competitors</summary>
        <form
          method="post"
          action={fillPath(PATHS.accountAnswerQuestions, { domain: panel.domain })}
        >
          <input type="hidden" name="csrf" value={panel.csrf} />
          <label for="answer-questions">One question per line</label>
          <textarea id="answer-questions" name="questions" rows={5}>
            {plan.questions.map((q) => q.text).join("\n")}
          </textarea>
          <label for="answer-competitors">Competitors' domains, comma-separated</label>
          <input id="answer-competitors" name="competitors" value={plan.competitors.join(", ")} />
          <button type="submit" class="secondary">Save</button>
        </form>
      </details>
      <h3>Run</h3>
      <p>
        {configured
          ? `A run makes ${plan.estimate.calls} calls (${
            plan.providers.filter((p) => p.configured).map((p) =>
              p.label
            ).join(", ")
          }) and costs about $${plan.estimate.usd.toFixed(2)}: an estimate from the vendors' ` +
            "published prices; they bill what the calls really use."
          : "No provider is configured on this instance."} {left !== null &&
          `Your account has ${left} of its ${plan.budget.account!.limit} calls left today.`}
      </p>
      {panel.running
        ? <p class="notice" role="status">A run is in progress: reload in a few minutes.</p>
        : configured && (
          <form method="post" action={fillPath(PATHS.accountAnswerRun, { domain: panel.domain })}>
            <input type="hidden" name="csrf" value={panel.csrf} />
            <button type="submit">Ask the assistants now</button>
          </form>
        )}
    </section>
  );
}

function RunResults(props: { panel: AnswersPanel }): VNode {
  const run = props.panel.latest!;
  return (
    <>
      <p>
        Run of <LocalTime iso={run.createdAt} />
        {run.scan && (
          <>
            , beside the scan of <LocalTime iso={run.scan.scannedAt} />
          </>
        )}.
      </p>
      {run.providers.map((p) => <ProviderCard key={p.id} provider={p} run={run} />)}
      {props.panel.answers && props.panel.answers.answers.length > 0 && (
        <details>
          <summary>What each assistant said ({props.panel.answers.answers.length} answers)</summary>
          <p class="muted">
            Kept as said, up to {props.panel.answers.kept.answerChars} characters and{" "}
            {props.panel.answers.kept.sourcesPerAnswer} sources each.
          </p>
          {props.panel.answers.answers.map((a) => (
            <article key={`${a.provider}-${a.questionIndex}-${a.sample}`} class="answer">
              <h4>
                {a.provider}, "{a.question}", answer {a.sample}
              </h4>
              {a.ok
                ? <p class="answer-text">{a.text}{a.cut ? " [cut]" : ""}</p>
                : <p class="muted">No answer: {a.failure} {a.status ? `(${a.status})` : ""}</p>}
              {a.sources.length > 0 && (
                <ul>
                  {a.sources.map((s) => (
                    <li key={s.url}>
                      {safeHttpUrl(s.url)
                        ? (
                          <a href={safeHttpUrl(s.url)!} rel="nofollow noopener noreferrer ugc">
                            {s.title ?? s.host ?? s.url}
                          </a>
                        )
                        : (s.title ?? s.host ?? s.url)}{" "}
                      <span class="muted">({s.kind}{s.host ? `, ${s.host}` : ""})</span>
                    </li>
                  ))}
                </ul>
              )}
            </article>
          ))}
        </details>
      )}
    </>
  );
}

function ProviderCard(props: { provider: ProviderResult; run: AnswersPanel["latest"] & object }) {
  const p = props.provider;
  return (
    <div class="answer-provider">
      <h3>{p.label}</h3>
      <p class={p.status === "not_configured" ? "muted" : ""}>{p.detail}</p>
      {p.status !== "not_configured" && (
        <div class="table-wrap">
          <table class="stack-table">
            <thead>
              <tr>
                <th scope="col">Question</th>
                {MEASURE_WORDS.map(([, w]) => <th key={w} scope="col">{w}</th>)}
              </tr>
            </thead>
            <tbody>
              {p.questions.map((q) => (
                <tr key={q.question}>
                  <td data-label="Question">{props.run.questions[q.question]?.text}</td>
                  {MEASURE_WORDS.map(([m, w]) => (
                    <td key={m} data-label={w}>{rateText(q.measures[m])}</td>
                  ))}
                </tr>
              ))}
              <tr>
                <td data-label="Question">
                  <strong>Every question</strong>
                </td>
                {MEASURE_WORDS.map(([m, w]) => (
                  <td key={m} data-label={w}>
                    <strong>{rateText(p.overall[m])}</strong>
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </div>
      )}
      {p.changes.length > 0 && (
        <ul>
          {p.changes.map((c) => (
            <li key={`${c.question}-${c.measure}`}>
              Since the previous run, {c.measure} went {c.direction}: {rateText(c.before)} to{" "}
              {rateText(c.after)}
              {c.question ? ` for "${c.question}"` : " over every question"}.
            </li>
          ))}
        </ul>
      )}
      {p.causes && (
        <>
          <ul class="crawler-verdicts">
            {p.causes.crawlers.map((c) => (
              <li key={c.token}>
                <code>{c.token}</code>: {c.verdicts.length
                  ? c.verdicts.map((v) => `${v.access} by ${v.label}`).join(", ")
                  : "no verdict in the stored scan"}
              </li>
            ))}
          </ul>
          {p.causes.notes.map((n) => <p key={n}>{n}</p>)}
        </>
      )}
    </div>
  );
}
