/**
 * The Schema Markup Generator's scan: fetch one page through the guarded fetcher, extract its
 * structured data and facts, validate, generate the graph it should carry, and return a record
 * that matches {@link SchemaScanRecordSchema}. Never throws for anything the page does: a page
 * that cannot be fetched, answers an error status or is not HTML gives a "failed" record.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../../kit/config.ts";
 * import { scanPage } from "./scan.ts";
 * const { record } = await scanPage("https://example.com/product/1", { config: loadConfig() });
 * console.log(record.result?.summary, record.result?.generated.script);
 * ```
 */
import type { Config } from "../../kit/config.ts";
import { normaliseTarget, type Target } from "../../kit/net/target.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import { FetchError, type FetchResult, type GuardedFetcher } from "../../kit/net/types.ts";
import { looksLikeHtml } from "../../kit/net/decode.ts";
import { allItems, type Detected, type Extraction, extractPage } from "../structured/extract.ts";
import { generateGraph, scriptFor } from "../structured/generate.ts";
import {
  type Eligibility,
  type Finding,
  type PageView,
  type RenderedStructured,
  type Result,
  type SchemaScanRecord,
  SchemaScanRecordSchema,
} from "../structured/record.ts";
import { mergeViews, originCounts, renderingView, serverView } from "../structured/merged_view.ts";
import {
  type CrawlerReader,
  pageView,
  type RenderAttempt,
  type ViewContext,
} from "../structured/page_view.ts";
import { serverRendering } from "../html/client_rendering_signs.ts";
import { attachExcerpts } from "../structured/excerpts.ts";
import { validateItems } from "../structured/validate.ts";
import { renderStructuredData } from "../render/structured_render.ts";
import { openEarly } from "../render/browser.ts";
import type { RobotsReader } from "../render/site_policy.ts";
import { countFindings } from "../structured/finding_log.ts";

/** What a scan needs besides the target. */
export interface SchemaScanDeps {
  config: Config;
  /** Defaults to a fetcher built from the config (closed after the scan). */
  fetcher?: GuardedFetcher;
  now?: () => Date;
  signal?: AbortSignal;
  /** Told what a rendering scan's browser is doing (the service reports it as its "rendering" step). */
  onProgress?: (text: string) => void;
  /**
   * robots.txt's rules for our crawler, for a rendering scan (Target.render): the visibility
   * checker's RFC 9309 parser, which this folder may not import, handed in by the service's
   * scanner (lib/features/schema/scanner.ts). Required when the target asks to render.
   */
  readRobots?: RobotsReader;
  /**
   * Which crawlers render pages (the visibility checker's CRAWLER_RENDERING, handed in by the
   * service's scanner like `readRobots`), for the words saying who sees which item.
   */
  readers?: readonly CrawlerReader[];
}

/** A finished scan. */
export interface SchemaScanOutcome {
  record: SchemaScanRecord;
  /** Why the scan failed, when record.status is "failed". */
  failure: string | null;
}

/**
 * Scans one page: `input` is what the user typed or a {@link Target} (its `pageUrl`, else its
 * `url`, is the page). Throws {@link InvalidTargetError} only for input that names no public site.
 */
export async function scanPage(
  input: string | Target,
  deps: SchemaScanDeps,
): Promise<SchemaScanOutcome> {
  const target = typeof input === "string" ? normaliseTarget(input) : input;
  const pageUrl = target.pageUrl ?? target.url;
  const { config } = deps;
  const now = deps.now ?? (() => new Date());
  const fetcher = deps.fetcher ?? createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
    requestTimeoutMs: config.requestTimeoutMs,
    maxBodyBytes: config.maxBodyBytes,
  });
  // A rendering scan has the render budget on top of the scan's time (docs/rendering.md).
  const timeoutMs = config.scanTimeoutMs + (target.render ? config.render.budgetMs : 0);
  const signal = deps.signal
    ? AbortSignal.any([deps.signal, AbortSignal.timeout(timeoutMs)])
    : AbortSignal.timeout(timeoutMs);
  // The browser starts while the page is fetched, so its start-up overlaps that; closed in
  // `finally` when the scan ends before the render takes it.
  const browser = openEarly(target.render === true, config.render.browser);
  const failed = (failure: string): SchemaScanOutcome => ({
    record: SchemaScanRecordSchema.parse({
      domain: target.domain,
      url: pageUrl,
      status: "failed",
      scannedAt: now().toISOString(),
      result: null,
    }),
    failure,
  });
  try {
    let res: FetchResult;
    try {
      res = await fetcher.fetch(pageUrl, { signal });
    } catch (error) {
      const message = error instanceof FetchError || error instanceof Error
        ? error.message
        : String(error);
      return failed(`the page could not be fetched: ${message}`);
    }
    if (res.status < 200 || res.status >= 400) {
      return failed(`the page answered HTTP ${res.status}`);
    }
    if (res.status >= 300) {
      return failed(`the page answered a redirect (${res.status}) without a usable Location`);
    }
    const contentType = res.headers["content-type"] ?? null;
    if (!looksLikeHtml(contentType ?? undefined, res.body)) {
      return failed(`the page is not HTML (Content-Type: ${contentType ?? "none"})`);
    }
    const pageInfo: Result["page"] = {
      requestedUrl: pageUrl,
      finalUrl: res.finalUrl,
      status: res.status,
      contentType,
      redirects: res.redirects.length,
      bytes: res.bytes,
      truncated: res.truncated,
      fetchMs: Math.round(res.totalMs),
    };
    const server = extractPage(res.body, res.finalUrl, target.domain);
    let render: RenderAttempt | undefined;
    if (target.render) {
      if (!deps.readRobots) throw new Error("a rendering schema scan needs deps.readRobots");
      deps.onProgress?.("rendering the page in a browser");
      render = await renderStructuredData({
        config,
        pageUrl: res.finalUrl,
        scanned: res,
        domain: target.domain,
        fetcher,
        readRobots: deps.readRobots,
        signal,
        onProgress: deps.onProgress,
        browser,
      });
    }
    const result = resultOf(server, pageInfo, {
      render,
      canRender: config.render.browser.kind !== "off",
      readers: deps.readers,
    });
    return {
      record: SchemaScanRecordSchema.parse({
        domain: target.domain,
        url: pageUrl,
        status: "ok",
        scannedAt: now().toISOString(),
        result,
      }),
      failure: null,
    };
  } finally {
    await browser?.release();
    if (!deps.fetcher) await fetcher.close();
  }
}

/**
 * The pure part of a scan: HTML in, result out (extraction, validation, generation). Tests and
 * the visibility checker call it without a network. `context` says what a render gave (the scan
 * hands in its rendered page) and how the summary may point to the rendered view.
 */
export function analysePage(
  html: string,
  page: Result["page"],
  domain: string,
  context: ViewContext = {},
): Result {
  const extraction = extractPage(html, page.finalUrl, domain);
  return resultOf(extraction, page, context);
}

/**
 * Builds the result from an extraction, and from the rendered page's when the scan rendered it:
 * one merged view of the items (lib/engines/structured/merged_view.ts) from which the findings, the
 * eligibility, the summary and the generated graph are all computed. A JSON-LD block that cannot
 * be read is the first thing to fix (with its line and column); when nothing else on the page can
 * be read, no markup is generated at all (it would be a placeholder built from nothing, replacing
 * code we could not read).
 */
export function resultOf(x: Extraction, page: Result["page"], context: ViewContext = {}): Result {
  const rendered = context.render?.status === "rendered" ? context.render.extraction : null;
  const detected = rendered ? mergeViews(x.detected, rendered.detected) : serverView(x.detected);
  const validation = validateItems(detected, page.finalUrl);
  const items = allItems(detected);
  const byKey = new Map(items.map((i) => [`${i.source}/${i.index}`, i]));
  // Blocks scripts add that cannot be read: in the rendered page only, so Google sees them broken.
  const known = new Set(x.syntaxFindings.map(syntaxKey));
  const addedSyntax = (rendered?.syntaxFindings ?? []).filter((f) => !known.has(syntaxKey(f))).map(
    (f) => ({
      ...f,
      message: `${f.message} This block is added by scripts: it is in the rendered page only.`,
    }),
  );
  const syntax = [...x.syntaxFindings, ...addedSyntax];
  const findings = attachExcerpts(
    [...syntax, ...validation.findings],
    detected.jsonLd,
    (item) =>
      item.origin === "added" || item.origin === "changed"
        ? rendered!.pageFacts.jsonLd
        : x.pageFacts.jsonLd,
  );
  // Google does not see what scripts remove: no rich result can come of it.
  const eligibility = validation.eligibility.filter((e) =>
    byKey.get(`${e.source}/${e.itemIndex}`)?.origin !== "removed"
  );
  const googleItems = items.filter((i) => i.origin !== "removed");
  const unreadable = syntax.filter((f) => f.itemIndex === null && f.property === null);
  let generated: Result["generated"];
  if (unreadable.length && !googleItems.length) generated = withheld(unreadable);
  else {
    // The graph is what Google reads after rendering: the items scripts add or change are in it,
    // the ones they remove are not.
    generated = generateGraph({
      pageUrl: page.finalUrl,
      facts: x.facts,
      detected: renderingView(detected),
    });
    generated.fillIn.unshift(...withheld(unreadable, false).fillIn);
  }
  const origins = originCounts(detected);
  const added = items.filter((i) => i.origin === "added");
  const view = pageView(
    origins,
    serverRendering(x.pageFacts),
    [...new Set(added.flatMap((i) => i.types))],
    context,
  );
  return {
    page,
    detected,
    facts: x.facts,
    findings,
    deprecated: validation.deprecated,
    eligibility,
    generated,
    summary: {
      // What readers that render see: the server HTML's items, and after a render those
      // scripts add or change (view.seen says what the others read).
      items: googleItems.length,
      types: [...new Set(googleItems.flatMap((i) => i.types))].sort(),
      // Each listed finding stands for itself and the `more` of its kind (finding_log.ts).
      ...countFindings(findings),
      deprecated: validation.deprecatedTotal,
      generatedNodes: generated.graph["@graph"].length,
      fillIn: generated.fillIn.length,
      eligible: new Set(
        eligibility.filter((e) => e.status !== "not eligible").map((e) =>
          `${e.source}/${e.itemIndex}`
        ),
      ).size,
    },
    ...(context.render
      ? { rendered: renderedStructure(context.render, detected, findings, eligibility, view) }
      : {}),
    view,
  };
}

/** A syntax finding's identity across the two pages (block numbers differ when scripts add one). */
function syntaxKey(f: Finding): string {
  return f.excerpt ? f.excerpt.lines.join("\n") : f.message.replace(/^JSON-LD block \d+/, "");
}

/** The `rendered` field: what the render gave, as the merged view lists it. */
function renderedStructure(
  render: RenderAttempt,
  detected: Detected,
  findings: Finding[],
  eligibility: Eligibility[],
  view: PageView,
): RenderedStructured {
  const added = new Set(
    allItems(detected).filter((i) => i.origin === "added").map((i) => `${i.source}/${i.index}`),
  );
  const isAdded = (source: string, index: number | null) =>
    index !== null && added.has(`${source}/${index}`);
  return {
    status: render.status,
    reason: render.reason,
    browser: render.browser,
    added: {
      jsonLd: detected.jsonLd.filter((i) => i.origin === "added"),
      microdata: detected.microdata.filter((i) => i.origin === "added"),
      rdfa: detected.rdfa.filter((i) => i.origin === "added"),
    },
    findings: findings.filter((f) => isAdded(f.source, f.itemIndex)),
    eligibility: eligibility.filter((e) => isAdded(e.source, e.itemIndex)),
    removed: view.origins.removed,
    changed: view.origins.changed,
    note: view.note ??
      (render.status === "rendered"
        ? "Rendered in a browser."
        : `Not rendered (${render.reason}): nothing is concluded about structured data added by scripts.`),
  };
}

/**
 * No markup offered (`alone`: nothing else on the page could be read), or markup that leaves the
 * unreadable blocks out: what to fix first, for each block that could not be read.
 */
function withheld(unreadable: Finding[], alone = true): Result["generated"] {
  const graph = { "@context": "https://schema.org" as const, "@graph": [] };
  return {
    graph,
    script: scriptFor(graph),
    nodes: [],
    fillIn: unreadable.map((f) => ({
      path: f.path,
      why: `${f.message.split(": it is not valid JSON")[0]}. ${
        alone
          ? "Fix it and validate again: markup is generated only from structured data that can be read, so nothing the broken block says is lost."
          : "Fix it first: the markup below leaves out whatever it says."
      }`,
    })),
  };
}
