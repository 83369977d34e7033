/**
 * The report's first screen, grouped by AI product: what ChatGPT, Claude, Perplexity, Google's AI
 * features, Copilot, Apple Intelligence, Meta AI and the other products of the registry can do with
 * the site (be found in their search and cited, fetch a page a person asks about, train on it), in
 * plain words and colour, each one click from its crawlers (tokens) and their verdicts. A table:
 * one row per product (a card per product on a phone). Read from the record's crawler verdicts
 * (lib/engines/visibility/access_model.ts), the same the score reads; the edge's answers are labelled from
 * their one stored state (lib/engines/visibility/edge_words.ts).
 */
import type { VNode } from "preact";
import type { CrawlerRow, ScanRecord } from "../../../engines/visibility/record.ts";
import {
  accessRows,
  affectedProducts,
  type Capability,
  capabilityWords,
  type ProductAccess,
  productsOf,
  rowVerdict,
} from "../../../engines/visibility/access_model.ts";
import { edgeLabel } from "../../../engines/visibility/edge_words.ts";
import { crawlerOf } from "../../../engines/visibility/crawlers.ts";
import { safeHttpUrl } from "../../../kit/ui/format.ts";
import type { ObservedColumn } from "../../../service.ts";

/** The three things a product can do with a site, as the table's columns say them. */
const COUNTS = [
  { key: "search", label: "Found in search, cited" },
  { key: "user", label: "Fetches a page for a person" },
  { key: "training", label: "Trains on it (your choice)" },
] as const;

/** The colour class of a capability (training is the owner's choice: never red). */
function tone(c: Capability, training: boolean): string {
  if (training) return c.state === "yes" ? "cap-yes" : "cap-none";
  return c.state === "yes"
    ? "cap-yes"
    : c.state === "no"
    ? "cap-no"
    : c.state === "partly"
    ? "cap-partly"
    : "cap-none";
}

/** What turns a crawler away, in a few words. */
const CAUSE_SHORT: Record<string, string> = {
  robots: "robots.txt",
  noindex: "noindex",
};

/** One crawler's verdict in a few words, for its product's token list. */
function crawlerWords(row: CrawlerRow): string {
  const declared = row.preference ? `; declared ${row.preference}` : "";
  return `${verdictWords(row)}${declared}; checked ${row.checked}`;
}

function verdictWords(row: CrawlerRow): string {
  if (row.counts === false) {
    return crawlerOf(row.token)?.retired
      ? "a retired token, not counted"
      : "unverifiable, not counted";
  }
  const v = rowVerdict(row);
  if (v.state === "unknown") return "not known (robots.txt unreadable)";
  if (v.state === "open") {
    return row.edgeState === "not_measured" || row.edge === null
      ? "allowed by robots.txt (edge not probed)"
      : "may read";
  }
  const why = v.causes.map((c) =>
    c === "robots" && row.robotsLine
      ? `robots.txt ${row.robotsLine}`
      : c === "noindex" && row.directive
      ? row.directive
      : CAUSE_SHORT[c] ?? `CDN: ${edgeLabel(row.edgeState, row.edge)}`
  );
  return `turned away (${[...new Set(why)].join(", ")})`;
}

/** Each vendor's documentation once, with the address lists it publishes per crawler. */
function vendors(rows: CrawlerRow[]): { vendor: string; docs: string; ips: [string, string][] }[] {
  const out: { vendor: string; docs: string; ips: [string, string][] }[] = [];
  for (const r of rows) {
    let v = out.find((x) => x.docs === r.docs);
    if (!v) out.push(v = { vendor: r.vendor, docs: r.docs, ips: [] });
    if (r.ipRanges && !v.ips.some(([, url]) => url === r.ipRanges)) {
      v.ips.push([r.token, r.ipRanges]);
    }
  }
  return out;
}

function ProductRow(
  props: { product: ProductAccess; rows: CrawlerRow[]; observed?: ObservedColumn },
): VNode {
  const p = props.product;
  const rows = props.rows.filter((r) => r.product === p.id);
  const observed = props.observed;
  return (
    <tr data-product={p.id}>
      <th scope="row">
        <details class="product-crawlers" open={observed ? true : undefined}>
          <summary>{p.name}</summary>
          <ul>
            {rows.map((r) => (
              <li data-token={r.token}>
                <code>{r.token}</code> {r.purpose}: {crawlerWords(r)}
                {observed && (
                  <>
                    ; observed in your logs:{" "}
                    <span class="observed">{observed.cells[r.token] ?? "not seen"}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        </details>
      </th>
      {COUNTS.map(({ key, label }) => {
        const c = p[key];
        const training = key === "training";
        return (
          <td
            class={`product-count ${tone(c, training)}`}
            data-label={label}
            data-count={key}
            data-state={c.state}
          >
            {capabilityWords(c, training)}
          </td>
        );
      })}
    </tr>
  );
}

function ProductTable(
  props: {
    products: ProductAccess[];
    rows: CrawlerRow[];
    caption: string;
    observed?: ObservedColumn;
  },
): VNode {
  return (
    <table class="product-table">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">AI product (its crawlers one click away)</th>
          {COUNTS.map((c) => <th key={c.key} scope="col">{c.label}</th>)}
        </tr>
      </thead>
      <tbody>
        {props.products.map((p) => (
          <ProductRow key={p.id} product={p} rows={props.rows} observed={props.observed} />
        ))}
      </tbody>
    </table>
  );
}

/** A link from the record (read as stored): only an http(s) URL becomes an href, else text. */
function OutLink(props: { href: string | null; children: string }): VNode {
  const href = safeHttpUrl(props.href);
  return href ? <a href={href}>{props.children}</a> : <>{props.children}</>;
}

/**
 * What each AI product can do with the site; nothing for records without crawler verdicts. With
 * `observed` (the reader's account holds access logs of the site, lib/features/logs/), each crawler
 * also says what the logs show it really did, and the section opens on its crawlers.
 */
export function ProductsSection(
  props: { record: ScanRecord; observed?: ObservedColumn },
): VNode | null {
  const rows = accessRows(props.record.result);
  if (!rows) return null;
  const products = productsOf(rows);
  // Rows of records made before products were stored are grouped through the registry.
  const tokensOf = (p: ProductAccess) =>
    [p.search, p.user, p.training].flatMap((c) => c.crawlers.map((x) => x.token))
      .concat(p.unverified);
  const grouped = rows.map((r) => ({
    ...r,
    product: r.product ?? products.find((p) => tokensOf(p).includes(r.token))?.id,
  }));
  const major = products.filter((p) => p.major);
  const other = products.filter((p) => !p.major);
  const observed = props.observed;
  const table = (
    <ProductTable
      products={major}
      rows={grouped}
      caption="The major AI assistants"
      observed={observed}
    />
  );
  const intro = (
    <>
      <p class="muted small">
        From robots.txt, the home page's robots directives and what your CDN answered each crawler's
        User-Agent (probed from our scanner's address, unsigned). Training is your choice and never
        costs points.
      </p>
      {observed && (
        <p class="small products-observed">
          Observed in your logs: what your server's access logs show each crawler did from{" "}
          {observed.period.from} to{" "}
          {observed.period.to}: hits from its vendor's published addresses (verified) with the
          answers your site gave, and hits that only claimed its name (spoofed) or could not be
          checked (unverifiable). Only you see this. <a href={observed.href}>Your logs report</a>
        </p>
      )}
    </>
  );
  const rest = (
    <>
      {other.length > 0 && (
        <details class="products-other">
          <summary>Other AI products ({other.length})</summary>
          <ProductTable
            products={other}
            rows={grouped}
            caption="Other AI products"
            observed={observed}
          />
        </details>
      )}
      <details class="products-sources">
        <summary>
          Sources (each crawler was last checked against its vendor's page on its date)
        </summary>
        <p class="small">
          {vendors(rows).map((v, i) => (
            <>
              {i ? "; " : ""}
              <OutLink href={v.docs}>{v.vendor}</OutLink>
              {v.ips.map(([token, url]) => (
                <>
                  {" "}
                  <OutLink href={url}>{`${token} IPs`}</OutLink>
                </>
              ))}
            </>
          ))}
        </p>
      </details>
    </>
  );
  // Every major assistant able to find and fetch the site: one line, the rest one click away (the
  // first screen keeps its room for what to fix); else the table is shown.
  if (affectedProducts(major).length === 0) {
    return (
      <section class="card products" id="products" aria-labelledby="products-title">
        <details class="products-all-open" open={observed ? true : undefined}>
          <summary>
            <h2 id="products-title">
              All {major.length}{" "}
              major AI assistants can find the site, cite it and fetch a page a person asks about
            </h2>
          </summary>
          {intro}
          {table}
          {rest}
        </details>
      </section>
    );
  }
  return (
    <section class="card products" id="products" aria-labelledby="products-title">
      <h2 id="products-title">What each AI assistant can do with this site</h2>
      {intro}
      {table}
      {rest}
    </section>
  );
}
