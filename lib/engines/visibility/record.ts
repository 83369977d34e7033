/**
 * The visibility ScanRecord, exactly as ../shared/api/visibility.md shapes it, as zod schemas
 * shared by the engine, the API and the tests. The spec leaves a signal's fields open; ours are
 * documented on {@link SignalSchema} and in docs/scoring.md ("The ScanRecord").
 */
import { RecordBudgetSchema } from "../../kit/limits/record_budget.ts";
import { z } from "zod";
import { AuditPageSchema } from "./audit/types.ts";
import { RenderViewSchema } from "../render/view.ts";
import {
  type OffSite,
  type OffSiteCheck,
  OffSiteCheckSchema,
  OffSiteSchema,
} from "../offsite/types.ts";

export { type OffSite, type OffSiteCheck, OffSiteCheckSchema, OffSiteSchema };

/** How a single check came out. */
export const SignalStatusSchema = z.enum(["pass", "warn", "fail", "info", "na", "unknown"]);
export type SignalStatus = z.infer<typeof SignalStatusSchema>;

/**
 * One row of the crawler matrix (on the `access.edge` signal): what robots.txt tells a crawler
 * about the home page, what the site declares for the crawler's purpose, and what the site's edge
 * answered our probe with the crawler's User-Agent, with the registry entry's source and date.
 */
export const CrawlerRowSchema = z.object({
  token: z.string(),
  vendor: z.string(),
  /** The vendor's stated purpose: search, user, agent, training, ads. */
  purpose: z.string(),
  /** robots.txt's verdict on the home page. */
  robots: z.enum(["allowed", "blocked", "unknown"]),
  /** The preference the site declares for the crawler's purpose ("no ai-train"), or null. */
  preference: z.string().nullable(),
  /** What the edge answered our probe ("HTTP 200", "a challenge page (HTTP 403)"); null: not probed. */
  edge: z.string().nullable(),
  /** The edge kept our probe from the page; null when not probed or not answered. */
  edgeRefused: z.boolean().nullable(),
  /** The vendor's page, its published addresses (or null) and the day the entry was checked. */
  docs: z.string(),
  ipRanges: z.string().nullable(),
  checked: z.string(),
  /**
   * Additive (issue 40), absent in older records: the one per-crawler verdict the score reads
   * (lib/engines/visibility/access_model.ts). `product`: the AI product it feeds (products.ts); `counts`:
   * verified on its vendor's page and not retired (false: shown, labelled, never scored).
   */
  product: z.string().optional(),
  counts: z.boolean().optional(),
  /** open, refused (by any path), or unknown (robots.txt unreadable and nothing refused). */
  state: z.enum(["open", "refused", "unknown"]).optional(),
  /** What turns it away: robots, noindex, edge_refused, edge_challenge, edge_rate_limited, ... */
  causes: z.array(z.string()).optional(),
  /** The edge's answer as one value (edge_probe.ts EdgeState); every view labels it from this. */
  edgeState: z.enum(["open", "refused", "challenge", "rate_limited", "block_page", "not_measured"])
    .optional(),
  /** The robots.txt line that decides ("line 4: Disallow: /"), or null. */
  robotsLine: z.string().nullable().optional(),
  /** The page-level directive that keeps it out ("noindex, <meta name=\"robots\">"), or null. */
  directive: z.string().nullable().optional(),
});
export type CrawlerRow = z.infer<typeof CrawlerRowSchema>;

/**
 * One observed check inside a pillar.
 * - `pass` / `warn` / `fail`: scored; `points` of `maxPoints` earned.
 * - `info`: reported, not scored (e.g. training crawlers blocked by choice).
 * - `na`: does not apply to this site; leaves the denominator.
 * - `unknown`: could not be observed (e.g. robots.txt timed out); leaves the denominator.
 */
export const SignalSchema = z.object({
  /** Stable identifier, e.g. "robots.search_crawlers". */
  id: z.string(),
  title: z.string(),
  status: SignalStatusSchema,
  /** Points earned (0 for info/na/unknown). */
  points: z.number().min(0),
  /** Points at stake within the pillar (0 for info/na/unknown). */
  maxPoints: z.number().min(0),
  /** What was observed, in one or two sentences. */
  detail: z.string(),
  /** Raw observations backing the detail (matched robots.txt lines, URLs, values). */
  evidence: z.array(z.string()),
  /** Set when this signal failing caps the overall score: the cap that applied. */
  gate: z.object({ id: z.string(), cap: z.number() }).nullable(),
  /**
   * Only on `discovery.site_sample`: the sampled pages of the site audit, home page first (type,
   * how the fetch went, HTTP status, the checks each fails). See docs/site-audit.md.
   */
  pages: z.array(AuditPageSchema).optional(),
  /** Only on `access.edge`: the crawler matrix (robots.txt, declared preference, edge answer). */
  crawlers: z.array(CrawlerRowSchema).optional(),
});
export type Signal = z.infer<typeof SignalSchema>;

export const PillarSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** 0-100: points earned over points observable in this pillar. */
  score: z.number().min(0).max(100),
  /** Points this pillar contributes to the overall score (score * weight / 100). */
  points: z.number().min(0).max(100),
  /** Share of the overall score, 0-100; the weights of all pillars sum to 100. */
  weight: z.number().min(0).max(100),
  signals: z.array(SignalSchema),
});
export type Pillar = z.infer<typeof PillarSchema>;

/**
 * The root cause a fix addresses: what it edits (the AI crawlers' groups of robots.txt, the
 * template of a kind of page, the home page's JSON-LD graph). Fixes with the same `key` are one
 * change, so the report offers them as one issue (lib/engines/visibility/score.ts); `title` is what that
 * one fix is called when its checks call theirs differently, in plain words ("Update the template
 * of your article pages (such as /2024/01/a)").
 */
export const FixCauseSchema = z.object({ key: z.string(), title: z.string() });
export type FixCause = z.infer<typeof FixCauseSchema>;

export const FixSchema = z.object({
  what: z.string(),
  why: z.string(),
  how: z.string(),
  effort: z.enum(["S", "M", "L"]),
  /** What the fix edits; absent: the fix is its signal's alone. */
  cause: FixCauseSchema.optional(),
});
export type Fix = z.infer<typeof FixSchema>;

/**
 * What an issue's fix is worth, computed by scoring the record again with every check it resolves
 * passing (lib/engines/visibility/score.ts scoreIf): the same arithmetic as the score itself.
 */
export const WorthSchema = z.object({
  /** Points the score before any cap gains (one decimal). */
  points: z.number(),
  /** The score the report would show after this fix alone (caps that still stand applied). */
  score: z.number(),
  /** The gates (ids) this fix lifts. */
  lifts: z.array(z.string()),
});
export type Worth = z.infer<typeof WorthSchema>;

export const IssueSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(["fail", "warn"]),
  impact: z.enum(["critical", "high", "medium", "low"]),
  detail: z.string(),
  fix: FixSchema,
  /**
   * The checks this one fix resolves (its own first): several when fixes of one cause were merged.
   * Absent in records made before fixes were merged by cause.
   */
  resolves: z.array(z.object({ id: z.string(), title: z.string() })).optional(),
  /** What the fix is worth; absent in records made before it was computed. */
  worth: WorthSchema.optional(),
});
export type Issue = z.infer<typeof IssueSchema>;

export const GradeSchema = z.enum(["A", "B", "C", "D", "F"]);
export type Grade = z.infer<typeof GradeSchema>;

export const ResultSchema = z.object({
  score: z.number().min(0).max(100),
  grade: GradeSchema,
  label: z.string(),
  pillars: z.array(PillarSchema),
  topIssues: z.array(IssueSchema),
});
export type Result = z.infer<typeof ResultSchema>;

/** The stored, public record of one scan of one domain. */
export const ScanRecordSchema = z.object({
  domain: z.string(),
  status: z.enum(["ok", "failed"]),
  scannedAt: z.iso.datetime(),
  result: ResultSchema.nullable(),
  offSite: OffSiteSchema.nullable(),
  /** Additive: the AI's-eye view, only when the scan asked for rendering (docs/rendering.md). */
  render: RenderViewSchema.optional(),
  /** Set when the record was over its size budget and summarised (lib/kit/limits/record_budget.ts). */
  budget: RecordBudgetSchema.optional(),
}).refine((r) => (r.status === "failed") === (r.result === null), {
  message: 'result is null exactly when status is "failed"',
});
export type ScanRecord = z.infer<typeof ScanRecordSchema>;
