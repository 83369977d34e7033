/**
 * The Schema Markup Generator's SARIF results (lib/engines/export/sarif.ts frames them): each error or
 * warning finding is a result at the page, its JSON path as the logical location; a rule's help is
 * what its family checks, linking Google's page for the feature when the record names one.
 */
import type {
  ExportInput,
  SarifOptions,
  SarifParts,
  SarifResult,
  SarifRule,
} from "../../service.ts";
import type { SchemaScanRecord } from "../../engines/structured/record.ts";
import { clip, fingerprint, LEVEL, location, placeOf } from "../../engines/export/sarif.ts";
import { moreLikeThis } from "../../engines/structured/finding_log.ts";

/** The record's error and warning findings as SARIF rules and results. */
export function schemaSarif(input: ExportInput, o: SarifOptions): SarifParts {
  return findingsSarif(input.record as SchemaScanRecord, o);
}

/** What each family of schema rules checks (the help of its SARIF rule). */
const SCHEMA_RULE_HELP: {
  match: (rule: string) => boolean;
  text: (rule: string) => string;
  uri: (rule: string) => string;
}[] = [
  {
    match: (r) => r === "json-ld",
    text: () =>
      "A JSON-LD block of the page is not valid JSON (or not JSON-LD): search engines ignore the whole block, so none of its items count.",
    uri: () => "https://www.w3.org/TR/json-ld11/",
  },
  {
    match: (r) => r === "schema.org",
    text: () =>
      "An item uses a type or a property that the schema.org vocabulary does not define, or a value of the wrong kind for it: consumers of the markup ignore what they do not know.",
    uri: () => "https://schema.org/docs/documents.html",
  },
  {
    match: (r) => r.startsWith("google:"),
    text: (r) =>
      `Google's requirements for the "${
        r.slice(7)
      }" rich result: a required property missing or invalid makes the item not eligible; a recommended one missing is a warning.`,
    uri: () =>
      "https://developers.google.com/search/docs/appearance/structured-data/search-gallery",
  },
];

function findingsSarif(record: SchemaScanRecord, o: SarifOptions): SarifParts {
  const rules: SarifRule[] = [];
  const index = new Map<string, number>();
  const results: SarifResult[] = [];
  const docs = new Map(
    (record.result?.eligibility ?? []).filter((e) => e.docs).map((
      e,
    ) => [`google:${e.feature}`, e.docs!]),
  );
  const place = placeOf(record.url, record.domain, o.pathPrefix);
  for (const f of record.result?.findings ?? []) {
    const level = LEVEL[f.severity];
    if (!level) continue;
    if (!index.has(f.rule)) {
      index.set(f.rule, rules.length);
      const family = SCHEMA_RULE_HELP.find((h) => h.match(f.rule));
      const text = family?.text(f.rule) ?? f.rule;
      const uri = docs.get(f.rule) ?? family?.uri(f.rule);
      rules.push({
        id: f.rule,
        name: f.rule.replace(
          /[^A-Za-z0-9]+(.)?/g,
          (_m, c: string | undefined) => (c ?? "").toUpperCase(),
        ),
        shortDescription: { text: clip(`Structured data: ${f.rule}`, 1024) },
        fullDescription: { text: clip(text, 1024) },
        help: { text, markdown: uri ? `${text}\n\n[Documentation](${uri})` : text },
        ...(uri ? { helpUri: uri } : {}),
        defaultConfiguration: { level },
        properties: { tags: ["structured-data"], precision: "high", "problem.severity": level },
      });
    }
    results.push({
      ruleId: f.rule,
      ruleIndex: index.get(f.rule)!,
      level,
      message: { text: clip(`${f.path}: ${f.message}${moreLikeThis(f)} (${place.url})`, 2000) },
      locations: [{
        ...location(place, 1),
        logicalLocations: [{ fullyQualifiedName: clip(f.path, 500), kind: "member" }],
      }],
      partialFingerprints: fingerprint(f.rule, f.path, record.url),
      properties: { url: place.url, source: f.source, path: f.path },
    });
  }
  return { rules, results };
}
