/**
 * The words and counts of a page's merged view (merged_view.ts) for its result: how many items
 * each kind of reader sees, what the server HTML shows of client rendering, and the one sentence
 * the summary says about it, such as "this page builds itself with scripts; markup scripts add is
 * not seen here", with how to get the rendered view. The scan (lib/engines/schema/scan.ts) builds the
 * view once; the summary, the sections, the exports and MCP all read it from the result.
 */
import type { ServerRendering } from "../html/client_rendering_signs.ts";
import type { Extraction } from "./extract.ts";
import type { OriginCounts } from "./merged_view.ts";
import type { PageView } from "./record.ts";

/** A crawler and whether it renders (lib/engines/visibility/crawlers.ts CRAWLER_RENDERING's shape). */
export type CrawlerReader = PageView["readers"][number];

/** What a scan's render gave: the rendered page's extraction, or why there is none. */
export interface RenderAttempt {
  /** rendered: the page was rendered; unavailable: no browser, or refused; failed: it broke. */
  status: "rendered" | "unavailable" | "failed";
  reason: string | null;
  /** The browser that rendered it (its name and version), when one did. */
  browser: string | null;
  /** The rendered DOM read by the same extraction as the server HTML; null unless rendered. */
  extraction: Extraction | null;
}

/** How the summary may tell a user to get the rendered view. */
export interface ViewContext {
  /** The render this scan did, if it asked for one. */
  render?: RenderAttempt;
  /** This server can render pages (a browser is configured and allowed). */
  canRender?: boolean;
  /** Which crawlers render (docs/rendering.md), for the words naming them. */
  readers?: readonly CrawlerReader[];
}

/** The view's counts and words. `types` are the types of the items readers that render see. */
export function pageView(
  origins: OriginCounts,
  serverHtml: ServerRendering,
  addedTypes: string[],
  context: ViewContext,
): PageView {
  const rendered = context.render?.status === "rendered";
  const readers = [...(context.readers ?? [])];
  return {
    rendered,
    reason: rendered
      ? null
      : context.render?.reason ?? "not asked: the scan read the server HTML alone",
    serverHtml,
    origins,
    seen: {
      rendering: origins.server + origins.added + origins.changed,
      nonRendering: origins.server + origins.changed + origins.removed,
    },
    note: viewNote(origins, serverHtml, addedTypes, context, readers),
    readers,
  };
}

/** "GPTBot, ClaudeBot and PerplexityBot", or "crawlers that do not render" without a list. */
export function nonRenderingNames(readers: readonly CrawlerReader[]): string {
  const names = readers.filter((r) => !r.renders).map((r) => r.token);
  if (!names.length) return "crawlers that do not render";
  return names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function viewNote(
  o: OriginCounts,
  server: ServerRendering,
  addedTypes: string[],
  context: ViewContext,
  readers: readonly CrawlerReader[],
): string | null {
  const others = nonRenderingNames(readers);
  if (context.render?.status === "rendered") {
    const parts: string[] = [];
    if (o.added) {
      parts.push(
        `${plural(o.added, "item")} (${addedTypes.slice(0, 5).join(", ") || "untyped"}) ${
          o.added === 1 ? "is" : "are"
        } added by scripts: Google reads ${
          o.added === 1 ? "it" : "them"
        } after rendering; ${others} never see ${
          o.added === 1 ? "it" : "them"
        }. Put the markup to paste below in the server HTML (the page's <head> as the server sends it), so every crawler reads it.`,
      );
    }
    if (o.changed) {
      parts.push(
        `Scripts change ${
          plural(o.changed, "item")
        }: Google reads the changed version, ${others} the server HTML's.`,
      );
    }
    if (o.removed) {
      parts.push(
        `Scripts remove ${plural(o.removed, "item")} of the server HTML: Google does not see ${
          o.removed === 1 ? "it" : "them"
        }; only ${others} still read ${o.removed === 1 ? "it" : "them"}.`,
      );
    }
    return parts.length
      ? parts.join(" ")
      : "Rendered in a browser: scripts add, change or remove no structured data, so every crawler reads the same items.";
  }
  const how = context.canRender
    ? 'Scan again with "Render the page in a browser" ticked to see what Google reads after rendering.'
    : "This server has no browser to render pages; Google's Rich Results Test (https://search.google.com/test/rich-results) renders them, and a self-hosted server renders with Chromium installed or a remote browser (RENDER_BROWSER_URL, docs/rendering.md).";
  const failed = context.render
    ? `Not rendered (${context.render.reason ?? "the render did not complete"}). `
    : "";
  if (server.kind === "shell") {
    return `${failed}This page builds itself with scripts (${
      server.signs.slice(0, 2).join("; ")
    }; ${
      plural(server.words, "word")
    } of text in the server HTML); markup scripts add is not seen here. ${how}`;
  }
  if (server.signs.length) {
    return `${failed}The page runs scripts of its own (${
      server.signs[0]
    }): markup they add is not seen here, only the server HTML's. ${how}`;
  }
  return failed ? `${failed}Nothing is concluded about markup scripts add. ${how}` : null;
}
