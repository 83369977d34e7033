/**
 * A stored record as SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the
 * format GitHub code scanning reads (its supported subset: https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning,
 * checked 2026-11-26). One source for the CLI (`--format sarif`, `--out x.sarif`), the API
 * (GET /api/report/<domain>.sarif) and the GitHub Action (action.yml).
 *
 * Each failing or warning check is a result: its rule id (the signal's id, or the schema finding's
 * rule), its level (fail/error -> "error", warn/warning -> "warning"), its message (what was
 * observed) and the URL it concerns. Each rule carries its help text: the learn page's what, why
 * and how we test it (visibility), or what the rule family checks (schema), and the page's URL.
 *
 * Where a result points: code scanning needs a file in the repository, and a web check concerns a
 * URL. The URL's path becomes a repository-relative path (`/` -> `index.html`, `/robots.txt` ->
 * `robots.txt`), under `pathPrefix` when the site's files live in a folder (e.g. `public/`); the
 * live URL is in the message and in the result's `properties.url`. For robots.txt checks the line
 * the evidence names is the region.
 */
import { createHash } from "node:crypto";
import { PRODUCT } from "../config.ts";
import type { ScanRecord, Signal } from "../visibility/record.ts";
import type { SchemaScanRecord } from "../structured/record.ts";
import { learnEntry } from "../visibility/learn.ts";
import { learnPath } from "../report_urls.ts";
import { SERVICE_WORDS, type ServiceName } from "../service_words.ts";
import type { ExportInput, SarifOptions } from "./common.ts";

export type { SarifOptions };

/** The schema URI GitHub's examples use for SARIF 2.1.0. */
export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

interface Rule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: "error" | "warning" };
  properties: Record<string, unknown>;
}

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: "error" | "warning";
  message: { text: string };
  locations: unknown[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}

/** The most results one export holds (GitHub takes up to 25,000 per run). */
export const MAX_SARIF_RESULTS = 1000;

/** Each service's rules and results. */
const BUILDERS: Record<
  ServiceName,
  (input: ExportInput, o: SarifOptions) => { rules: Rule[]; results: Result[] }
> = {
  visibility: (input, o) => visibilitySarif(input.record as ScanRecord, o),
  schema: (input, o) => schemaSarif(input.record as SchemaScanRecord, o),
};

/** The SARIF log of a record, as text. */
export function recordToSarif(input: ExportInput, options: SarifOptions = {}): string {
  const record = input.record;
  const title = SERVICE_WORDS[input.service].title;
  const { rules, results } = BUILDERS[input.service](input, options);
  const base = httpBase(options.learnBase);
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: title,
          semanticVersion: PRODUCT.version,
          ...(base ? { informationUri: `${base}/` } : {}),
          rules,
        },
      },
      automationDetails: { id: `${input.service}/${record.domain}/` },
      originalUriBaseIds: {
        "%SRCROOT%": {
          description: {
            text: "The repository the site is deployed from; paths are the URL paths of the " +
              "scanned site" + (options.pathPrefix ? ` under ${options.pathPrefix}` : "") + ".",
          },
        },
      },
      invocations: [{
        executionSuccessful: record.status === "ok",
        endTimeUtc: record.scannedAt,
        ...(record.status === "failed"
          ? {
            toolExecutionNotifications: [{
              level: "error",
              message: {
                text: `The scan failed: ${input.failure ?? "the site could not be read"}`,
              },
            }],
          }
          : {}),
      }],
      results: results.slice(0, MAX_SARIF_RESULTS),
      properties: {
        domain: record.domain,
        scannedAt: record.scannedAt,
        ...scoreOf(record.result),
        ...(input.reportUrl ? { report: input.reportUrl } : {}),
      },
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}

function scoreOf(result: unknown): Record<string, unknown> {
  const r = result as { score?: number; grade?: string } | null;
  return typeof r?.score === "number" ? { score: r.score, grade: r.grade } : {};
}

function httpBase(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** The repository path and live URL a result concerns. */
function placeOf(
  url: string,
  domain: string,
  prefix: string | undefined,
): { uri: string; url: string } {
  let path = "/";
  let live = `https://${domain}/`;
  try {
    const u = new URL(url);
    path = u.pathname;
    live = u.href;
  } catch { /* the home page */ }
  let file = decodeURIComponent(path).replace(/^\/+/, "");
  if (file === "" || file.endsWith("/")) file += "index.html";
  // Only characters safe in a relative URI reference; anything else is percent-encoded.
  const safe = file.split("/").map((s) => encodeURIComponent(s)).join("/");
  const p = (prefix ?? "").replace(/^\/+/, "").replace(/\/*$/, prefix ? "/" : "");
  return { uri: `${p}${safe}`, url: live };
}

function location(place: { uri: string; url: string }, line: number) {
  return {
    physicalLocation: {
      artifactLocation: { uri: place.uri, uriBaseId: "%SRCROOT%" },
      region: { startLine: line, startColumn: 1 },
    },
    message: { text: place.url },
  };
}

function fingerprint(...parts: string[]): Record<string, string> {
  const hash = createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 16);
  return { primaryLocationLineHash: `${hash}:1` };
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const LEVEL: Record<string, "error" | "warning"> = {
  fail: "error",
  warn: "warning",
  error: "error",
  warning: "warning",
};

function visibilitySarif(
  record: ScanRecord,
  o: SarifOptions,
): { rules: Rule[]; results: Result[] } {
  const rules: Rule[] = [];
  const index = new Map<string, number>();
  const results: Result[] = [];
  const base = httpBase(o.learnBase);
  const home = `https://${record.domain}/`;
  for (const pillar of record.result?.pillars ?? []) {
    for (const s of pillar.signals) {
      const level = LEVEL[s.status];
      if (!level) continue;
      if (!index.has(s.id)) {
        index.set(s.id, rules.length);
        rules.push(visibilityRule(s, pillar.title, level, base));
      }
      const url = s.evidence.find((e) => /^https?:\/\//.test(e) && sameSite(e, record.domain)) ??
        (/robots/.test(s.id) || s.evidence.some((e) => /^[\w.-]+: (allowed|blocked)/.test(e))
          ? `${home}robots.txt`
          : home);
      const place = placeOf(url, record.domain, o.pathPrefix);
      const line = place.uri.endsWith("robots.txt")
        ? Number(s.evidence.map((e) => e.match(/\bline (\d+)\b/)?.[1]).find(Boolean) ?? 1)
        : 1;
      results.push({
        ruleId: s.id,
        ruleIndex: index.get(s.id)!,
        level,
        message: { text: clip(`${s.detail} (${place.url})`, 2000) },
        locations: [location(place, line)],
        partialFingerprints: fingerprint(s.id, record.domain, place.uri),
        properties: {
          url: place.url,
          pillar: pillar.id,
          ...(s.gate ? { gate: s.gate } : {}),
          evidence: s.evidence.slice(0, 10).map((e) => clip(e, 300)),
        },
      });
    }
  }
  return { rules, results };
}

function sameSite(url: string, domain: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === domain || host.endsWith(`.${domain}`);
  } catch {
    return false;
  }
}

function visibilityRule(
  s: Signal,
  pillar: string,
  level: "error" | "warning",
  base: string | null,
): Rule {
  const entry = learnEntry(s.id);
  const sources = entry?.sources ?? [];
  const text = entry
    ? `${entry.what}\n\nWhy it matters: ${entry.why}\n\nHow it is tested: ${entry.how}` +
      (sources.length
        ? `\n\nSources: ${sources.map((x) => `${x.title} (${x.url})`).join("; ")}`
        : "")
    : s.title;
  const markdown = entry
    ? `${entry.what}\n\n**Why it matters:** ${entry.why}\n\n**How it is tested:** ${entry.how}` +
      (sources.length
        ? `\n\n**Sources:**\n${sources.map((x) => `- [${x.title}](${x.url})`).join("\n")}`
        : "")
    : s.title;
  return {
    id: s.id,
    name: s.id.replace(
      /[^A-Za-z0-9]+(.)?/g,
      (_m, c: string | undefined) => (c ?? "").toUpperCase(),
    ),
    shortDescription: { text: clip(s.title, 1024) },
    fullDescription: { text: clip(entry?.what ?? s.title, 1024) },
    help: { text, markdown },
    ...(base ? { helpUri: `${base}${learnPath(s.id)}` } : {}),
    defaultConfiguration: { level },
    properties: {
      tags: ["ai-visibility", pillar],
      precision: "high",
      "problem.severity": level,
    },
  };
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

function schemaSarif(
  record: SchemaScanRecord,
  o: SarifOptions,
): { rules: Rule[]; results: Result[] } {
  const rules: Rule[] = [];
  const index = new Map<string, number>();
  const results: Result[] = [];
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
      message: { text: clip(`${f.path}: ${f.message} (${place.url})`, 2000) },
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
