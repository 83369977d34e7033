/**
 * The self-contained HTML export of a stored record (any service: the body is the service's own,
 * lib/service.ts ServiceExports.html): one file that opens and
 * prints anywhere, offline. Its styles are inlined, it has no script and loads nothing (its own
 * Content-Security-Policy meta says `default-src 'none'`), and every string from the record is
 * escaped by Preact's renderer; links are written only for http(s) URLs.
 */
import { type ComponentChildren, Fragment, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { inlineParts, parseHow } from "../visibility/fix_text.ts";
import { formatUtc, safeHttpUrl } from "../../kit/ui/format.ts";
import { Breakable } from "../../kit/ui/breakable.tsx";
import { type ExportInput, reportTitle } from "./common.ts";

/** The export's whole policy: inline styles, nothing else (no script, fetch, frame or form). */
export const EXPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const CSS = `
:root{color-scheme:light;--ink:#1b1f24;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--bad:#b42318;--warn:#9a6700;--good:#1a7f37}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.25rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
.meta,.muted{color:var(--muted)}
.score{font-size:1.4rem;font-weight:700}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.92rem}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
p,li,h1,h2,h3{overflow-wrap:break-word}
th{background:var(--bg)}td.num,th.num{text-align:right;white-space:nowrap}
pre{background:var(--bg);border:1px solid var(--line);padding:.6rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.issue{border:1px solid var(--line);border-radius:6px;padding:.25rem 1rem .75rem;margin:.75rem 0;break-inside:avoid}
.fail,.critical,.high,.error{color:var(--bad)}.warn,.medium,.warning{color:var(--warn)}.pass,.eligible{color:var(--good)}
footer{margin-top:2rem;font-size:.85rem;color:var(--muted)}
@media print{body{margin:0;max-width:none;font-size:11pt}a{color:inherit}h2{break-after:avoid}h3{break-after:avoid}tr,pre{break-inside:avoid}}
`;

/** The HTML report of a record of either service, as a complete document. */
export function recordToHtml(input: ExportInput): string {
  const title = reportTitle(input);
  const body = input.service.exports.html(input);
  return "<!doctype html>\n" + renderToString(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta http-equiv="Content-Security-Policy" content={EXPORT_CSP} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <header>
          <h1>{title}</h1>
          <p class="meta">
            Scanned {formatUtc(input.record.scannedAt)}
            {input.reportUrl && safeHttpUrl(input.reportUrl) && (
              <>
                {" · "}
                <Link href={input.reportUrl}>Live report</Link>
              </>
            )}
          </p>
        </header>
        <main>{body}</main>
        <footer>Exported from the stored record; it shows the scan as it was at that time.</footer>
      </body>
    </html>,
  ) + "\n";
}

/** An outbound link when `href` is a plain http(s) URL, else the text alone. */
export function Link(
  props: { href: string | null | undefined; children: ComponentChildren },
): VNode {
  const safe = safeHttpUrl(props.href);
  return safe
    ? <a href={safe} rel="noopener noreferrer nofollow">{props.children}</a>
    : <>{props.children}</>;
}

export function Failed(props: { input: ExportInput }): VNode {
  return (
    <section>
      <h2>Scan failed</h2>
      <p>
        {props.input.failure
          ? <>What went wrong: {props.input.failure}</>
          : "The scan did not complete."}
      </p>
      <p>
        A page that cannot be fetched is not scored. Check that the site is up and reachable, then
        scan again.
      </p>
    </section>
  );
}

/** A fix's steps: prose paragraphs (their code spans as code) and code blocks. */
export function How(props: { how: string }): VNode {
  return (
    <>
      {parseHow(props.how).map((p) =>
        p.kind === "prose"
          ? p.text.split(/\n\s*\n/).map((para, i) => (
            <p key={i}>
              {
                /* Plain runs in keyed Fragments: a bare string in a children array is escaped twice
                  by preact-render-to-string 6.8 with preact 11 (see lib/features/visibility/views/report_issues.tsx). */
              }
              {inlineParts(para).map((x, j) =>
                x.code ? <code key={j}>{x.text}</code> : (
                  <Fragment key={j}>
                    <Breakable text={x.text} />
                  </Fragment>
                )
              )}
            </p>
          ))
          : (
            <pre>
              <code>{p.code}</code>
            </pre>
          )
      )}
    </>
  );
}
