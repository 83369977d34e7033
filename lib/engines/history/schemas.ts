/**
 * The zod schemas of the history's JSON answers (lib/features/history/routes/api/report/history.ts,
 * lib/features/report/routes/api/scans/[id].ts): the OpenAPI document (each route's RouteDef, lib/kit/web/openapi.ts) is generated from them
 * and the tests check real answers against it.
 */
import { z } from "zod";

const at = z.string().describe("An ISO 8601 time (UTC).");

/** GET /api/scans/{id}. */
export const ScanStatusSchema = z.object({
  id: z.string().describe("The scan's id (random; from the 202 of POST /api/scan)."),
  domain: z.string(),
  status: z.enum(["queued", "running", "done", "failed"]),
  step: z.string().nullable().describe("What the worker is doing now (running only)."),
  stepId: z.string().nullable().describe(
    "The same step's id, one of the service's typed steps (running only).",
  ),
  queuedAt: at.nullable(),
  startedAt: at.nullable(),
  finishedAt: at.nullable().describe("The scan's scannedAt (done or failed)."),
  report: z.object({
    page: z.string().describe("This scan's report page, forever."),
    json: z.string().describe("This scan's record as JSON, forever."),
  }).nullable().describe("Set once the scan is done or failed."),
  score: z.number().nullable(),
  grade: z.string().nullable(),
  retryAfterMs: z.number().int().optional().describe("Poll again after this long."),
  statusUrl: z.string(),
});

/** One kept scan in GET /api/report/{domain}/history.json. */
export const HistoryItemSchema = z.object({
  id: z.string(),
  scannedAt: at,
  status: z.enum(["ok", "failed"]),
  score: z.number().nullable(),
  grade: z.string().nullable(),
  url: z.string().optional().describe("The page scanned (schema service)."),
  pillars: z.array(z.object({ id: z.string(), score: z.number() })).optional(),
  issues: z.number().int().optional().describe("Signals that fail or warn; errors + warnings."),
  failure: z.string().optional().describe("Why a failed scan failed."),
  page: z.string(),
  json: z.string(),
});

/** GET /api/report/{domain}/history.json. */
export const HistorySchema = z.object({
  domain: z.string(),
  scans: z.array(HistoryItemSchema).describe("Newest first."),
});

const side = z.object({
  id: z.string().nullable(),
  scannedAt: at,
  status: z.enum(["ok", "failed"]),
  score: z.number().nullable(),
  grade: z.string().nullable(),
  uncapped: z.number().nullable().describe(
    "Visibility: the score before any cap; null for the schema service and failed scans.",
  ),
  cap: z.object({ id: z.string(), cap: z.number(), binding: z.boolean() }).nullable().describe(
    "Visibility: the lowest gate raised (binding: it lowered the score); null when none.",
  ),
});
const issue = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string().describe('"fail"/"warn" (visibility), "error"/"warning" (schema).'),
  impact: z.string().nullable(),
  pillar: z.string().nullable(),
});

/** What changed between two scans (lib/engines/history/diff.ts ScanDiff). */
export const ScanDiffSchema = z.object({
  domain: z.string(),
  from: side,
  to: side,
  scoreChange: z.number().nullable(),
  gradeChanged: z.boolean(),
  pillars: z.array(z.object({
    id: z.string(),
    title: z.string(),
    from: z.number().nullable(),
    to: z.number().nullable(),
    change: z.number(),
  })),
  fixed: z.array(issue).describe("Issues the earlier scan had and this one does not."),
  new: z.array(issue).describe("Issues this scan has and the earlier one did not."),
  changed: z.array(z.object({
    id: z.string(),
    title: z.string(),
    pillar: z.string().nullable(),
    from: z.string(),
    to: z.string(),
  })).describe("Other signals whose verdict changed (e.g. warn to fail)."),
  regression: z.boolean().describe("A lower score, a failed scan, or a new critical issue."),
  regressionReasons: z.array(z.string()),
  summary: z.array(z.string()).describe("The diff in plain sentences."),
});

/** GET /api/report/{domain}/changes.json. */
export const ChangesSchema = z.object({
  domain: z.string(),
  changes: ScanDiffSchema.nullable().describe("Null when there is no earlier scan yet."),
});
