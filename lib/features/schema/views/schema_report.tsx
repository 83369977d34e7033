/**
 * The Schema Markup Generator's result page body: what structured data the page has, what is
 * wrong with it (per item, with severity and path), and the generated JSON-LD, highlighted on
 * the server and copyable. Everything from the record is rendered as text (escaped by Preact).
 */
import { FindingExcerpt, unreadableSummary } from "./finding_excerpt.tsx";
import { BudgetNote } from "../../../kit/ui/budget_note.tsx";
import type { VNode } from "preact";
import { CopyButton } from "../../../kit/ui/copy_button.tsx";
import type {
  DetectedItem,
  Eligibility,
  Finding,
  Result,
  SchemaScanRecord,
} from "../../../engines/structured/record.ts";
import { safeHttpUrl, timeAgo } from "../../../kit/ui/format.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { CodeBlock, highlightJsonLdScript } from "./json_highlight.tsx";
import { FailedReportBody } from "../../../kit/ui/failed_report.tsx";
import { BadgeSection } from "../../../kit/ui/badge_section.tsx";
import type { ReportProps } from "../../../service.ts";
import { ExportLinks } from "../../../kit/ui/export_links.tsx";
import {
  ORIGIN_WORDS,
  OriginBadge,
  ReadersLine,
  readersOf,
  SchemaViewSection,
} from "./schema_view_section.tsx";
import { moreLikeThis } from "../../../engines/structured/finding_log.ts";

const SOURCE_NAME: Record<string, string> = {
  "json-ld": "JSON-LD",
  microdata: "Microdata",
  rdfa: "RDFa",
};

/** A one-line summary for meta descriptions and previews. */
export function describeSchemaRecord(record: SchemaScanRecord): string {
  const r = record.result;
  if (!r) return `The scan of ${record.url} failed: the page could not be read.`;
  const s = r.summary;
  const found = s.items
    ? `${s.items} structured-data item${s.items === 1 ? "" : "s"}`
    : "no structured data";
  if (!s.items && !s.errors) {
    return `${record.domain}: no structured data to validate yet, and ready-to-paste JSON-LD.`;
  }
  return `${record.domain}: ${found}, ${s.errors} error${s.errors === 1 ? "" : "s"}, ` +
    `${s.warnings} warning${s.warnings === 1 ? "" : "s"}, ${s.eligible ?? 0} eligible for ` +
    `rich results, and ready-to-paste JSON-LD.`;
}

/** The result page body for an "ok" schema record. */
export function SchemaReport(
  props: {
    record: SchemaScanRecord;
    now: number;
    rescan: VNode;
    origin: string;
    scanId?: string;
    badge: ReportProps["badge"];
    /** What other features show on this page, by place (lib/kit/web/report_sections.ts). */
    inserts?: ReportProps["inserts"];
    /** This page's own report, for the head (ReportProps.pageReport). */
    pageReport?: string;
  },
): VNode {
  const { record } = props;
  return (
    <article class="report">
      <SchemaHead record={record} now={props.now} pageReport={props.pageReport} />
      {props.inserts?.top}
      <SchemaResultSections
        result={record.result!}
        actions={
          <div class="report-actions">
            <ExportLinks domain={record.domain} scanId={props.scanId} />
            {props.rescan}
          </div>
        }
      />
      <BadgeSection record={record} origin={props.origin} badge={props.badge} />
      {props.inserts?.end}
    </article>
  );
}

/**
 * The sections of a schema result (summary, rich-result eligibility, findings, the server HTML
 * beside the rendered page, markup to paste, items found): the scan report and "validate code"
 * show the same. Every count and list reads the result's one view of the page (`detected` with
 * each item's origin, `view`): the summary says what each section lists.
 */
export function SchemaResultSections(props: { result: Result; actions?: VNode }): VNode {
  const r = props.result;
  const s = r.summary;
  const v = r.view;
  const eligibleCount = s.eligible ?? 0;
  const items = [...r.detected.jsonLd, ...r.detected.microdata, ...r.detected.rdfa];
  const byKey = new Map(items.map((i) => [`${i.source}:${i.index}`, i]));
  const origins = v?.origins;
  const breakdown = origins && v?.rendered && (origins.added || origins.changed)
    ? [
      `${origins.server} in the server HTML`,
      ...(origins.added ? [`${origins.added} added by scripts`] : []),
      ...(origins.changed ? [`${origins.changed} changed by scripts`] : []),
    ].join(", ")
    : null;
  return (
    <>
      <section class="card summary" aria-labelledby="summary-title">
        <h2 id="summary-title">Summary</h2>
        <ul class="stats">
          <li data-count="items">
            <strong>{s.items}</strong> item{s.items === 1 ? "" : "s"} found
            {breakdown && <>{" "}({breakdown})</>}
          </li>
          {origins?.removed
            ? (
              <li class="status-info" data-count="removed">
                <strong>{origins.removed}</strong> removed by scripts
              </li>
            )
            : null}
          {s.items || s.errors
            ? (
              <>
                <li class={s.errors ? "status-fail" : "status-pass"} data-count="errors">
                  <strong>{s.errors}</strong> error{s.errors === 1 ? "" : "s"}
                </li>
                <li class={s.warnings ? "status-warn" : "status-pass"} data-count="warnings">
                  <strong>{s.warnings}</strong> warning{s.warnings === 1 ? "" : "s"}
                </li>
              </>
            )
            // Nothing to validate is not "valid": no green for a page without markup.
            : <li class="status-info">No markup to validate: the page has no structured data</li>}
          <li class={eligibleCount ? "status-pass" : "status-info"} data-count="eligible">
            <strong>{eligibleCount}</strong> item{eligibleCount === 1 ? "" : "s"}{" "}
            eligible for rich results
          </li>
          <li data-count="deprecated">
            <strong>{s.deprecated}</strong> retired feature{s.deprecated === 1 ? "" : "s"}
          </li>
        </ul>
        <ReadersLine view={v} />
        {v?.note && <p class="view-note status-info">{v.note}</p>}
        <p>
          {s.types.length
            ? <>Types on the page: {s.types.join(", ")}.{" "}</>
            : unreadableSummary(r.findings) ?? "The page has no structured data yet. "}
          Structured data tells search engines and AI assistants what a page is: a product, an
          article, a business. Errors keep a page out of rich results; warnings are missed chances.
        </p>
        {props.actions}
      </section>

      <EligibilitySection eligibility={r.eligibility ?? []} items={byKey} />

      <section aria-labelledby="findings-title">
        <h2 id="findings-title">Findings</h2>
        {r.findings.length
          ? <FindingGroups findings={r.findings} items={items} />
          : items.length
          ? <p>No errors or warnings in the page's structured data.</p>
          : <p>No findings: there is no structured data to check.</p>}
        {r.deprecated.length > 0 && (
          <>
            <h3>Retired search features</h3>
            <ul class="findings">
              {r.deprecated.map((d) => (
                <li class="finding">
                  <span class="badge status-info">Since {d.since}</span>{" "}
                  <strong>{d.feature}</strong> ({d.type}): {d.message}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <SchemaViewSection result={r} />
      <section aria-labelledby="generated-title">
        <h2 id="generated-title">Markup to paste</h2>
        <p>
          This JSON-LD describes the page with what it already says ({r.generated.nodes.length}{" "}
          node{r.generated.nodes.length === 1 ? "" : "s"}
          {v?.rendered && (origins?.added || origins?.changed)
            ? ", the items scripts add or change included, as Google reads them after rendering"
            : ""}). Paste it into the page's <code>&lt;head&gt;</code>{" "}
          as the server sends it, replacing any JSON-LD block it repeats.
        </p>
        {r.generated.graph["@graph"].length
          ? (
            <>
              <div class="how-head">
                <h3>JSON-LD</h3>
                <CopyButton target="generated-jsonld" what="the generated JSON-LD" />
              </div>
              <CodeBlock id="generated-jsonld" tall>
                {highlightJsonLdScript(r.generated.script)}
              </CodeBlock>
            </>
          )
          : <p>No markup is offered yet: fix what could not be read first (below).</p>}
        {r.generated.fillIn.length > 0 && (
          <>
            <h3>Fill in by hand</h3>
            <p class="muted">The page does not state these; add them before publishing.</p>
            <ul>
              {r.generated.fillIn.map((f) => (
                <li>
                  <code>{f.path}</code>: {f.why}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="detected-title">
        <h2 id="detected-title">Structured data on the page</h2>
        {items.length
          ? (
            // Scrolls sideways on a phone when it lists where each item comes from and who reads
            // it: a region a keyboard can reach.
            <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="detected-title">
              <table>
                <caption class="visually-hidden">Items found on the page</caption>
                <thead>
                  <tr>
                    <th scope="col">Format</th>
                    <th scope="col">Types</th>
                    <th scope="col">Where</th>
                    {v?.rendered && <th scope="col">From</th>}
                    {v?.rendered && <th scope="col">Read by</th>}
                  </tr>
                </thead>
                <tbody>
                  {items.map((item) => (
                    <tr data-origin={item.origin ?? "server"}>
                      <td>{SOURCE_NAME[item.source] ?? item.source}</td>
                      <td>{item.types.join(", ") || "(no type)"}</td>
                      <td>{item.location}</td>
                      {v?.rendered && <td>{ORIGIN_WORDS[item.origin ?? "server"]}</td>}
                      {v?.rendered && <td>{readersOf(item.origin ?? "server", v)}</td>}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
          : <p>None: no JSON-LD, microdata or RDFa was found.</p>}
      </section>
    </>
  );
}

const STATUS_CLASS: Record<Eligibility["status"], string> = {
  "eligible": "status-pass",
  "eligible with warnings": "status-warn",
  "not eligible": "status-fail",
};

/** Rich-result eligibility per item and feature, as Google's Rich Results Test words it. */
function EligibilitySection(
  props: { eligibility: Eligibility[]; items: Map<string, DetectedItem> },
): VNode {
  return (
    <section aria-labelledby="eligibility-title">
      <h2 id="eligibility-title">Rich results</h2>
      {props.eligibility.length
        ? (
          <ul class="findings">
            {props.eligibility.map((e) => (
              <li class="finding">
                <span class={`badge ${STATUS_CLASS[e.status]}`}>
                  {e.status[0].toUpperCase() + e.status.slice(1)}
                </span>{" "}
                <strong>{e.feature}</strong> ({SOURCE_NAME[e.source] ?? e.source} item{" "}
                {e.itemIndex + 1}: {e.type}){" "}
                <OriginBadge item={props.items.get(`${e.source}:${e.itemIndex}`)} />
                {e.reasons.length > 0 && (
                  <p>
                    {e.status === "not eligible" ? "Because: " : "To improve: "}
                    {e.reasons.slice(0, 3).join(" ")}
                  </p>
                )}
                {e.docs && safeHttpUrl(e.docs) && (
                  <p class="muted rule">
                    <a href={safeHttpUrl(e.docs)!} rel="noopener noreferrer">
                      Google's documentation
                    </a>
                  </p>
                )}
              </li>
            ))}
          </ul>
        )
        : (
          <p>
            No item on this page is read for any of Google's rich results, so none can show.
          </p>
        )}
    </section>
  );
}

/**
 * The findings per item, as a reader fixes them: the items with an error first; in each item, one
 * excerpt per object of the code (the node or value its findings point at) with that object's
 * findings under it, errors before warnings. Linear in the findings and items (a copy per finding
 * was quadratic: issue 26).
 */
function FindingGroups(props: { findings: Finding[]; items: DetectedItem[] }): VNode {
  const groups = new Map<string, Finding[]>();
  for (const f of props.findings) {
    const key = `${f.source}:${f.itemIndex ?? "block"}`;
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  const items = new Map(props.items.map((i) => [`${i.source}:${i.index}`, i]));
  // Array.prototype.sort is stable: the page's order within each rank.
  const ordered = [...groups.entries()].sort((a, b) => errorsFirst(a[1]) - errorsFirst(b[1]));
  return (
    <>
      {ordered.map(([key, list]) => {
        const f = list[0];
        const item = items.get(key);
        const title = item
          ? `${SOURCE_NAME[item.source] ?? item.source} item ${item.index + 1}: ${
            item.types.join(", ") || "(no type)"
          }`
          : `${SOURCE_NAME[f.source] ?? f.source} block that could not be read`;
        return (
          <section class="card finding-group" aria-label={title} key={key}>
            <h3>{title}</h3>
            {item && (
              <p class="muted">
                {item.location} <OriginBadge item={item} />
              </p>
            )}
            {byObject(list).map((part) => (
              <div class="finding-object">
                {part.excerpt && (
                  <FindingExcerpt
                    excerpt={part.excerpt}
                    // A syntax error's sentence already says its line and column.
                    position={!part.findings.every((x) => x.itemIndex === null)}
                  />
                )}
                <ul class="findings">
                  {part.findings.map((x) => (
                    <li class="finding">
                      <span
                        class={`badge ${x.severity === "error" ? "status-fail" : "status-warn"}`}
                      >
                        {x.severity === "error" ? "Error" : "Warning"}
                      </span>{" "}
                      <code>{x.path}</code>
                      <p>{x.message}{moreLikeThis(x)}</p>
                      <p class="muted rule">Rule: {x.rule}</p>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        );
      })}
    </>
  );
}

/** 0 for a list with an error, 1 otherwise. */
function errorsFirst(list: Finding[]): number {
  return list.some((f) => f.severity === "error") ? 0 : 1;
}

/**
 * An item's findings by the object of the code they point at (their excerpt's spot): each
 * object once, those with an error first, errors before warnings inside each.
 */
function byObject(list: Finding[]): { excerpt: Finding["excerpt"]; findings: Finding[] }[] {
  const parts = new Map<string, { excerpt: Finding["excerpt"]; findings: Finding[] }>();
  for (const f of list) {
    const e = f.excerpt;
    const key = e ? `${e.block}:${e.line}:${e.column}:${e.length}` : "";
    const part = parts.get(key);
    if (part) part.findings.push(f);
    else parts.set(key, { excerpt: e, findings: [f] });
  }
  const out = [...parts.values()];
  for (const p of out) p.findings.sort((a, b) => severityRank(a) - severityRank(b));
  return out.sort((a, b) => errorsFirst(a.findings) - errorsFirst(b.findings));
}

function severityRank(f: Finding): number {
  return f.severity === "error" ? 0 : 1;
}

function SchemaHead(
  props: { record: SchemaScanRecord; now: number; failed?: boolean; pageReport?: string },
): VNode {
  const { record } = props;
  const href = safeHttpUrl(record.url);
  return (
    <header class="report-head">
      <p class="eyebrow">Structured data report</p>
      <h1>{props.failed ? `We could not scan ${record.domain}` : record.domain}</h1>
      <p class="muted">
        Page:{" "}
        {href ? <a href={href} rel="nofollow noopener noreferrer">{record.url}</a> : record.url}.
        Scanned <LocalTime iso={record.scannedAt} /> ({timeAgo(record.scannedAt, props.now)}).
        {props.pageReport && (
          <>
            {" "}
            <a href={props.pageReport} class="page-report-link">
              This page's own report
            </a>{" "}
            keeps its link when other pages of {record.domain} are scanned.
          </>
        )}
      </p>
      <BudgetNote budget={record.budget} />
    </header>
  );
}

/** The result page body for a failed schema scan. */
export function FailedSchemaReport(
  props: { record: SchemaScanRecord; failure: string | null; now: number; rescan: VNode },
): VNode {
  return (
    <FailedReportBody
      head={<SchemaHead record={props.record} now={props.now} failed />}
      heading="The scan could not read this page"
      failure={props.failure ?? "The page could not be fetched."}
      rescan={props.rescan}
    >
      <p>
        The site may be down, block automated visitors, or answer with something other than an HTML
        page. Check the address and scan again.
      </p>
    </FailedReportBody>
  );
}
