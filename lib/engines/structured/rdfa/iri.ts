/**
 * How RDFa 1.1 resolves what attributes say (RDFa Core 1.1 section 7.4,
 * https://www.w3.org/TR/rdfa-core/#s_curieprocessing, checked 2026-11-26): terms through the
 * default vocabulary or the initial context, CURIEs through the prefixes in scope (":x" is the
 * XHTML vocabulary's), absolute IRIs as written, relative IRIs against the base.
 */
import { parsePrefixAttribute } from "../../html/rdfa_context.ts";
import { INITIAL_TERMS } from "../../html/rdfa_context.ts";
import { absoluteUrl } from "../dom.ts";
import type { Resource } from "./statement.ts";
import { cutAt } from "../../../kit/text/trim.ts";

/** The XHTML vocabulary, the default prefix's namespace. */
export const XHV_NS = "http://www.w3.org/1999/xhtml/vocab#";

/** What resolves terms and CURIEs on an element. */
export interface Scope {
  prefixes: Readonly<Record<string, string>>;
  vocab: string | null;
}

/** `rel`/`rev` as RDFa reads it: next to `property`, only CURIEs and IRIs count. */
export function relValue(raw: string | undefined, withProperty: boolean): string | null {
  if (raw === undefined) return null;
  if (!withProperty) return raw;
  const kept = raw.trim().split(/\s+/).filter((t) => t.includes(":"));
  return kept.length ? kept.join(" ") : null;
}

/**
 * Resolved attribute values per prefix mapping, vocabulary and kind (pages repeat the same
 * `property` and `typeof` values many times). Keyed by the attribute string itself, whose hash
 * the engine keeps, so a hit costs no string building.
 */
const termCache = new WeakMap<object, Map<string, TermMemo>>();

/** Per prefix mapping and vocabulary: predicates and types by attribute value. */
interface TermMemo {
  p: Map<string, string[]>;
  t: Map<string, Resource[]>;
}

function cached<K extends "p" | "t">(
  raw: string,
  ctx: Scope,
  kind: K,
  make: () => TermMemo[K] extends Map<string, infer V> ? V : never,
): TermMemo[K] extends Map<string, infer V> ? V : never {
  let byVocab = termCache.get(ctx.prefixes);
  if (!byVocab) termCache.set(ctx.prefixes, byVocab = new Map());
  let memo = byVocab.get(ctx.vocab ?? "");
  if (!memo) byVocab.set(ctx.vocab ?? "", memo = { p: new Map(), t: new Map() });
  const byRaw = memo[kind] as Map<string, ReturnType<typeof make>>;
  const hit = byRaw.get(raw);
  if (hit) return hit;
  const value = make();
  if (byRaw.size < 5000) byRaw.set(raw, value);
  return value;
}

/** Predicates of `property`/`rel`/`rev`: terms, CURIEs or IRIs; never blank nodes. */
export function predicates(raw: string, ctx: Scope): string[] {
  return cached(raw, ctx, "p", () => resolvePredicates(raw, ctx));
}

function resolvePredicates(raw: string, ctx: Scope): string[] {
  const out: string[] = [];
  for (const t of raw.trim().split(/\s+/)) {
    const p = t ? termIri(t, ctx) : null;
    if (p !== null && !out.includes(p)) out.push(p);
  }
  return out;
}

/** `typeof` values (a blank node CURIE is allowed there). */
export function typeIris(raw: string, ctx: Scope): Resource[] {
  return cached(raw, ctx, "t", () => resolveTypes(raw, ctx));
}

function resolveTypes(raw: string, ctx: Scope): Resource[] {
  const types: Resource[] = resolvePredicates(raw, ctx).map((value) => ({
    kind: "resource",
    blank: false,
    value,
  }));
  for (const t of raw.trim().split(/\s+/)) {
    if (t.startsWith("_:")) types.push({ kind: "resource", blank: true, value: `u_${t.slice(2)}` });
  }
  return types;
}

/** A TERMorCURIEorAbsIRI as an absolute IRI, or null when it names nothing (or a blank node). */
export function termIri(t: string, ctx: Scope): string | null {
  const colon = t.indexOf(":");
  if (colon < 0) {
    if (ctx.vocab) return checkedIri(ctx.vocab + t);
    return INITIAL_TERMS[t.toLowerCase()] ?? null;
  }
  if (t.startsWith("_:")) return null;
  return checkedIri(expandCurie(t, ctx.prefixes) ?? t);
}

/** "ex:name" with `ex` mapped (":name" is the XHTML vocabulary's); null when unmapped. */
export function expandCurie(
  curie: string,
  prefixes: Readonly<Record<string, string>>,
): string | null {
  const colon = curie.indexOf(":");
  if (colon < 0) return null;
  const prefix = curie.slice(0, colon).toLowerCase();
  const reference = curie.slice(colon + 1);
  if (prefix === "") return XHV_NS + reference;
  if (prefix === "_") return null;
  const ns = Object.hasOwn(prefixes, prefix) ? prefixes[prefix] : undefined;
  return ns === undefined ? null : ns + reference;
}

/** An absolute IRI (a scheme, no spaces), or null. */
export function checkedIri(v: string): string | null {
  return /^[a-z][a-z0-9+.-]*:[^\s"<>{}|\\^`]*$/i.test(v) ? v : null;
}

/**
 * An IRI reference resolved against the base: an absolute IRI is kept as written (RDF compares
 * IRIs as strings: "http://example.org" is not "http://example.org/"), a relative one resolved.
 */
export function resolveIri(raw: string, base: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return checkedIri(raw);
  if (raw === "") return cutAt(base, "#");
  const resolved = absoluteUrl(raw, base);
  return resolved === null ? null : checkedIri(resolved);
}

/** The prefix mappings in scope on an element: `prefix` and `xmlns:` over the parent's. */
export function prefixesOf(
  a: Record<string, string>,
  parent: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const declared = parsePrefixAttribute(a);
  return declared ? { ...parent, ...declared } : parent;
}

/** An IRI from `href`/`src`, resolved only when a statement uses it (most links never are). */
export class LinkIri implements Resource {
  readonly kind = "resource";
  readonly blank = false;
  #value: string | undefined;
  constructor(private readonly raw: string, private readonly base: string) {}
  /** The absolute IRI, or "" when the attribute holds none (statements with it are dropped). */
  get value(): string {
    return this.#value ??= resolveIri(this.raw, this.base) ?? "";
  }
}
