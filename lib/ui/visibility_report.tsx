/**
 * The AI Visibility Checker's report page body, from a stored ScanRecord: the score and what it
 * means, the issues to fix first with their concrete fixes, every pillar with its signals, the
 * off-site presence and the badge. Everything from the record is rendered as text (escaped by
 * Preact); links taken from it must pass {@link safeHttpUrl}.
 */
import type { ComponentChildren, VNode } from "preact";
import { CopyButton } from "./copy_button.tsx";
import { parseHow } from "../visibility/fix_text.ts";
import type { Issue, OffSiteCheck, Pillar, ScanRecord, Signal } from "../visibility/record.ts";
import { badgeFor, badgeSize } from "../badge.ts";
import type { BaseRecord } from "../service.ts";
import { gradeFor } from "../visibility/score.ts";
import { formatUtc, safeHttpUrl, timeAgo } from "./format.ts";
import { ScoreBar, ScoreGauge } from "./gauge.tsx";
import { badgePath, reportJsonPath, reportPagePath } from "../report_urls.ts";
import { PagesTable } from "./pages_table.tsx";

/** What each grade means, for someone who has never heard of robots.txt. */
export const GRADE_MEANING: Record<string, string> = {
  A: "AI search engines and assistants can find, read and understand this site, and are likely to cite it. Keep it that way.",
  B: "AI systems can find and read this site. A few gaps make it less likely to be quoted or recommended: fix the issues below.",
  C: "AI systems can reach this site but miss a lot of it. The issues below are the quickest ways to be understood and cited.",
  D: "Many of the signals AI systems rely on are missing, so assistants are less likely to understand or cite this site. Start with the first issue below.",
  F: "Most of the signals AI systems rely on are missing or blocked. When the score is capped, the first issue below is the cause.",
};

/** Plain-language purpose of each pillar. */
export const PILLAR_PURPOSE: Record<string, string> = {
  access:
    "Can AI crawlers get in? robots.txt and page directives decide whether ChatGPT, Perplexity, Claude and Google may read the site.",
  content:
    "Can they read it? The text must be in the page the server sends, with clear headings and structure.",
  structured:
    "Do they understand what it is? Structured data (JSON-LD) tells machines who you are and what each page is about.",
  discovery:
    "Can they find everything? llms.txt and the sitemap point AI systems to your important pages.",
  trust:
    "Do they trust it? Clear ownership, About and Contact pages, authors and dates, and a presence on Wikidata and Wikipedia.",
  technical:
    "Are the basics right? HTTPS, a quick answer, a title, a description and a canonical address.",
};

const STATUS_TEXT: Record<Signal["status"], string> = {
  pass: "Passed",
  warn: "Needs work",
  fail: "Failed",
  info: "For information",
  na: "Does not apply",
  unknown: "Could not check",
};

const IMPACT_TEXT: Record<Issue["impact"], string> = {
  critical: "Critical",
  high: "High impact",
  medium: "Medium impact",
  low: "Low impact",
};

const EFFORT_TEXT: Record<Issue["fix"]["effort"], string> = {
  S: "Quick fix: minutes",
  M: "Some work: an hour or so",
  L: "Bigger job: a day or more",
};

/** The grade letter a 0-100 score would get (for colouring pillar scores). */
export function gradeOf(score: number): string {
  return gradeFor(score).grade;
}

/** A one-line summary for meta descriptions and previews. */
export function describeRecord(record: ScanRecord): string {
  if (!record.result) {
    return `The scan of ${record.domain} failed: its home page could not be read. See why and scan it again.`;
  }
  const r = record.result;
  const first = r.topIssues[0];
  return clip(
    `${record.domain} scores ${Math.round(r.score)}/100 (grade ${r.grade}) for AI visibility. ` +
      (first ? `First fix: ${first.title}.` : r.label),
    200,
  );
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 1).trimEnd() + "…";
}

/** The report page body for an "ok" record. */
export function VisibilityReport(
  props: { record: ScanRecord; now: number; rescan: VNode; origin: string },
): VNode {
  const { record } = props;
  const r = record.result!;
  const first = r.topIssues[0];
  // A signal that is also an issue points to its fix instead of repeating it.
  const issueNumbers = new Map(r.topIssues.map((issue, i) => [issue.id, i + 1]));
  return (
    <article class="report">
      <ReportHead record={record} now={props.now} />
      <section class="card summary" aria-labelledby="summary-title">
        <div class="summary-grid">
          <ScoreGauge score={r.score} grade={r.grade} />
          <div>
            <h2 id="summary-title" class="score-line">
              <span class={`grade-${r.grade}`}>{Math.round(r.score)} / 100</span>
              <span class="grade-chip">Grade {r.grade}</span>
            </h2>
            <p class="label">{r.label}</p>
            <p>{GRADE_MEANING[r.grade] ?? ""}</p>
            {first
              ? (
                <p class="first-step">
                  <strong>Start here:</strong> <a href="#issue-1">{first.title}</a>
                </p>
              )
              : <p class="first-step">Nothing to fix right now.</p>}
          </div>
        </div>
        <div class="report-actions">
          <a class="button button-secondary" href={reportJsonPath(record.domain)}>
            Download JSON
          </a>
          {props.rescan}
        </div>
      </section>

      <section aria-labelledby="issues-title">
        <h2 id="issues-title">What to fix first</h2>
        {r.topIssues.length
          ? (
            <>
              <p class="muted">
                In order: anything that caps the score first, then the most points for the least
                effort. Each fix was written for this site; copy it and hand it to whoever runs the
                site.
              </p>
              <ol class="issues">
                {r.topIssues.map((issue, i) => (
                  <IssueItem
                    key={issue.id}
                    issue={issue}
                    n={i + 1}
                  />
                ))}
              </ol>
            </>
          )
          : <p>No failing or weak signal has a fix to suggest. Well done.</p>}
      </section>

      <PagesTable record={record} />

      <section aria-labelledby="pillars-title">
        <h2 id="pillars-title">Every check, by pillar</h2>
        <p class="muted">
          The score adds up six pillars, each weighted by how much it matters to AI systems. Checks
          that could not be made or do not apply are left out of the sums.
        </p>
        <ul class="pillar-index">
          {r.pillars.map((p) => (
            <li>
              <a href={`#pillar-${p.id}`}>{p.title}</a>{" "}
              <span class={`grade-${gradeOf(p.score)}`}>{Math.round(p.score)}</span>
            </li>
          ))}
        </ul>
        {r.pillars.map((p) => <PillarCard key={p.id} pillar={p} issueNumbers={issueNumbers} />)}
      </section>

      <OffSiteSection record={record} />
      <BadgeSection record={record} origin={props.origin} />
    </article>
  );
}

/** The page body for a failed scan: what went wrong and what it usually means. */
export function FailedReport(
  props: { record: ScanRecord; failure: string | null; now: number; rescan: VNode },
): VNode {
  return (
    <FailedReportBody
      head={<ReportHead record={props.record} now={props.now} failed />}
      heading="The scan could not read this site"
      failure={props.failure ?? "The home page could not be fetched."}
      rescan={props.rescan}
    >
      <p>
        No score is given: we only grade what we could read. If our scanner cannot fetch the home
        page, AI crawlers most likely cannot either.
      </p>
      <h3>What this usually means</h3>
      <ul>
        <li>The site was down or too slow to answer (we wait up to 25 seconds).</li>
        <li>A firewall or CDN blocks automated visitors, which blocks AI crawlers too.</li>
        <li>
          The address redirects in a loop, to a private network, or to a page that is not HTML.
        </li>
        <li>The domain has no web site at all (check the spelling).</li>
      </ul>
    </FailedReportBody>
  );
}

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

function ReportHead(props: { record: ScanRecord; now: number; failed?: boolean }): VNode {
  const { record } = props;
  return (
    <header class="report-head">
      <p class="eyebrow">AI visibility report</p>
      <h1>
        {props.failed ? `We could not scan ${record.domain}` : record.domain}
      </h1>
      <p class="muted">
        Scanned <time dateTime={record.scannedAt}>{formatUtc(record.scannedAt)}</time>{" "}
        ({timeAgo(record.scannedAt, props.now)}). {props.failed
          ? "Fixed it? Scan again below."
          : "Changed the site since? Scan again to see the new score."}
      </p>
    </header>
  );
}

function IssueItem(props: { issue: Issue; n: number }): VNode {
  const { issue, n } = props;
  return (
    <li id={`issue-${n}`} class="card issue">
      <p class="issue-tags">
        <span class={`badge impact-${issue.impact}`}>{IMPACT_TEXT[issue.impact]}</span>
        <span class="badge effort">{EFFORT_TEXT[issue.fix.effort]}</span>
      </p>
      <h3>
        <span class="issue-n">{n}.</span> {issue.title}
      </h3>
      <p>{issue.detail}</p>
      {issue.fix.what.trim() !== issue.title.trim() && (
        <>
          <h4>What to do</h4>
          <p>{issue.fix.what}</p>
        </>
      )}
      <p class="why">
        <strong>Why it matters:</strong> {issue.fix.why}
      </p>
      <h4>How</h4>
      <FixHow how={issue.fix.how} n={n} />
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

function PillarCard(props: { pillar: Pillar; issueNumbers: Map<string, number> }): VNode {
  const p = props.pillar;
  const scored = p.signals.filter((s) => s.maxPoints > 0);
  const passed = scored.filter((s) => s.status === "pass").length;
  const grade = gradeOf(p.score);
  // What needs attention is shown; what passed (or is informational) is one click away.
  const attention = p.signals.filter((s) => s.status === "fail" || s.status === "warn");
  const fine = p.signals.filter((s) => s.status !== "fail" && s.status !== "warn");
  return (
    <section class="card pillar" id={`pillar-${p.id}`} aria-labelledby={`pillar-${p.id}-title`}>
      <div class="pillar-head">
        <h3 id={`pillar-${p.id}-title`}>{p.title}</h3>
        <p class={`pillar-score grade-${grade}`}>
          {Math.round(p.score)}
          <span class="muted">/100</span>
        </p>
      </div>
      <ScoreBar value={p.score} class={`grade-${grade}`} />
      <p class="muted pillar-purpose">
        {PILLAR_PURPOSE[p.id] ?? ""} {passed} of {scored.length}{" "}
        scored checks passed. This pillar counts for {p.weight}% of the score and earns{" "}
        {round1(p.points)} of {p.weight} points.
      </p>
      {attention.length > 0 && (
        <ul class="signals">
          {attention.map((s) => (
            <SignalItem key={s.id} signal={s} issue={props.issueNumbers.get(s.id)} />
          ))}
        </ul>
      )}
      {fine.length > 0 && (
        <details class="passed">
          <summary>
            {fine.length} more check{fine.length === 1 ? "" : "s"}{" "}
            {attention.length ? "that passed or are for information" : "(all fine)"}
          </summary>
          <ul class="signals">
            {fine.map((s) => <SignalItem key={s.id} signal={s} />)}
          </ul>
        </details>
      )}
    </section>
  );
}

/** Evidence lines shown per signal (the full list is in the JSON record). */
const MAX_EVIDENCE = 6;

function SignalItem(props: { signal: Signal; issue?: number }): VNode {
  const s = props.signal;
  return (
    <li class={`signal signal-${s.status}`}>
      <div class="signal-head">
        <span class={`badge status-${s.status}`}>{STATUS_TEXT[s.status]}</span>
        <strong class="signal-title">{s.title}</strong>
        {s.maxPoints > 0 && (
          <span class="points">
            {round1(s.points)}/{round1(s.maxPoints)} pts
          </span>
        )}
      </div>
      {props.issue
        ? (
          <p class="signal-detail">
            See <a href={`#issue-${props.issue}`}>issue {props.issue}</a>{" "}
            for what we saw and the fix.
          </p>
        )
        : <p class="signal-detail">{s.detail}</p>}
      {s.gate && s.status !== "pass" && (
        <p class="gate">This caps the whole score at {s.gate.cap}.</p>
      )}
      {s.evidence.length > 0 && s.status !== "pass" && s.status !== "na" && (
        <details class="evidence">
          <summary>What we saw ({s.evidence.length})</summary>
          <ul>
            {s.evidence.slice(0, MAX_EVIDENCE).map((e) => (
              <li>
                <code>{e}</code>
              </li>
            ))}
            {s.evidence.length > MAX_EVIDENCE && (
              <li class="muted">and {s.evidence.length - MAX_EVIDENCE} more in the JSON report</li>
            )}
          </ul>
        </details>
      )}
    </li>
  );
}

const OFFSITE: { key: "wikidata" | "wikipedia" | "commonCrawl"; name: string; why: string }[] = [
  {
    key: "wikidata",
    name: "Wikidata",
    why: "The open knowledge base many AI systems use to tell who is who.",
  },
  {
    key: "wikipedia",
    name: "Wikipedia",
    why: "One of the most cited sources in AI answers and training data.",
  },
  {
    key: "commonCrawl",
    name: "Common Crawl",
    why: "The public web archive most language models learn from.",
  },
];

const OFFSITE_STATUS: Record<OffSiteCheck["status"], string> = {
  found: "Found",
  not_found: "Not found",
  unknown: "Could not check",
};

function OffSiteSection(props: { record: ScanRecord }): VNode {
  const off = props.record.offSite;
  return (
    <section aria-labelledby="offsite-title">
      <h2 id="offsite-title">Presence beyond the site</h2>
      <p class="muted">
        AI systems weigh what other sources say about a site. These three matter most.
      </p>
      {off
        ? (
          <ul class="offsite grid">
            {OFFSITE.map(({ key, name, why }) => {
              const check = off[key];
              const href = safeHttpUrl(check.url);
              const status = check.status === "found"
                ? "pass"
                : check.status === "not_found"
                ? "warn"
                : "unknown";
              return (
                <li class="card">
                  <h3>{name}</h3>
                  <p>
                    <span class={`badge status-${status}`}>{OFFSITE_STATUS[check.status]}</span>
                  </p>
                  <p>{check.detail}</p>
                  <p class="muted">{why}</p>
                  {href && (
                    <p>
                      <a href={href} rel="nofollow noopener noreferrer" class="external">
                        Open on {name}
                        <span class="visually-hidden">{` (${props.record.domain})`}</span>
                      </a>
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        )
        : <p>The off-site checks could not run for this scan.</p>}
    </section>
  );
}

/** The badge, and the snippets to embed it (shared by both services' report pages). */
export function BadgeSection(
  props: { record: BaseRecord; origin: string; service?: "visibility" | "schema" },
): VNode {
  const domain = props.record.domain;
  const what = props.service === "schema" ? "Schema markup" : "AI visibility";
  const size = badgeSize(badgeFor(props.service ?? "visibility", props.record));
  const badge = `${props.origin}${badgePath(domain)}`;
  const report = `${props.origin}${reportPagePath(domain)}`;
  const markdown = `[![${what} of ${domain}](${badge})](${report})`;
  const html = `<a href="${report}"><img src="${badge}" alt="${what} of ${domain}"></a>`;
  return (
    <section class="card no-print" aria-labelledby="badge-title">
      <h2 id="badge-title">Show your score</h2>
      <p>
        <img
          src={badgePath(domain)}
          alt={`${what} badge of ${domain}`}
          width={size.width}
          height={size.height}
        />
      </p>
      <p class="muted">
        The badge always shows the latest result. Put it in a README or on your site:
      </p>
      <div class="how-head">
        <h3>Markdown</h3>
        <CopyButton target="badge-md" what="the Markdown" />
      </div>
      <pre class="code-block" tabIndex={0}><code id="badge-md">{markdown}</code></pre>
      <div class="how-head">
        <h3>HTML</h3>
        <CopyButton target="badge-html" what="the HTML" />
      </div>
      <pre class="code-block" tabIndex={0}><code id="badge-html">{html}</code></pre>
    </section>
  );
}

function round1(n: number): string {
  return String(Math.round(n * 10) / 10);
}
