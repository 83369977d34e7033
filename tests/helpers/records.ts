/**
 * Real-looking stored records for the export and compare tests, built by hand and checked by the
 * services' own zod schemas, with an option to make every string a scanned page controls hostile.
 */
import type { ScanJob } from "../../lib/kit/storage/store.ts";
import type { TestEnv } from "./app_env.ts";
import type { BaseRecord } from "../../lib/service.ts";
import { type ScanRecord, ScanRecordSchema } from "../../lib/engines/visibility/record.ts";
import {
  type SchemaScanRecord,
  SchemaScanRecordSchema,
} from "../../lib/engines/structured/record.ts";

/** Markup that must never come out of an export or a page as markup. */
export const XSS =
  `<script>alert(1)</script>"><img src=x onerror=alert(2)> | *bold* [x](javascript:alert(3))`;

/** Stores `record` as the latest of its domain, as the worker would. */
export async function storeRecord(
  env: Pick<TestEnv, "store" | "service">,
  record: BaseRecord,
  failure: string | null = null,
): Promise<void> {
  // One id for the job and the stored scan, as the worker does (the kept scan's id is the job's).
  const jobId = crypto.randomUUID();
  const outcome = await env.store.finishScan(
    {
      kind: "scan",
      service: env.service.name,
      jobId,
      target: { domain: record.domain, url: `https://${record.domain}/`, host: record.domain },
      credential: "pipeline",
      enqueuedAt: Date.parse(record.scannedAt),
    },
    { record, failure, credential: "pipeline", durationMs: 1, jobId },
  );
  if (outcome !== "stored") throw new Error(`record of ${record.domain} not stored: ${outcome}`);
}

const PILLARS = [
  { id: "access", title: "AI crawler access", weight: 30 },
  { id: "structured", title: "Structured data", weight: 20 },
  { id: "content", title: "Content clarity", weight: 50 },
];

/** An issue of {@link visibilityRecord}. */
export interface IssueSpec {
  id: string;
  impact?: "critical" | "high" | "medium" | "low";
}

/** An "ok" visibility record with these pillar scores and issues (text hostile on request). */
export function visibilityRecord(
  domain: string,
  o: {
    score: number;
    grade: "A" | "B" | "C" | "D" | "F";
    pillarScores: number[];
    issues: IssueSpec[];
    scannedAt?: string;
    hostile?: boolean;
  },
): ScanRecord {
  const h = o.hostile ? ` ${XSS}` : "";
  return ScanRecordSchema.parse({
    domain,
    status: "ok",
    scannedAt: o.scannedAt ?? "2026-11-21T09:00:00.000Z",
    result: {
      score: o.score,
      grade: o.grade,
      label: `Needs work${h}`,
      pillars: PILLARS.map((p, i) => ({
        ...p,
        title: p.title + (i === 1 ? h : ""),
        score: o.pillarScores[i],
        points: Math.round(o.pillarScores[i] * p.weight) / 100,
        signals: [{
          id: `${p.id}.main`,
          title: `Main check of ${p.id}${h}`,
          status: o.pillarScores[i] >= 80 ? "pass" : "fail",
          points: o.pillarScores[i] >= 80 ? 4 : 0,
          maxPoints: 4,
          detail: `- Observed\n# on the page${h}`,
          evidence: [`<meta name="x">${h}`],
          gate: null,
        }, {
          id: `${p.id}.extra`,
          title: "Not applicable here",
          status: "na",
          points: 0,
          maxPoints: 0,
          detail: "Does not apply.",
          evidence: [],
          gate: null,
        }],
      })),
      topIssues: o.issues.map((issue) => ({
        id: issue.id,
        title: `Fix ${issue.id}${h}`,
        status: "fail",
        impact: issue.impact ?? "medium",
        detail: `The page says${h}`,
        fix: {
          what: `Repair ${issue.id}`,
          why: `Because${h}`,
          how:
            `Paste into the <head>${h}:\n\n\`\`\`html\n<script type="application/ld+json">{"name": "${
              o.hostile ? XSS : "Shop"
            }"}</script>\n\`\`\`\n\nThen scan again.`,
          effort: "S",
        },
      })),
    },
    offSite: {
      wikidata: { status: "found", detail: `Q42${h}`, url: "javascript:alert(4)" },
      wikipedia: {
        status: "found",
        detail: "Article",
        url: `https://en.wikipedia.org/wiki/Shop_(store)`,
      },
      commonCrawl: { status: "unknown", detail: "The lookup failed.", url: null },
    },
  });
}

/** A failed visibility record. */
export function failedVisibilityRecord(domain: string, scannedAt = "2026-11-21T08:00:00.000Z") {
  return ScanRecordSchema.parse({
    domain,
    status: "failed",
    scannedAt,
    result: null,
    offSite: null,
  });
}

/** An "ok" schema record of one product page (text hostile on request). */
export function schemaRecord(domain: string, hostile = false): SchemaScanRecord {
  const h = hostile ? ` ${XSS}` : "";
  const graph = {
    "@context": "https://schema.org" as const,
    "@graph": [{ "@type": "Product", name: `Kettle${h}`, offers: { price: "12.50" } }],
  };
  return SchemaScanRecordSchema.parse({
    domain,
    url: `https://${domain}/kettle`,
    status: "ok",
    scannedAt: "2026-11-21T09:30:00.000Z",
    result: {
      page: {
        requestedUrl: `https://${domain}/kettle`,
        finalUrl: `https://${domain}/kettle`,
        status: 200,
        contentType: "text/html",
        redirects: 0,
        bytes: 1000,
        truncated: false,
        fetchMs: 12,
      },
      detected: {
        jsonLd: [{
          index: 0,
          source: "json-ld",
          id: null,
          types: ["Product"],
          properties: { name: `Kettle${h}` },
          refs: [],
          location: `JSON-LD block 1${h}`,
        }],
        microdata: [],
        rdfa: [],
      },
      facts: {
        title: `Kettle${h}`,
        description: null,
        canonical: null,
        lang: "en",
        siteName: null,
        ogType: null,
        logo: null,
        images: [],
        primaryImage: null,
        socialProfiles: [],
        contact: { telephones: [], emails: [] },
        address: null,
        breadcrumbs: [],
        faq: [],
        article: null,
        product: null,
      },
      findings: [{
        severity: "error",
        source: "json-ld",
        itemIndex: 0,
        path: "Product.offers.priceCurrency",
        type: "Offer",
        property: "priceCurrency",
        message: `priceCurrency is required${h}`,
        rule: "google:Product snippets",
      }],
      deprecated: [],
      eligibility: [{
        source: "json-ld",
        itemIndex: 0,
        type: "Product",
        feature: "Product snippets",
        status: "not eligible",
        reasons: [`priceCurrency is missing${h}`],
        docs: "javascript:alert(5)",
      }],
      generated: {
        graph,
        script: `<script type="application/ld+json">\n${
          JSON.stringify(graph, null, 2).replaceAll("<", "\\u003c")
        }\n</script>`,
        nodes: [{ id: `https://${domain}/kettle#product`, type: "Product", origin: "merged" }],
        fillIn: [{ path: "Product.offers.priceCurrency", why: `The page shows no currency.${h}` }],
      },
      summary: {
        items: 1,
        types: ["Product"],
        errors: 1,
        warnings: 0,
        deprecated: 0,
        generatedNodes: 1,
        fillIn: 1,
        eligible: 0,
      },
    },
  });
}

/** `job` with the scan starting at `url` (its target's url). */
export function withUrl(job: ScanJob, url: string): ScanJob {
  return { ...job, target: { ...job.target, url } };
}

/** A visibility scan job of `domain` with id `id`, queued at `at` (as the store's writers take). */
export function scanJob(domain: string, id: string, at: number): ScanJob {
  return {
    kind: "scan",
    service: "visibility",
    jobId: id,
    target: { domain, url: `https://${domain}/`, host: domain },
    credential: "pipeline",
    enqueuedAt: at,
  };
}
