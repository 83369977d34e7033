/**
 * Structured data that scripts add (a common plugin and tag-manager pattern), for the Schema
 * Markup Generator: the page is rendered (lib/engines/render/session.ts) under the site's robots.txt and
 * politeness (lib/engines/render/site_policy.ts), its rendered DOM is read by the same extraction as the
 * server HTML, and the items only the rendered DOM holds are validated and marked "added by
 * JavaScript". The generated graph is then built from the rendered page's items, so the graph the
 * user pastes into the server HTML carries them.
 */
import type { Config } from "../../kit/config.ts";
import type { GuardedFetcher } from "../../kit/net/types.ts";
import { allItems, type Detected, type Extraction, extractPage } from "../structured/extract.ts";
import { generateGraph } from "../structured/generate.ts";
import type { DetectedItem, RenderedStructured, Result } from "../structured/record.ts";
import { validateItems } from "../structured/validate.ts";
import type { EarlyBrowser } from "./browser.ts";
import { renderPages } from "./session.ts";
import { type RobotsReader, sitePolicy } from "./site_policy.ts";
import { PAGE_LIMITS } from "./site_view.ts";

const SOURCES = ["jsonLd", "microdata", "rdfa"] as const;

/** What rendering one page for its structured data needs. */
export interface StructuredRenderInput {
  config: Config;
  /** The page's final URL (after the scan's own fetch). */
  pageUrl: string;
  domain: string;
  /** The server HTML's items (the scan's own extraction). */
  raw: Detected;
  fetcher: GuardedFetcher;
  /** robots.txt's rules for our crawler (the one RFC 9309 parser, handed in). */
  readRobots: RobotsReader;
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
  /** A browser the scan started opening while it fetched the page (else one is opened here). */
  browser?: EarlyBrowser;
}

/** The rendered page's findings and its items, or why there are none. */
export interface StructuredRenderOutcome {
  rendered: RenderedStructured;
  /** The rendered page's items (the generator's input), when it rendered. */
  detected: Detected | null;
}

/** Renders the page and finds what scripts add. Never throws. */
export async function renderStructuredData(
  input: StructuredRenderInput,
): Promise<StructuredRenderOutcome> {
  const { config } = input;
  const policy = await sitePolicy(
    input.fetcher,
    input.pageUrl,
    config.userAgent,
    config.audit.maxCrawlDelayMs,
    input.readRobots,
    input.signal,
  );
  const none = (status: "unavailable" | "failed", reason: string, browser: string | null) => ({
    rendered: {
      status,
      reason,
      browser,
      added: { jsonLd: [], microdata: [], rdfa: [] },
      findings: [],
      eligibility: [],
      removed: 0,
      note:
        `Not rendered (${reason}): nothing is concluded about structured data added by scripts.`,
    },
    detected: null,
  });
  if (policy.refusal) return none("unavailable", policy.refusal, null);
  if (!policy.robotsAllows(input.pageUrl)) {
    return none("failed", "robots.txt disallows our crawler on this page", null);
  }
  const session = await renderPages([input.pageUrl], {
    settings: { ...config.render, pages: 1 },
    gate: {
      fetcher: policy.fetcher,
      isSite: policy.isSite,
      robotsAllows: policy.robotsAllows,
      maxRequests: PAGE_LIMITS.requests,
      maxPageBytes: PAGE_LIMITS.bytes,
      maxBodyBytes: config.maxBodyBytes,
      requestTimeoutMs: config.requestTimeoutMs,
    },
    userAgent: config.userAgent,
    signal: input.signal,
    onProgress: input.onProgress,
    browser: input.browser,
  }, (render): Extraction | string => {
    if (render.state !== "rendered" || render.html === null) {
      return render.reason ?? "the page could not be rendered";
    }
    return extractPage(render.html, render.document?.finalUrl ?? input.pageUrl, input.domain);
  });
  const page = session.pages[0];
  if (session.status === "unavailable") return none("unavailable", session.reason ?? "", null);
  if (!page || typeof page === "string") {
    return none("failed", page ?? session.reason ?? "the page was not rendered", session.browser);
  }
  const added = onlyIn(page.detected, input.raw);
  const removed = allItems(onlyIn(input.raw, page.detected)).length;
  const addedKeys = new Set(
    SOURCES.flatMap((s) => added[s].map((item) => `${item.source}/${item.index}`)),
  );
  const validation = validateItems(page.detected, input.pageUrl);
  const count = allItems(added).length;
  const types = [...new Set(allItems(added).flatMap((i) => i.types))].slice(0, 5);
  return {
    rendered: {
      status: "rendered",
      reason: null,
      browser: session.browser,
      added,
      findings: validation.findings.filter((f) =>
        f.itemIndex !== null && addedKeys.has(`${f.source}/${f.itemIndex}`)
      ),
      eligibility: validation.eligibility.filter((e) =>
        addedKeys.has(`${e.source}/${e.itemIndex}`)
      ),
      removed,
      note: count
        ? `${count} item${count > 1 ? "s" : ""} (${types.join(", ")}) ${
          count > 1 ? "are" : "is"
        } added by JavaScript: Google reads ${
          count > 1 ? "them" : "it"
        } after rendering; crawlers that do not render never see ${
          count > 1 ? "them" : "it"
        }. Put the generated graph below in the server HTML (the page's <head> as the server sends it), so every crawler reads it.`
        : removed
        ? `Scripts add no structured data, but ${removed} item${
          removed > 1 ? "s" : ""
        } of the server HTML are gone or changed after rendering: rendering crawlers read the rendered version.`
        : "Scripts add no structured data: the server HTML already holds what the rendered page shows.",
    },
    detected: count ? page.detected : null,
  };
}

/**
 * The result with what rendering found: the additive `rendered` field and, when scripts add
 * items, the generated graph built from the rendered page's items.
 */
export function withRenderedStructure(result: Result, outcome: StructuredRenderOutcome): Result {
  if (!outcome.detected) return { ...result, rendered: outcome.rendered };
  const generated = generateGraph({
    pageUrl: result.page.finalUrl,
    facts: result.facts,
    detected: outcome.detected,
  });
  return {
    ...result,
    generated,
    summary: {
      ...result.summary,
      generatedNodes: generated.graph["@graph"].length,
      fillIn: generated.fillIn.length,
    },
    rendered: outcome.rendered,
  };
}

/** Items of `a` that `b` does not hold (by source, types and properties; a multiset). */
function onlyIn(a: Detected, b: Detected): Detected {
  const out: Detected = { jsonLd: [], microdata: [], rdfa: [] };
  for (const source of SOURCES) {
    const left = new Map<string, number>();
    for (const item of b[source]) left.set(keyOf(item), (left.get(keyOf(item)) ?? 0) + 1);
    for (const item of a[source]) {
      const n = left.get(keyOf(item)) ?? 0;
      if (n > 0) left.set(keyOf(item), n - 1);
      else out[source].push(item);
    }
  }
  return out;
}

function keyOf(item: DetectedItem): string {
  return JSON.stringify([item.types, item.properties]);
}
