/**
 * The report's "Answer presence" section (lib/features/answers/panel.ts gives its data), shown only to the
 * signed-in account that watches the site: per provider, how often its answers named and cited the
 * site (k of N with the 95% interval), beside what the site's robots.txt and edge say about that
 * vendor's crawlers; the questions and their basis; what each assistant said and cited; the
 * estimated cost of a run and the form that starts one. It does not change the score. Everything
 * from a vendor or a page is text (Preact escapes it); sources are links with rel="nofollow".
 */
import type { VNode } from "preact";
import type { AnswersOffer, AnswersPanel } from "../panel.ts";
import type { Measures, ProviderResult } from "../run_types.ts";
import { plainRate, rateText } from "../wilson.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { Island } from "../../../kit/ui/layout.tsx";
import { ImportForm } from "../../../../islands/ImportForm.tsx";
import { safeHttpUrl } from "../../../kit/ui/format.ts";
import { fillPath, PATHS } from "../../../kit/report_urls.ts";

const MEASURE_WORDS: [keyof Measures, string][] = [
  ["mentioned", "Named"],
  ["cited", "Cited"],
  ["competitorOnly", "Only others cited"],
  ["retrievedNotCited", "Found, not cited"],
];

/** On the report of a site the signed-in account does not watch: watch it, ask the assistants. */
export function AnswerOfferSection(props: { offer: AnswersOffer }): VNode {
  const { offer } = props;
  return (
    <section id="watch-offer" class="card answer-offer" aria-labelledby="answers-offer-title">
      <h2 id="answers-offer-title">
        Watch this site{offer.assistants && " and ask the assistants"}
      </h2>
      <p>
        Watching {offer.domain}{" "}
        checks it again every week (or day) and tells you when something gets worse.
        {offer.assistants &&
          " It also asks the AI assistants the questions its customers ask, and shows how often " +
            "they name and cite it, beside its competitors."}
      </p>
      <form method="post" action={PATHS.accountWatches}>
        <input type="hidden" name="csrf" value={offer.csrf} />
        <input type="hidden" name="url" value={offer.domain} />
        <button type="submit">
          Watch this site{offer.assistants ? " and ask the assistants" : ""}
        </button>
      </form>
    </section>
  );
}

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
        {plan.samples}{" "}
        times of each assistant, because answers vary from one time to the next{plan.sampling
            .meetsFloor
          ? ` (at least the ${plan.sampling.floor} answers a day published research asks for)`
          : ` (fewer than the ${plan.sampling.floor} published research asks for: the ranges are wide)`}.
        These are answers through each vendor's API with web search, not what its app shows a
        signed-in person.
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
          <label for="answer-competitors">
            Competitors, one per line: a domain, or a domain = the name answers use
          </label>
          <textarea id="answer-competitors" name="competitors" rows={3}>
            {plan.competitors.map((c) =>
              plan.competitorNames?.[c] ? `${c} = ${plan.competitorNames[c]}` : c
            ).join("\n")}
          </textarea>
          <button type="submit" class="secondary">Save</button>
        </form>
      </details>
      {panel.pages && <PagesTable pages={panel.pages} />}
      <details>
        <summary>Add what Bing and Google saw (their exports)</summary>
        <p class="muted">
          Bing Webmaster Tools' AI Performance and Search Console's exports, shown per page beside
          these answers (<code>GET /api/answers/{panel.domain}/pages</code>; the API takes them too:
          {" "}
          <code>POST /api/answers/{panel.domain}/imports?source=…</code>).
        </p>
        <Island
          name="ImportForm"
          component={ImportForm}
          props={{ domain: panel.domain, csrf: panel.csrf }}
        />
      </details>
      <h3>Run</h3>
      <p>
        {configured
          ? `A run makes ${plan.estimate.calls} calls (${
            plan.providers.filter((p) => p.configured).map((p) => p.label).join(", ")
          }) and costs about $${plan.estimate.usd.toFixed(2)}: an estimate from the vendors' ` +
            "published prices; they bill what the calls really use."
          : "No provider is configured on this instance."} {left !== null &&
          `Your account has ${left} of its ${plan.budget.account!.limit} calls left today.`}
      </p>
      {panel.running
        ? (
          <div class="notice answer-run-progress" role="status">
            <p>
              Asking the assistants now: {panel.running.asked} of at most {panel.running.planned}
              {" "}
              answers so far. This page refreshes itself and shows the results when the run ends.
            </p>
            <progress value={panel.running.asked} max={panel.running.planned}>
              {Math.round((100 * panel.running.asked) / panel.running.planned)}%
            </progress>
          </div>
        )
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
  const label = p.rateLabel;
  return (
    <div class="answer-provider">
      <h3>{p.label}</h3>
      {p.status !== "not_configured" && label && (
        <p class="answer-plain">
          {label.provider} {plainRate(p.overall.mentioned, "named the site")}, and{" "}
          {plainRate(p.overall.cited, "cited it as a source")}.
        </p>
      )}
      <p class={p.status === "not_configured" ? "muted" : "muted small"}>
        {p.detail}
        {label && p.status !== "not_configured" &&
          ` Model ${label.model}; ${label.surface}; ${label.answers} answers counted.`}
      </p>
      {p.canary && <p class={`canary canary-${p.canary.status}`}>{p.canary.text}</p>}
      {p.status !== "not_configured" && (
        <details>
          <summary>The numbers (per question, 95% ranges, stability, searches)</summary>
          <div class="table-wrap">
            <table class="stack-table">
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  {MEASURE_WORDS.map(([, w]) => <th key={w} scope="col">{w}</th>)}
                  <th scope="col">Best rank cited</th>
                  <th scope="col">Answers agree</th>
                </tr>
              </thead>
              <tbody>
                {p.questions.map((q) => (
                  <tr key={q.question}>
                    <td data-label="Question">{props.run.questions[q.question]?.text}</td>
                    {MEASURE_WORDS.map(([m, w]) => (
                      <td key={m} data-label={w}>{rateText(q.measures[m])}</td>
                    ))}
                    <td data-label="Best rank cited">{q.citedRank?.best ?? "not cited"}</td>
                    <td data-label="Answers agree">
                      {q.stability?.citedSites === null || q.stability === undefined
                        ? "one answer"
                        : `${Math.round(q.stability.citedSites * 100)}% of cited sites`}
                    </td>
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
                  <td></td>
                  <td></td>
                </tr>
              </tbody>
            </table>
          </div>
          {p.questions.some((q) => q.queries?.length) && (
            <>
              <h4>What {p.label} searched for</h4>
              <ul>
                {p.questions.flatMap((q) =>
                  (q.queries ?? []).map((x) => (
                    <li key={`${q.question}-${x.query}`}>
                      "{x.query}" <span class="muted">({x.answers} answers)</span>
                    </li>
                  ))
                )}
              </ul>
            </>
          )}
        </details>
      )}
      {p.voice && p.voice.length > 1 && (
        <div class="table-wrap">
          <table class="stack-table share-of-voice">
            <caption>Share of voice beside your competitors</caption>
            <thead>
              <tr>
                <th scope="col">Site</th>
                <th scope="col">Named</th>
                <th scope="col">Cited</th>
                <th scope="col">Came first</th>
                <th scope="col">Share of mentions</th>
              </tr>
            </thead>
            <tbody>
              {p.voice.map((v) => (
                <tr key={v.domain}>
                  <td data-label="Site">{v.site ? <strong>{v.domain}</strong> : v.domain}</td>
                  <td data-label="Named">{rateText(v.mentioned)}</td>
                  <td data-label="Cited">{rateText(v.cited)}</td>
                  <td data-label="Came first">{rateText(v.first)}</td>
                  <td data-label="Share of mentions">
                    {v.mentionShare === null
                      ? "none named"
                      : `${Math.round(v.mentionShare * 100)}%`}
                  </td>
                </tr>
              ))}
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

/** Per page: the answers citing it, each export's figures, the logs' crawler fetches. */
function PagesTable(props: { pages: NonNullable<AnswersPanel["pages"]> }): VNode {
  const { pages } = props;
  const has = (source: string) =>
    pages.imports.some((i) => i.source === source && i.table === "pages");
  const num = (v: unknown) => (typeof v === "number" ? String(Math.round(v * 100) / 100) : "–");
  return (
    <div class="table-wrap">
      <table class="stack-table pages-beside">
        <caption>Your pages: the assistants' citations beside what Bing and Google saw</caption>
        <thead>
          <tr>
            <th scope="col">Page</th>
            <th scope="col">Answers citing it</th>
            {has("bing-ai") && <th scope="col">Bing AI citations</th>}
            {has("gsc") && <th scope="col">Google clicks</th>}
            {has("gsc") && <th scope="col">Google impressions</th>}
            {has("gsc-ai") && <th scope="col">Google AI impressions</th>}
            {pages.observedFromLogs && <th scope="col">Crawler fetches (logs)</th>}
          </tr>
        </thead>
        <tbody>
          {pages.pages.slice(0, 30).map((p) => (
            <tr key={p.path}>
              <td data-label="Page">
                <code>{p.path}</code>
              </td>
              <td data-label="Answers citing it">{p.answers.cited}</td>
              {has("bing-ai") && (
                <td data-label="Bing AI citations">
                  {num(p.sources["bing-ai"]?.metrics.citations)}
                </td>
              )}
              {has("gsc") && (
                <td data-label="Google clicks">{num(p.sources.gsc?.metrics.clicks)}</td>
              )}
              {has("gsc") && (
                <td data-label="Google impressions">{num(p.sources.gsc?.metrics.impressions)}</td>
              )}
              {has("gsc-ai") && (
                <td data-label="Google AI impressions">
                  {num(p.sources["gsc-ai"]?.metrics.impressions)}
                </td>
              )}
              {pages.observedFromLogs && (
                <td data-label="Crawler fetches (logs)">{p.observed ?? 0}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted small">
        {pages.imports.map((i) =>
          `${i.label} (${i.table}, imported ${i.importedAt.slice(0, 10)}${
            i.dates ? `, ${i.dates.from} to ${i.dates.to}` : ""
          }${
            i.unknownColumns.length ? `; other columns kept: ${i.unknownColumns.join(", ")}` : ""
          })`
        ).join(". ")}
      </p>
    </div>
  );
}
