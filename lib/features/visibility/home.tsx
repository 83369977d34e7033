/**
 * The AI Visibility Checker's home page: what the service does, the scan form with its browser
 * challenge, an example report, the pillars and grades as the scorer defines them.
 */
import type { VNode } from "preact";
import type { HomeProps } from "../../service.ts";
import { LIMITS } from "../../kit/limits/limits.ts";
import {
  GRADES as SCORE_GRADES,
  PILLARS as SCORED_PILLARS,
} from "../../engines/visibility/score.ts";
import { ScanFormBlock } from "../../kit/ui/scan_form.tsx";
import { PILLAR_PURPOSE } from "../../engines/visibility/report_texts.ts";
import { ExampleReport } from "./views/example_report.tsx";
import { DevelopersSection } from "../../kit/ui/developers_section.tsx";
import { LEARN_INDEX_PATH, PATHS } from "../../kit/report_urls.ts";
import { VISIBILITY_WORDS } from "./words.ts";

/** The pillars and their weights, as the scorer defines them (lib/engines/visibility/score.ts). */
const PILLARS = SCORED_PILLARS.map(({ id, title, weight }) => ({ id, title, weight }));

/** The grade bands, as the scorer defines them: each from its lowest score to the next band's. */
const GRADES = SCORE_GRADES.map((g, i) => ({
  grade: g.grade,
  range: `${g.min}-${i === 0 ? 100 : SCORE_GRADES[i - 1].min - 1}`,
  meaning: `${g.label}.`,
}));

/** The AI Visibility Checker's home page body. */
export function VisibilityHome(props: HomeProps): VNode {
  return (
    <>
      <section class="hero" aria-labelledby="home-title">
        <h1 id="home-title">Is your site visible to AI search?</h1>
        <p class="lead">
          ChatGPT, Perplexity, Claude and Google's AI answers recommend the sites they can read and
          trust. Enter your domain: in a few seconds you get a score out of 100, the issues that
          matter most, and the exact fix for each.
        </p>
        <ScanFormBlock
          widget={props.widget}
          form={VISIBILITY_WORDS.form}
          canRender={props.canRender}
        />
        <p class="muted small">
          Free and without an account. Up to {LIMITS.ip}{" "}
          new scans per hour from one network; every report has a link you can share.
        </p>
      </section>

      <section class="card watch-offer" aria-labelledby="watch-offer-title">
        <h2 id="watch-offer-title">Keep an eye on it, and ask the AI assistants</h2>
        <p>
          With a free account,{" "}
          <strong>watch your site</strong>: it is checked again every day or week and you get an
          e-mail (or a webhook) when something gets worse. And <strong>ask the assistants</strong>
          {" "}
          (ChatGPT, Perplexity, Claude, Gemini) the questions your customers ask: see how often they
          name and cite your site, beside your competitors, in plain words.
        </p>
        <p>
          <a class="button" href={PATHS.accountSignup}>Create a free account</a>{" "}
          <a href={PATHS.accountLogin}>or sign in</a>
        </p>
      </section>

      <ExampleReport />

      <section aria-labelledby="checks-title">
        <h2 id="checks-title">What we check</h2>
        <p>Six pillars, weighted by how much each matters to AI systems:</p>
        <ul class="grid pillar-cards">
          {PILLARS.map((p) => (
            <li class="card">
              <h3>
                {p.title} <span class="muted weight">{p.weight}%</span>
              </h3>
              <p>{PILLAR_PURPOSE[p.id]}</p>
            </li>
          ))}
        </ul>
        <p>
          Every check explained in plain words, with the vendors' own documentation:{" "}
          <a href={LEARN_INDEX_PATH}>what each check means</a>.
        </p>
      </section>

      <section aria-labelledby="get-title">
        <h2 id="get-title">What you get</h2>
        <ol class="get-list">
          <li>
            <strong>A score and a grade</strong>{" "}
            you can compare over time, with what they mean in plain words.
          </li>
          <li>
            <strong>The issues to fix first</strong>, in order of points gained for the effort, each
            with a fix written for your site (the robots.txt lines, the JSON-LD to paste, an
            llms.txt to start from) and a copy button.
          </li>
          <li>
            <strong>Every check</strong>{" "}
            we made, with what we saw, and your presence on Wikidata, Wikipedia and Common Crawl.
          </li>
          <li>
            <strong>A badge</strong> for your README or site that shows your latest score.
          </li>
        </ol>
      </section>

      <section aria-labelledby="grades-title">
        <h2 id="grades-title">What the grades mean</h2>
        <div class="table-wrap">
          <table class="grades">
            <caption class="visually-hidden">Grades and their meaning</caption>
            <thead>
              <tr>
                <th scope="col">Grade</th>
                <th scope="col">Score</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              {GRADES.map((g) => (
                <tr>
                  <td>
                    <strong class={`grade-${g.grade}`}>{g.grade}</strong>
                  </td>
                  <td class="nowrap">{g.range}</td>
                  <td>{g.meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <DevelopersSection sister={props.sister} sourceUrl={props.sourceUrl} />
    </>
  );
}
