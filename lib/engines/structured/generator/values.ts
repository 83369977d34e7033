/**
 * Small value helpers of the generator: absolute URLs, stable @ids, the page's identity, names,
 * and schema-dts nodes as plain JSON.
 */
import { asList, type JsonObject, type JsonValue } from "../terms.ts";

/** A schema-dts node type without its string (reference) form. */
export type Obj<T> = Exclude<T, string>;

/** The URL the page is known by: its canonical when that is on the same origin, else its URL. */
export function pageIdentity(pageUrl: string, canonical: string | null): string {
  const u = new URL(pageUrl);
  u.hash = "";
  if (canonical) {
    try {
      const c = new URL(canonical);
      c.hash = "";
      if (c.origin === u.origin) return c.href;
    } catch { /* not a URL: keep the page's */ }
  }
  return u.href;
}

/** A URL value resolved against the page, or null. */
export function absolute(v: JsonValue, base: string): string | null {
  if (typeof v !== "string") return null;
  try {
    return new URL(v.trim(), base).href;
  } catch {
    return null;
  }
}

/** An existing @id worth keeping: absolute http(s), not a blank node. */
export function stableId(id: string | null | undefined): string | null {
  return id && /^https?:\/\//i.test(id) ? id : null;
}

/** A schema-dts typed node as plain JSON (undefined properties dropped). */
export function toJson(node: object): JsonObject {
  return JSON.parse(JSON.stringify(node));
}

/** The first non-blank string of a value, trimmed, or null. */
export function firstString(v: JsonValue | undefined): string | null {
  const s = asList(v).find((x) => typeof x === "string" && x.trim());
  return typeof s === "string" ? s.trim() : null;
}

/** A name reduced to its letters and digits, lower-cased (for matching names). */
export function nameKey(s: string | null): string {
  return (s ?? "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}
