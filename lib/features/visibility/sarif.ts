/**
 * The AI Visibility Checker's SARIF results (lib/engines/export/sarif.ts frames them): each failing or
 * warning signal is a result at the URL its evidence names (robots.txt checks at the file and the
 * line), and its rule's help is the signal's learn page.
 */
import type {
  ExportInput,
  SarifOptions,
  SarifParts,
  SarifResult,
  SarifRule,
} from "../../service.ts";
import { sarifLevel, severityOf } from "../../engines/visibility/severity.ts";
import type { ScanRecord, Signal } from "../../engines/visibility/record.ts";
import { learnEntry } from "../../engines/visibility/learn.ts";
import { learnPath } from "../../kit/report_urls.ts";
import {
  clip,
  fingerprint,
  httpBase,
  LEVEL,
  location,
  placeOf,
} from "../../engines/export/sarif.ts";

/** The record's failing and warning signals as SARIF rules and results. */
export function visibilitySarif(input: ExportInput, o: SarifOptions): SarifParts {
  return signalsSarif(input.record as ScanRecord, o);
}

function signalsSarif(record: ScanRecord, o: SarifOptions): SarifParts {
  const rules: SarifRule[] = [];
  const index = new Map<string, number>();
  const results: SarifResult[] = [];
  const base = httpBase(o.learnBase);
  const home = `https://${record.domain}/`;
  for (const pillar of record.result?.pillars ?? []) {
    for (const s of pillar.signals) {
      // Only what fails or warns is a result; its level follows the impact the report gives it.
      if (!LEVEL[s.status]) continue;
      const impact = severityOf(record.result!, s.id);
      const level = sarifLevel(impact);
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
          impact: impact ?? "none",
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
  level: "error" | "warning" | "note",
  base: string | null,
): SarifRule {
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
