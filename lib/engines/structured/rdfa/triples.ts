/**
 * The RDFa statements of a page as RDF triples (RDF/JS-shaped terms, rdf_terms.ts): literals read
 * exactly as RDFa specifies (the element's text content, or its markup for an XMLLiteral), the
 * public face of the RDFa processor (processor.ts).
 */
import { baseUrlOf, parseDom } from "../dom.ts";
import type { Term, Triple } from "../rdf_terms.ts";
import { literalTerm, TEXT_NODES } from "./literal.ts";
import { processRdfa } from "./processor.ts";
import type { RdfaGraph, Resource } from "./statement.ts";

/** A resource as an RDF term. */
export function resourceTerm(r: Resource): Term {
  return r.blank
    ? { termType: "BlankNode", value: r.value }
    : { termType: "NamedNode", value: r.value };
}

/** The triples of a processed page, literals read exactly as RDFa specifies. */
export function graphTriples(graph: RdfaGraph): Triple[] {
  const out: Triple[] = [];
  const budget = { nodes: TEXT_NODES };
  for (const st of graph.statements) {
    out.push({
      subject: resourceTerm(st.s) as Triple["subject"],
      predicate: { termType: "NamedNode", value: st.p },
      object: st.o.kind === "literal" ? literalTerm(st.o, budget) : resourceTerm(st.o),
    });
  }
  return out;
}

/**
 * Every RDFa triple a page states, as RDFa 1.1 specifies them (HTML+RDFa 1.1): `pageUrl` is the
 * page's final URL (a `<base href>` on the page overrides it, as in browsers).
 *
 * @example
 * ```ts
 * const triples = extractRdfaTriples(
 *   '<html><head><meta property="og:title" content="Hi"></head></html>',
 *   "https://example.com/",
 * );
 * // [{ subject: { termType: "NamedNode", value: "https://example.com/" },
 * //    predicate: { termType: "NamedNode", value: "http://ogp.me/ns#title" },
 * //    object: { termType: "Literal", value: "Hi", language: "", datatype: {...xsd:string} } }]
 * ```
 */
export function extractRdfaTriples(html: string, pageUrl: string): Triple[] {
  const doc = parseDom(html);
  return graphTriples(processRdfa(doc, baseUrlOf(doc, pageUrl)));
}
