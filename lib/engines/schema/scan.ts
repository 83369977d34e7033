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
import { allItems, type Extraction, extractPage } from "../structured/extract.ts";
import { generateGraph, scriptFor } from "../structured/generate.ts";
import {
  type Finding,
  type Result,
  type SchemaScanRecord,
  SchemaScanRecordSchema,
} from "../structured/record.ts";
import { attachExcerpts } from "../structured/excerpts.ts";
import { validateItems } from "../structured/validate.ts";
import { renderStructuredData, withRenderedStructure } from "../render/structured_render.ts";
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
    let result = analysePage(res.body, {
      requestedUrl: pageUrl,
      finalUrl: res.finalUrl,
      status: res.status,
      contentType,
      redirects: res.redirects.length,
      bytes: res.bytes,
      truncated: res.truncated,
      fetchMs: Math.round(res.totalMs),
    }, target.domain);
    if (target.render) {
      if (!deps.readRobots) throw new Error("a rendering schema scan needs deps.readRobots");
      deps.onProgress?.("rendering the page in a browser");
      result = withRenderedStructure(
        result,
        await renderStructuredData({
          config,
          pageUrl: res.finalUrl,
          domain: target.domain,
          raw: result.detected,
          fetcher,
          readRobots: deps.readRobots,
          signal,
          onProgress: deps.onProgress,
          browser,
        }),
      );
    }
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
 * the visibility checker call it without a network.
 */
export function analysePage(html: string, page: Result["page"], domain: string): Result {
  const extraction = extractPage(html, page.finalUrl, domain);
  return resultOf(extraction, page);
}

/**
 * Builds the result from an extraction. A JSON-LD block that cannot be read is the first thing to
 * fix (with its line and column); when nothing else on the page can be read, no markup is
 * generated at all (it would be a placeholder built from nothing, replacing code we could not
 * read).
 */
export function resultOf(x: Extraction, page: Result["page"]): Result {
  const validation = validateItems(x.detected, page.finalUrl);
  const findings = attachExcerpts(
    [...x.syntaxFindings, ...validation.findings],
    x.detected.jsonLd,
    x.pageFacts.jsonLd,
  );
  const unreadable = x.syntaxFindings.filter((f) => f.itemIndex === null && f.property === null);
  const items = allItems(x.detected);
  let generated: Result["generated"];
  if (unreadable.length && !items.length) generated = withheld(unreadable);
  else {
    generated = generateGraph({ pageUrl: page.finalUrl, facts: x.facts, detected: x.detected });
    generated.fillIn.unshift(...withheld(unreadable, false).fillIn);
  }
  return {
    page,
    detected: x.detected,
    facts: x.facts,
    findings,
    deprecated: validation.deprecated,
    eligibility: validation.eligibility,
    generated,
    summary: {
      items: items.length,
      types: [...new Set(items.flatMap((i) => i.types))].sort(),
      // Each listed finding stands for itself and the `more` of its kind (finding_log.ts).
      ...countFindings(findings),
      deprecated: validation.deprecatedTotal,
      generatedNodes: generated.graph["@graph"].length,
      fillIn: generated.fillIn.length,
      eligible: new Set(
        validation.eligibility.filter((e) => e.status !== "not eligible").map((e) =>
          `${e.source}/${e.itemIndex}`
        ),
      ).size,
    },
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
