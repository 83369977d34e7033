/**
 * The account's server-log pages (plain props; lib/features/logs/routes/account/logs.tsx renders
 * them): the upload form with its progress (islands/LogUpload.tsx) and the sites with logs, and one
 * site's logs report: per AI product and crawler the verified, spoofed and unverifiable hits with
 * the status mix, spoofing networks, fetches robots.txt disallows, the pages most and never
 * crawled, the pages assistants cited against the pages their crawlers fetched, and the last reads.
 * Everything taken from a log or a site is rendered as text.
 */
import type { VNode } from "preact";
import { LogUpload, type LogUploadProps } from "../../../../islands/LogUpload.tsx";
import { Island } from "../../../kit/ui/layout.tsx";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { accountSiteLogsPath, PATHS, reportPagePath } from "../../../kit/report_urls.ts";
import { STATUS_CLASSES } from "../aggregate.ts";
import type { LogReport } from "../figures.ts";
import type { StoredRead } from "../store.ts";

/** The list page's props. */
export interface LogsPageProps {
  upload: LogUploadProps;
  sites: { domain: string; lastRead: number }[];
  retentionDays: number;
}

function Intro(props: { retentionDays: number }): VNode {
  return (
    <p class="lead">
      Which AI crawlers really read your site, what your server answered them, and which only
      pretended to be them. Only the lines of known crawlers are kept, as daily counts (never an
      address, a line or a visitor's browser), for {props.retentionDays} days.
    </p>
  );
}

/** GET /account/logs: the upload form and the sites with logs. */
export function LogsPage(props: LogsPageProps): VNode {
  return (
    <div class="dashboard logs-page">
      <p class="muted small">
        <a href={PATHS.account}>Your account</a>
      </p>
      <h1>Server logs</h1>
      <Intro retentionDays={props.retentionDays} />
      <Island name="LogUpload" component={LogUpload} props={props.upload} />
      <noscript>
        <p class="notice">
          Uploading a log from this page needs JavaScript. Without it, send the log to{" "}
          <code>POST /api/logs/&lt;domain&gt;</code> with an API key, or read it with{" "}
          <code>deno task logs</code>.
        </p>
      </noscript>
      <section class="card" aria-labelledby="sites-title">
        <h2 id="sites-title">Sites with logs</h2>
        {props.sites.length
          ? (
            <ul class="log-sites">
              {props.sites.map((s) => (
                <li>
                  <a href={accountSiteLogsPath(s.domain)}>{s.domain}</a>{" "}
                  <span class="muted small">
                    last read <LocalTime iso={new Date(s.lastRead).toISOString()} />
                  </span>
                </li>
              ))}
            </ul>
          )
          : <p class="muted">No logs read yet.</p>}
      </section>
    </div>
  );
}

/** One site's logs page's props. */
export interface SiteLogsPageProps {
  domain: string;
  report: LogReport;
  reads: StoredRead[];
  upload: LogUploadProps;
  retentionDays: number;
}

const mix = (s: Partial<Record<string, number>>) =>
  STATUS_CLASSES.filter((c) => s[c]).map((c) => `${c} ${s[c]}`).join(", ") || "-";

/** GET /account/logs/:domain: the site's logs report and the upload form. */
export function SiteLogsPage(props: SiteLogsPageProps): VNode {
  const r = props.report;
  return (
    <div class="dashboard logs-page">
      <p class="muted small">
        <a href={PATHS.account}>Your account</a> · <a href={PATHS.accountLogs}>Server logs</a>
      </p>
      <h1>Server logs of {props.domain}</h1>
      <Intro retentionDays={props.retentionDays} />
      {r.period
        ? (
          <p>
            From {r.period.from} to {r.period.to} ({r.period.days} days):{" "}
            <strong>{r.totals.verified}</strong> verified hits, <strong>{r.totals.spoofed}</strong>
            {" "}
            spoofed, <strong>{r.totals.unverifiable}</strong> unverifiable. The{" "}
            <a href={reportPagePath(props.domain)}>report of {props.domain}</a>{" "}
            shows them beside what the site declares and what its edge answered.
          </p>
        )
        : <p class="muted">No crawler hits stored for this site.</p>}
      {r.crawlers.length > 0 && (
        <section class="card" aria-labelledby="crawlers-logs-title">
          <h2 id="crawlers-logs-title">Crawlers, by AI product</h2>
          <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="crawlers-logs-title">
            <table class="pages-table">
              <thead>
                <tr>
                  <th scope="col">Crawler</th>
                  <th scope="col">Verified</th>
                  <th scope="col">What it got</th>
                  <th scope="col">Spoofed</th>
                  <th scope="col">Unverifiable</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {r.products.flatMap((p) =>
                  p.tokens.map((token) => {
                    const c = r.crawlers.find((x) => x.token === token)!;
                    return (
                      <tr>
                        <th scope="row">
                          {token} <span class="muted small">({p.vendor})</span>
                        </th>
                        <td>{c.hits.verified}</td>
                        <td>{mix(c.status)}</td>
                        <td>{c.hits.spoofed}</td>
                        <td>
                          {c.hits.unverifiable}
                          {Object.keys(c.unverifiable).length > 0 && (
                            <span class="muted small">
                              {` (${Object.keys(c.unverifiable).join("; ")})`}
                            </span>
                          )}
                        </td>
                        <td>{c.distinctPages}</td>
                        <td>{c.lastSeen ? <LocalTime iso={c.lastSeen} /> : "-"}</td>
                      </tr>
                    );
                  })
                )}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {r.spoofed.length > 0 && (
        <section class="card" aria-labelledby="spoofed-title">
          <h2 id="spoofed-title">Spoofed hits and their networks</h2>
          <ul>
            {r.spoofed.map((s) => (
              <li>
                {s.token}: {s.hits} from {s.networks.map((n) => `${n.network} (${n.hits})`).join(
                  ", ",
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {r.disallowed.length > 0 && (
        <section class="card" aria-labelledby="disallowed-title">
          <h2 id="disallowed-title">Verified crawlers fetching what robots.txt disallows</h2>
          <ul>
            {r.disallowed.map((d) => (
              <li>
                {d.token} fetched <code>{d.path}</code> {d.hits} time(s); robots.txt line{" "}
                {d.rule.line}: <code>{d.rule.pattern}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      {r.answers.length > 0 && (
        <section class="card" aria-labelledby="answers-logs-title">
          <h2 id="answers-logs-title">Pages assistants cited, and whether their crawlers came</h2>
          <ul>
            {r.answers.map((a) => (
              <li>
                {a.assistant}: {a.cited} page(s) cited in its answers, {a.citedAndFetched}{" "}
                of them fetched by {a.crawlers.join(" or ")} ({a.fetched} pages fetched in all)
                {a.citedNotFetched.length > 0 && (
                  <>; cited, never fetched: {a.citedNotFetched.join(", ")}</>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {(r.topPages.length > 0 || r.neverCrawled.length > 0) && (
        <section class="card" aria-labelledby="pages-logs-title">
          <h2 id="pages-logs-title">Pages</h2>
          {r.topPages.length > 0 && (
            <ul>
              {r.topPages.slice(0, 10).map((p) => (
                <li>
                  <code>{p.path}</code>: {p.hits} verified hit(s) ({p.crawlers.join(", ")})
                </li>
              ))}
            </ul>
          )}
          {r.neverCrawled.length > 0 && (
            <p>Important pages no verified crawler fetched: {r.neverCrawled.join(", ")}</p>
          )}
        </section>
      )}
      <Island name="LogUpload" component={LogUpload} props={props.upload} />
      {props.reads.length > 0 && (
        <section class="card" aria-labelledby="reads-title">
          <h2 id="reads-title">Last reads</h2>
          <ul>
            {props.reads.slice(0, 10).map((read) => (
              <li>
                <LocalTime iso={new Date(read.at).toISOString()} />: {read.summary.lines} lines as
                {" "}
                {read.summary.format ?? "an unknown format"}, {read.summary.crawlerLines}{" "}
                from crawlers, {read.summary.unreadable} unreadable
                {read.summary.messages.map((m, i) => <span key={i} class="small">. {m}</span>)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
