/**
 * Compare sites: the latest stored visibility records of up to {@link COMPARE_MAX_SITES} domains
 * side by side (score and grade, each pillar, and which issues each site has that another does
 * not). It reads stored records only and never starts a scan; a domain never scanned is listed as
 * "not_scanned", not an error. GET /compare (the page) and GET /api/compare.json serve it.
 */
import { z } from "zod";
import { BadRequestError } from "../../kit/errors.ts";
import { InvalidTargetError, normaliseTarget } from "../../kit/net/target.ts";
import type { Store } from "../../kit/storage/store.ts";
import type { Issue, ScanRecord } from "../../engines/visibility/record.ts";
import { reportJsonPath, reportPagePath } from "../../kit/report_urls.ts";

/** At most this many sites are compared at once. */
export const COMPARE_MAX_SITES = 5;

/** One compared site: its latest record's headline, or why there is none. */
export const CompareSiteSchema = z.object({
  domain: z.string(),
  status: z.enum(["ok", "failed", "not_scanned"])
    .describe('"ok" and "failed" as the record says; "not_scanned" when no record is stored.'),
  scannedAt: z.string().nullable(),
  score: z.number().nullable(),
  grade: z.string().nullable(),
  label: z.string().nullable(),
  failure: z.string().nullable().describe('Why the latest scan failed (status "failed").'),
  issueCount: z.number().int().nullable().describe("How many issues the record lists."),
  onlyHere: z.array(z.string()).describe("Ids of issues no other compared site has."),
  reportPath: z.string()
    .describe("The report page; for a site never scanned, the page with a form to scan it."),
  jsonPath: z.string().nullable().describe("The record's JSON (null when never scanned)."),
});
export type CompareSite = z.infer<typeof CompareSiteSchema>;

/** One pillar across the sites: its score per domain (null: no result for that site). */
export const ComparePillarSchema = z.object({
  id: z.string(),
  title: z.string(),
  weight: z.number(),
  scores: z.record(z.string(), z.number().nullable()),
});
export type ComparePillar = z.infer<typeof ComparePillarSchema>;

/** One issue across the sites with a result: who has it and who does not. */
export const CompareIssueSchema = z.object({
  id: z.string(),
  title: z.string(),
  impact: z.enum(["critical", "high", "medium", "low"])
    .describe("The highest impact any site's record gives it."),
  impacts: z.record(z.string(), z.enum(["critical", "high", "medium", "low"]))
    .describe(
      "The impact each site's own record gives it, by domain (what that site's report says).",
    ),
  has: z.array(z.string()).describe("Domains whose latest record lists the issue."),
  lacks: z.array(z.string()).describe("Domains with a result that do not list it."),
  shared: z.boolean().describe("True when every site with a result has it."),
});
export type CompareIssue = z.infer<typeof CompareIssueSchema>;

/** The body of GET /api/compare.json. */
export const ComparisonSchema = z.object({
  domains: z.array(z.string()).describe("The domains compared, normalised, in the order asked."),
  sites: z.array(CompareSiteSchema),
  pillars: z.array(ComparePillarSchema),
  issues: z.array(CompareIssueSchema)
    .describe("Issues that differ between sites first (most telling first), then shared ones."),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

const IMPACT_RANK: Record<Issue["impact"], number> = { critical: 0, high: 1, medium: 2, low: 3 };

/**
 * The domains of a comparison request: each value may hold several, separated by commas or
 * spaces; each is normalised as a scan target is (so `https://www.Example.com/` is `example.com`)
 * and duplicates collapse. None, more than {@link COMPARE_MAX_SITES} or one that is not a domain
 * name is a {@link BadRequestError} that says which.
 *
 * @example
 * ```ts
 * compareDomains(["example.com,https://www.example.org/", "Example.com"]);
 * // ["example.com", "example.org"]
 * ```
 */
export function compareDomains(values: string[]): string[] {
  const inputs = values.flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== "");
  if (inputs.length === 0) {
    throw new BadRequestError(
      "Name the sites to compare: ?d=example.com&d=example.org (up to 5).",
    );
  }
  if (inputs.length > COMPARE_MAX_SITES * 4) {
    throw new BadRequestError(`At most ${COMPARE_MAX_SITES} sites can be compared at once.`);
  }
  const domains: string[] = [];
  for (const input of inputs) {
    let domain: string;
    try {
      domain = normaliseTarget(input).domain;
    } catch (e) {
      if (!(e instanceof InvalidTargetError)) throw e;
      throw new BadRequestError(`"${clip(input, 80)}" is not a domain name: ${e.message}.`);
    }
    if (!domains.includes(domain)) domains.push(domain);
  }
  if (domains.length > COMPARE_MAX_SITES) {
    throw new BadRequestError(
      `At most ${COMPARE_MAX_SITES} sites can be compared at once; ${domains.length} were given.`,
    );
  }
  return domains;
}

/** Reads the latest stored record of each domain and compares them. Starts no scan. */
export async function compareSites(store: Store, domains: string[]): Promise<Comparison> {
  const stored = await Promise.all(domains.map((d) => store.getScan(d)));
  return compareRecords(
    domains.map((domain, i) => {
      const s = stored[i];
      return {
        domain,
        record: (s?.record as ScanRecord | undefined) ?? null,
        failure: s?.failure ?? null,
      };
    }),
  );
}

/** The comparison of records already read (null: never scanned). */
export function compareRecords(
  entries: { domain: string; record: ScanRecord | null; failure: string | null }[],
): Comparison {
  const withResult = entries.filter((e) => e.record?.result);
  const scored = withResult.map((e) => e.domain);
  // Pillars in the order the first record with a result lists them, then any others.
  const pillars = new Map<string, ComparePillar>();
  for (const e of withResult) {
    for (const p of e.record!.result!.pillars) {
      if (!pillars.has(p.id)) {
        pillars.set(p.id, {
          id: p.id,
          title: p.title,
          weight: p.weight,
          scores: Object.fromEntries(entries.map((x) => [x.domain, null])),
        });
      }
      pillars.get(p.id)!.scores[e.domain] = p.score;
    }
  }
  const issues = new Map<string, CompareIssue>();
  for (const e of withResult) {
    for (const issue of e.record!.result!.topIssues) {
      const seen = issues.get(issue.id);
      if (!seen) {
        issues.set(issue.id, {
          id: issue.id,
          title: issue.title,
          impact: issue.impact,
          impacts: { [e.domain]: issue.impact },
          has: [e.domain],
          lacks: [],
          shared: false,
        });
      } else if (!seen.has.includes(e.domain)) {
        seen.has.push(e.domain);
        seen.impacts[e.domain] = issue.impact;
        if (IMPACT_RANK[issue.impact] < IMPACT_RANK[seen.impact]) seen.impact = issue.impact;
      }
    }
  }
  for (const issue of issues.values()) {
    issue.has = scored.filter((d) => issue.has.includes(d));
    issue.lacks = scored.filter((d) => !issue.has.includes(d));
    issue.shared = issue.lacks.length === 0;
  }
  const issueList = [...issues.values()].sort((a, b) =>
    Number(a.shared) - Number(b.shared) || IMPACT_RANK[a.impact] - IMPACT_RANK[b.impact] ||
    b.has.length - a.has.length || a.title.localeCompare(b.title)
  );
  const sites = entries.map(({ domain, record, failure }): CompareSite => {
    const r = record?.result ?? null;
    return {
      domain,
      status: record ? record.status : "not_scanned",
      scannedAt: record?.scannedAt ?? null,
      score: r?.score ?? null,
      grade: r?.grade ?? null,
      label: r?.label ?? null,
      failure: record && !r ? failure : null,
      issueCount: r ? r.topIssues.length : null,
      onlyHere: r && scored.length > 1
        ? issueList.filter((i) => i.has.length === 1 && i.has[0] === domain).map((i) => i.id)
        : [],
      reportPath: reportPagePath(domain),
      jsonPath: record ? reportJsonPath(domain) : null,
    };
  });
  return {
    domains: entries.map((e) => e.domain),
    sites,
    pillars: [...pillars.values()],
    issues: issueList,
  };
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 1) + "…";
}
