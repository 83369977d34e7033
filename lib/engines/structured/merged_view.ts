/**
 * One view of a page's structured data, as its readers get it: the server HTML's items and the
 * rendered DOM's items merged into one list, each item marked with where it comes from.
 *
 * - `server`: in the server HTML and unchanged after scripts ran: every reader sees it;
 * - `added`: only in the rendered DOM (a tag manager, a shop plugin, a client-rendered app):
 *   readers that render (Googlebot) see it, readers that do not (most AI crawlers) never do;
 * - `changed`: in both, but scripts changed it: the item listed is the rendered version, which
 *   rendering readers see; the others read the server HTML's version;
 * - `removed`: in the server HTML, gone after scripts ran: only readers that do not render see it.
 *
 * An item of the server HTML and one of the rendered DOM are the same item when they share their
 * format and `@id`, or, without an `@id`, their format and types in document order (the second
 * Product of one is the second Product of the other); the same item whose types or properties
 * differ is `changed`. The summary, eligibility, findings, "what changed" and the generated graph
 * are all computed from this one list (lib/engines/schema/scan.ts `resultOf`). Pure and linear in the
 * items: no network, no browser.
 */
import { allItems, type Detected, linkItems } from "./extract.ts";
import type { DetectedItem, ItemOrigin, Reader } from "./record.ts";

const SOURCES = ["jsonLd", "microdata", "rdfa"] as const;

/** Which readers see an item of each origin. */
export const SEEN_BY: Record<ItemOrigin, Reader[]> = {
  server: ["rendering", "non-rendering"],
  added: ["rendering"],
  changed: ["rendering"],
  removed: ["non-rendering"],
};

/** How many items of each origin a view holds. */
export type OriginCounts = Record<ItemOrigin, number>;

/**
 * The server HTML's items alone (the page was not rendered): every item is `server`, as far as
 * anything is known. Returns a copy; the input is not changed.
 */
export function serverView(server: Detected): Detected {
  return reindexed(
    SOURCES.map((s) => server[s].map((item) => mark(item, "server"))),
  );
}

/** The merged view of the server HTML's items and the rendered DOM's (copies, re-indexed). */
export function mergeViews(server: Detected, rendered: Detected): Detected {
  return reindexed(SOURCES.map((s) => mergeSource(server[s], rendered[s])));
}

/** The items rendering readers see (no `removed` ones), re-indexed and re-linked: Google's view. */
export function renderingView(view: Detected): Detected {
  return reindexed(
    SOURCES.map((s) => view[s].filter((item) => item.origin !== "removed").map((i) => ({ ...i }))),
  );
}

/** How many items of each origin the view holds (an item without an origin is `server`). */
export function originCounts(view: Detected): OriginCounts {
  const out: OriginCounts = { server: 0, added: 0, changed: 0, removed: 0 };
  for (const item of allItems(view)) out[item.origin ?? "server"]++;
  return out;
}

/** Merges one format's items: server order first, the items only scripts add after them. */
function mergeSource(server: DetectedItem[], rendered: DetectedItem[]): DetectedItem[] {
  // The rendered items of each identity, in document order, each taken once (a cursor, not
  // shift(): thousands of items of one type stay linear).
  const pool = new Map<string, { list: DetectedItem[]; next: number }>();
  for (const item of rendered) {
    const key = identity(item);
    const entry = pool.get(key);
    if (entry) entry.list.push(item);
    else pool.set(key, { list: [item], next: 0 });
  }
  const taken = new Set<DetectedItem>();
  const out: DetectedItem[] = [];
  for (const item of server) {
    const entry = pool.get(identity(item));
    const match = entry && entry.next < entry.list.length ? entry.list[entry.next++] : undefined;
    if (!match) {
      out.push(mark(item, "removed"));
      continue;
    }
    taken.add(match);
    out.push(sameContent(item, match) ? mark(item, "server") : mark(match, "changed"));
  }
  for (const item of rendered) if (!taken.has(item)) out.push(mark(item, "added"));
  return out;
}

/** Which item of the other view an item is: its `@id`, or its types in document order. */
function identity(item: DetectedItem): string {
  return item.id ? `id:${item.id}` : `types:${item.types.join(" ")}`;
}

function sameContent(a: DetectedItem, b: DetectedItem): boolean {
  return JSON.stringify([a.types, a.properties]) === JSON.stringify([b.types, b.properties]);
}

function mark(item: DetectedItem, origin: ItemOrigin): DetectedItem {
  return { ...item, refs: [], origin, seenBy: SEEN_BY[origin] };
}

/** A Detected from per-format lists: each item's index its place in its list, refs re-linked. */
function reindexed(lists: DetectedItem[][]): Detected {
  const [jsonLd, microdata, rdfa] = lists.map((list) =>
    list.map((item, index) => ({ ...item, index, refs: [] }))
  );
  const out: Detected = { jsonLd, microdata, rdfa };
  linkItems(out);
  return out;
}
