/**
 * The two views of one page side by side: the server HTML (what crawlers that do not run
 * JavaScript read) and the rendered DOM (what rendering crawlers read), both read by the same
 * one-pass extraction (lib/engines/html/page_facts.ts), so a word, heading or link counts the same way in
 * each. What exists only after scripts, what scripts change in the head, and the page's verdict.
 */
import { looksLikeHtml } from "../../kit/net/decode.ts";
import { extractPageFacts } from "../html/page_facts.ts";
import type { PageFacts } from "../html/types.ts";
import { flattenJsonLd } from "../structured/page_graph.ts";
import type { PageRender } from "./page_render.ts";
import {
  type ChangedField,
  type PageView,
  type RenderedPage,
  type RenderVerdict,
  VIEW_CAPS,
} from "./view.ts";

/**
 * How two word counts (server HTML, rendered DOM) judge a page: the visibility checker's one
 * JavaScript-shell rule (lib/engines/visibility/client_rendering.ts renderedVerdict), handed in by the
 * caller so this folder stays free of any one service's rules.
 */
export type VerdictRule = (rawWords: number, renderedWords: number) => RenderVerdict;

/** Schema.org types of a page's JSON-LD and microdata items, sorted, deduplicated, capped. */
export function structuredTypes(facts: PageFacts): string[] {
  const types = new Set<string>();
  for (const node of flattenJsonLd(facts.jsonLd)) for (const t of node.types) types.add(t);
  for (const t of facts.microdataTypes) {
    types.add(t.replace(/^https?:\/\/(www\.)?schema\.org\//i, ""));
  }
  return [...types].filter(Boolean).sort().slice(0, VIEW_CAPS.types);
}

/** One view of a page, from its facts. */
export function viewOf(facts: PageFacts): PageView {
  return {
    words: facts.text.words,
    headings: facts.headings.length,
    h1: clip(facts.headings.find((h) => h.level === 1)?.text ?? null),
    internalLinks: facts.links.filter((l) => l.internal).length,
    title: clip(facts.title),
    description: clip(facts.metaDescription),
    canonical: clip(facts.canonical),
    robots: clip(facts.metaRobots["robots"] ?? null),
    structuredTypes: structuredTypes(facts),
  };
}

/**
 * Compares a rendered page with its server HTML. `doNotRender` names the crawlers the registry
 * says do not run JavaScript (they get the server HTML); `verdictOf` judges the two word counts.
 */
export function comparePage(
  render: PageRender,
  doNotRender: string[],
  verdictOf: VerdictRule,
): RenderedPage {
  const doc = render.document;
  const rawFacts = doc && looksLikeHtml(doc.headers["content-type"], doc.body)
    ? extractPageFacts(doc.body, doc.finalUrl)
    : null;
  const base = {
    url: render.url,
    requests: {
      served: render.requests.served,
      refused: render.requests.refused,
      failed: render.requests.failed,
      refusedKinds: { ...render.requests.refusedKinds },
    },
  };
  if (render.state !== "rendered" || render.html === null || !rawFacts) {
    const reason = render.reason ??
      (rawFacts ? "the page could not be rendered" : "the page's server HTML did not arrive");
    return {
      ...base,
      state: "failed",
      reason: clip(reason),
      raw: rawFacts ? viewOf(rawFacts) : null,
      rendered: null,
      verdict: "unknown",
      onlyAfterScripts: null,
      changed: [],
      missed: `Not rendered (${reason}); nothing is concluded about this page.`,
    };
  }
  const renderedFacts = extractPageFacts(render.html, doc!.finalUrl);
  const raw = viewOf(rawFacts);
  const rendered = viewOf(renderedFacts);
  const only = onlyAfterScripts(rawFacts, renderedFacts, raw, rendered);
  const changed = changedFields(raw, rendered);
  const verdict = verdictOf(raw.words, rendered.words);
  const notes = [
    render.reason,
    render.cut ? `the rendered DOM was cut at ${render.html.length} characters` : null,
  ].filter((n): n is string => !!n);
  return {
    ...base,
    state: "rendered",
    reason: notes.length ? clip(notes.join("; ")) : null,
    raw,
    rendered,
    verdict,
    onlyAfterScripts: only,
    changed,
    missed: missedText(verdict, raw, rendered, only, changed, doNotRender),
  };
}

function onlyAfterScripts(
  rawFacts: PageFacts,
  renderedFacts: PageFacts,
  raw: PageView,
  rendered: PageView,
): NonNullable<RenderedPage["onlyAfterScripts"]> {
  const rawHeadings = new Map<string, number>();
  for (const h of rawFacts.headings) {
    const key = `${h.level}:${h.text}`;
    rawHeadings.set(key, (rawHeadings.get(key) ?? 0) + 1);
  }
  const newHeadings: string[] = [];
  for (const h of renderedFacts.headings) {
    const key = `${h.level}:${h.text}`;
    const left = rawHeadings.get(key) ?? 0;
    if (left > 0) rawHeadings.set(key, left - 1);
    else if (h.text) newHeadings.push(`h${h.level}: ${h.text}`);
  }
  const rawLinks = new Set(rawFacts.links.filter((l) => l.internal).map((l) => l.href));
  const newLinks = renderedFacts.links.filter((l) => l.internal && !rawLinks.has(l.href));
  const rawTypes = new Set(raw.structuredTypes);
  return {
    words: Math.max(0, rendered.words - raw.words),
    headingCount: newHeadings.length,
    headings: newHeadings.slice(0, VIEW_CAPS.examples).map((h) => clip(h)!),
    links: newLinks.length,
    // Links in PageFacts are absolute http(s) URLs: their path and query.
    linkExamples: newLinks.slice(0, 3).map((l) => {
      const u = new URL(l.href);
      return clip(`${u.pathname}${u.search}`)!;
    }),
    structuredTypes: rendered.structuredTypes.filter((t) => !rawTypes.has(t)),
  };
}

function changedFields(raw: PageView, rendered: PageView): ChangedField[] {
  const fields = ["title", "description", "canonical", "robots"] as const;
  return fields.filter((f) => (raw[f] ?? null) !== (rendered[f] ?? null)).map((field) => ({
    field,
    raw: raw[field],
    rendered: rendered[field],
  }));
}

/** "What GPTBot, ClaudeBot and PerplexityBot miss on this page", in plain words. */
function missedText(
  verdict: RenderVerdict,
  raw: PageView,
  rendered: PageView,
  only: NonNullable<RenderedPage["onlyAfterScripts"]>,
  changed: ChangedField[],
  doNotRender: string[],
): string {
  const who = doNotRender.length ? listOf(doNotRender) : "Crawlers that do not run JavaScript";
  const extras: string[] = [];
  if (only.headingCount) {
    extras.push(
      `${only.headingCount} heading${only.headingCount > 1 ? "s" : ""} (the first: “${
        only.headings[0].replace(/^h\d: /, "")
      }”)`,
    );
  }
  if (only.links) extras.push(`${only.links} internal link${only.links > 1 ? "s" : ""}`);
  if (only.structuredTypes.length) {
    extras.push(`the structured data ${only.structuredTypes.slice(0, 3).join(", ")}`);
  }
  const scriptsAdd = extras.length ? ` Only scripts add ${listOf(extras)}.` : "";
  const changes = changed.map((c) =>
    ` Scripts change the ${c.field === "robots" ? "robots meta" : c.field}: ${who} read ${
      quote(c.raw)
    }, rendering crawlers ${quote(c.rendered)}.`
  ).join("");
  switch (verdict) {
    case "js_only":
      return `${who} get an empty page here: the server HTML holds ${raw.words} words, the rendered page ${rendered.words}.${scriptsAdd}${changes}`;
    case "partly_js":
      return `${who} miss ${only.words} of the ${rendered.words} words (${
        Math.round(100 * only.words / Math.max(1, rendered.words))
      }%) that only scripts write.${scriptsAdd}${changes}`;
    case "thin":
      return `Little either way: ${raw.words} words in the server HTML, ${rendered.words} after rendering (a short page, not a JavaScript one).${scriptsAdd}${changes}`;
    default:
      return `${
        scriptsAdd || changes ? "Almost nothing" : "Nothing"
      }: the server HTML already holds the text the rendered page shows (${raw.words} of ${rendered.words} words).${scriptsAdd}${changes}`;
  }
}

function quote(value: string | null): string {
  return value === null ? "none" : `“${value}”`;
}

function listOf(items: string[]): string {
  return items.length < 2
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function clip(value: string | null): string | null {
  if (value === null) return null;
  return value.length > VIEW_CAPS.text ? `${value.slice(0, VIEW_CAPS.text - 1)}…` : value;
}
