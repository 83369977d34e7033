/**
 * GET /: what the service does, the scan form with its browser challenge (Turnstile when its keys
 * are set, else the self-hosted ALTCHA proof of work), and what a report holds.
 */
import { Hono } from "hono";
import type { VNode } from "preact";
import { type AppDeps, type AppEnv, siteOrigin } from "../lib/web/context.ts";
import { SERVICE_WORDS, type ServiceName } from "../lib/service_words.ts";
import { LIMITS } from "../lib/limits/limits.ts";
import { GRADES as SCORE_GRADES, PILLARS as SCORED_PILLARS } from "../lib/visibility/score.ts";
import { renderPage } from "../lib/web/render.tsx";
import { ScanFormBlock } from "../lib/ui/scan_form.tsx";
import { shellFor } from "../lib/web/shell.ts";
import { ValidateCodeForm } from "../lib/ui/validate_code_form.tsx";
import { PILLAR_PURPOSE } from "../lib/ui/report_texts.ts";
import { ExampleReport } from "../lib/ui/example_report.tsx";
import { LEARN_INDEX_PATH } from "../lib/report_urls.ts";

/** The pillars and their weights, as the scorer defines them (lib/visibility/score.ts). */
const PILLARS = SCORED_PILLARS.map(({ id, title, weight }) => ({ id, title, weight }));

/** The grade bands, as the scorer defines them: each from its lowest score to the next band's. */
const GRADES = SCORE_GRADES.map((g, i) => ({
  grade: g.grade,
  range: `${g.min}-${i === 0 ? 100 : SCORE_GRADES[i - 1].min - 1}`,
  meaning: `${g.label}.`,
}));

/** Each service's home page body. */
const HOMES: Record<ServiceName, (props: { deps: AppDeps }) => VNode> = {
  visibility: (props) => <VisibilityHome {...props} />,
  schema: (props) => <SchemaHome {...props} />,
};

/** The / route. */
export function indexRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => {
    const origin = siteOrigin(c, deps.config.trustProxy);
    return renderPage(
      c,
      {
        title: deps.service.title,
        description: deps.service.words.homeDescription,
        canonical: `${origin}/`,
        image: `${origin}/static/og-${deps.service.name}.png`,
      },
      shellFor(c, deps, {
        islands: true,
        challenge: deps.challenge.widget,
        challengeScript: "lazy",
        styles: ["/static/report.css"],
      }),
      HOMES[deps.service.name]({ deps }),
    );
  });
  return app;
}

function VisibilityHome(props: { deps: AppDeps }): VNode {
  return (
    <>
      <section class="hero" aria-labelledby="home-title">
        <h1 id="home-title">Is your site visible to AI search?</h1>
        <p class="lead">
          ChatGPT, Perplexity, Claude and Google's AI answers recommend the sites they can read and
          trust. Enter your domain: in a few seconds you get a score out of 100, the issues that
          matter most, and the exact fix for each.
        </p>
        <ScanFormBlock widget={props.deps.challenge.widget} service="visibility" />
        <p class="muted small">
          Free and without an account. Up to {LIMITS.ip}{" "}
          new scans per hour from one network; every report has a link you can share.
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

      <DevelopersSection deps={props.deps} />
    </>
  );
}

function SchemaHome(props: { deps: AppDeps }): VNode {
  return (
    <>
      <section class="hero" aria-labelledby="home-title">
        <h1 id="home-title">Structured data, checked and written for you</h1>
        <p class="lead">
          Search engines and AI assistants read schema.org markup to know what a page is: a product,
          an article, a business. Enter a page address: see the markup it has, what is wrong with
          it, and get JSON-LD ready to paste.
        </p>
        <ScanFormBlock widget={props.deps.challenge.widget} service="schema" />
        <p class="muted small">
          Free and without an account. Up to {LIMITS.ip} new scans per hour from one network.
        </p>
      </section>
      <section aria-labelledby="validate-title">
        <h2 id="validate-title">Or validate code</h2>
        <p>Not published yet? Paste the HTML or JSON-LD and check it as it is.</p>
        <ValidateCodeForm />
      </section>
      <section aria-labelledby="get-title">
        <h2 id="get-title">What you get</h2>
        <ol class="get-list">
          <li>
            <strong>Everything the page declares</strong>: JSON-LD, microdata and RDFa, item by
            item.
          </li>
          <li>
            <strong>Errors and warnings</strong>{" "}
            against schema.org and Google's rich-result rules, each with the property path and how
            to fix it, and any search feature Google has retired.
          </li>
          <li>
            <strong>JSON-LD to paste</strong>, built from what the page says, highlighted, with a
            copy button and a list of what to fill in by hand.
          </li>
        </ol>
      </section>
      <DevelopersSection deps={props.deps} />
    </>
  );
}

function DevelopersSection(props: { deps: AppDeps }): VNode {
  const { sisterUrl, sourceUrl } = props.deps.config;
  const other = SERVICE_WORDS[props.deps.service.words.sister];
  const sister = { name: other.title, what: other.sisterPitch };
  return (
    <section aria-labelledby="dev-title">
      <h2 id="dev-title">For developers and AI agents</h2>
      <p>
        The same scans are an HTTP API with free keys, and an MCP server that AI agents can call.
        Read the <a href="/docs">API and MCP documentation</a> or load the{" "}
        <a href="/openapi.json">OpenAPI document</a>.
      </p>
      {sisterUrl && (
        <p>
          Our sister service, the <a href={sisterUrl}>{sister.name}</a>, checks {sister.what}.
        </p>
      )}
      <p>
        Both services are one open-source program (MIT licence) that anyone can run on their own
        machine{sourceUrl
          ? (
            <>
              : read the <a href={sourceUrl}>source code</a>.
            </>
          )
          : "."}
      </p>
    </section>
  );
}
