/**
 * RDF terms and triples as plain JSON, with the field names of the RDF/JS data model
 * (https://rdf.js.org/data-model-spec/): `termType`, `value`, and for literals `language` ("" when
 * none) and `datatype` (a NamedNode; xsd:string for a plain literal, rdf:langString with a
 * language). Libraries that take RDF/JS terms (oxigraph's `fromTerm`, N3.js) accept them.
 */

/** An IRI. */
export interface NamedNode {
  /** Always "NamedNode". */
  termType: "NamedNode";
  /** The absolute IRI. */
  value: string;
}

/** A blank node; `value` is its label, unique within one page's extraction. */
export interface BlankNode {
  /** Always "BlankNode". */
  termType: "BlankNode";
  /** The label. */
  value: string;
}

/** A literal: its lexical form, its language tag (lowercased, "" when none) and its datatype. */
export interface Literal {
  /** Always "Literal". */
  termType: "Literal";
  /** The lexical form. */
  value: string;
  /** The language tag, lowercased; "" when none. */
  language: string;
  /** xsd:string when none is given, rdf:langString with a language. */
  datatype: NamedNode;
}

/** Anything a triple's object may be. */
export type Term = NamedNode | BlankNode | Literal;

/** One statement. */
export interface Triple {
  /** What the statement is about. */
  subject: NamedNode | BlankNode;
  /** The property. */
  predicate: NamedNode;
  /** The value. */
  object: Term;
}

/** The RDF namespace. */
export const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
/** The XML Schema datatypes namespace. */
export const XSD_NS = "http://www.w3.org/2001/XMLSchema#";
/** rdf:type. */
export const RDF_TYPE = `${RDF_NS}type`;
/** The datatype of a literal without one. */
export const XSD_STRING = `${XSD_NS}string`;
/** The datatype of a literal with a language. */
export const RDF_LANG_STRING = `${RDF_NS}langString`;

const DATETIME_FORMS: [RegExp, string][] = [
  [/^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/, "duration"],
  [/^-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/, "dateTime"],
  [/^-?\d{4,}-\d\d-\d\d(Z|[+-]\d\d:\d\d)?$/, "date"],
  [/^\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/, "time"],
  [/^-?\d{4,}-\d\d(Z|[+-]\d\d:\d\d)?$/, "gYearMonth"],
  [/^-?\d{4,}(Z|[+-]\d\d:\d\d)?$/, "gYear"],
];

/**
 * The XML Schema datatype a date/time value's lexical form names (xsd:date for "2024-05-01",
 * xsd:dateTime, xsd:time, xsd:gYearMonth, xsd:gYear, xsd:duration), or null for any other text.
 * HTML+RDFa 1.1 section 3.1 types `<time>` and `@datetime` values this way
 * (https://www.w3.org/TR/html-rdfa/#extensions-to-rdfa-core-1-1, checked 2026-11-26), and the
 * W3C Microdata to RDF note does the same for `<time datetime>`.
 */
export function datetimeDatatype(value: string): string | null {
  for (const [form, type] of DATETIME_FORMS) if (form.test(value)) return XSD_NS + type;
  return null;
}

/** A literal term: a language makes it rdf:langString, no datatype and no language xsd:string. */
export function literal(value: string, datatype: string | null, language: string | null): Literal {
  const dt = datatype ?? (language ? RDF_LANG_STRING : XSD_STRING);
  return {
    termType: "Literal",
    value,
    language: datatype ? "" : language ?? "",
    datatype: { termType: "NamedNode", value: dt },
  };
}
