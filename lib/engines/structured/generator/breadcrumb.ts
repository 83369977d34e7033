/** The page's breadcrumb trail, made whole from what the page states. */
import { allItems, type Detected } from "../extract.ts";
import type { Facts } from "../record.ts";
import { asList, isObject, isReference, type JsonObject, type JsonValue } from "../terms.ts";
import { absolute, firstString } from "./values.ts";

/**
 * A page's BreadcrumbList made whole from what the page states: each entry's `item` as its URL
 * (an entry written as {"@id", "name"} or referring to such a node keeps both), its name from
 * the entry, its item or the visible trail (matched by URL), positions 1..n in document order;
 * entries without a name, and entries but the last without a URL, are dropped.
 */
export function repairTrail(
  data: JsonObject,
  detected: Detected,
  visible: Facts["breadcrumbs"],
  page: string,
): JsonObject {
  const byId = new Map(allItems(detected).filter((i) => i.id).map((i) => [i.id!, i]));
  const nodeOf = (v: JsonValue | undefined): JsonObject | null =>
    isReference(v)
      ? { ...(byId.get(v["@id"])?.properties ?? {}), "@id": v["@id"] }
      : isObject(v)
      ? v
      : null;
  const entries = asList(data.itemListElement).map(nodeOf).filter((e): e is JsonObject => !!e);
  const ordered = entries.map((e, i) => ({ e, i, pos: Number(asList(e.position)[0]) }))
    .sort((a, b) =>
      (Number.isFinite(a.pos) ? a.pos : a.i + 1) - (Number.isFinite(b.pos) ? b.pos : b.i + 1) ||
      a.i - b.i
    );
  const out: JsonObject[] = [];
  for (const { e } of ordered) {
    const raw = asList(e.item)[0];
    const item = typeof raw === "string" ? null : nodeOf(raw);
    const url = absolute(
      typeof raw === "string" ? raw : (item?.["@id"] ?? asList(item?.url)[0] ?? null) as JsonValue,
      page,
    );
    const name = firstString(e.name) ?? (item ? firstString(item.name) : null) ??
      visible.find((b) => url && b.url === url)?.name ?? null;
    if (!name) continue; // Google requires every entry's name; one the page does not state is dropped.
    const entry: JsonObject = { "@type": "ListItem", position: out.length + 1 };
    if (name) entry.name = name;
    if (url) entry.item = url;
    out.push(entry);
  }
  // Only the last entry may go without a URL (Google's rule): others without one are dropped.
  const linked = out.filter((e, i) => e.item || i === out.length - 1)
    .map((e, i) => ({ ...e, position: i + 1 }));
  const copy: JsonObject = { ...data };
  if (linked.length) copy.itemListElement = linked;
  else delete copy.itemListElement;
  return copy;
}
