/**
 * RDFa's vocabulary expansion by property copying: `rdfa:copy` of an `rdfa:Pattern`.
 */
import { RDF_TYPE } from "../rdf_terms.ts";
import type { Resource, Statement } from "./statement.ts";

const RDFA_NS = "http://www.w3.org/ns/rdfa#";

/**
 * RDFa's vocabulary expansion by property copying (rdfa:copy of an rdfa:Pattern, RDFa Core 1.1
 * section 10.1 / HTML+RDFa 1.1 section 3.5): a pattern's statements are copied to the subjects that
 * refer to it, then the referenced patterns and the copy statements are removed. Chains of
 * patterns are followed a few levels deep.
 */
export function copyProperties(input: Statement[], max: number): Statement[] {
  const COPY = `${RDFA_NS}copy`;
  const PATTERN = `${RDFA_NS}Pattern`;
  if (!input.some((s) => s.p === COPY)) return input;
  const key = (r: Resource) => (r.blank ? "_:" : "") + r.value;
  const isPatternType = (s: Statement) =>
    s.p === RDF_TYPE && s.o.kind === "resource" && s.o.value === PATTERN;
  const patterns = new Set(input.filter(isPatternType).map((s) => key(s.s)));
  const used = new Set<string>();
  let statements = input;
  for (let round = 0; round < 5; round++) {
    const bySubject = new Map<string, Statement[]>();
    for (const s of statements) {
      const k = key(s.s);
      if (patterns.has(k)) (bySubject.get(k) ?? bySubject.set(k, []).get(k)!).push(s);
    }
    const kept: Statement[] = [];
    const added: Statement[] = [];
    let again = false;
    for (const s of statements) {
      if (s.p !== COPY || s.o.kind !== "resource" || !patterns.has(key(s.o))) {
        kept.push(s);
        continue;
      }
      used.add(key(s.o));
      for (const t of bySubject.get(key(s.o)) ?? []) {
        if (isPatternType(t) || kept.length + added.length >= max) continue;
        added.push({ ...t, s: s.s, via: "copy" });
        if (t.p === COPY) again = true;
      }
    }
    statements = kept.concat(added);
    if (!again) break;
  }
  return statements.filter((s) => !used.has(key(s.s)));
}
