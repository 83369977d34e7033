/**
 * The building blocks pillars are made of: a {@link Check} is a signal plus what to do about it.
 * Pillar modules export a {@link PillarDef}; scoring and issue ordering live in score.ts.
 */
import type { Fix, Signal } from "./record.ts";
import type { Snapshot } from "./snapshot_types.ts";
import type { PageFacts } from "../html/types.ts";
import type { RobotsAnalysis } from "./robots.ts";
import type { OffSite } from "./record.ts";
import type { JsonLdNode } from "../structured/page_graph.ts";
import type { AuditResult } from "./audit/types.ts";
import type { RenderView } from "../render/view.ts";

/** How bad a problem is, as topIssues report it. */
export type Impact = "critical" | "high" | "medium" | "low";

/** A signal and, when it is not passing, the fix and how much it matters. */
export interface Check {
  signal: Signal;
  fix: Fix | null;
  /** Overrides the impact computed from recoverable points (e.g. for a fix that is cheap insurance). */
  impact?: Impact;
}

/** What every pillar reads: the snapshot plus what was derived from it once. */
export interface ScanContext {
  snapshot: Snapshot;
  /** Parsed home page; never null here (a scan without HTML fails before scoring). */
  facts: PageFacts;
  robots: RobotsAnalysis;
  /** Flattened JSON-LD nodes of the home page (@graph expanded). */
  nodes: JsonLdNode[];
  /**
   * Nodes of every structured-data format on the home page (JSON-LD, microdata, RDFa), as the
   * schema service extracts them; absent means the JSON-LD nodes only.
   */
  items?: JsonLdNode[];
  /** The entity name the site presents (JSON-LD, og:site_name, title), or null. */
  siteName: string | null;
  /** The home page's final URL. */
  pageUrl: string;
  offSite: OffSite | null;
  /** When the scan ran (injected, so tests control time). */
  now: Date;
  /** The site audit's sample (lib/visibility/audit/); absent: the home page alone is scored. */
  audit?: AuditResult;
  /** The rendered view (lib/render/), when the scan asked for it; absent: not rendered. */
  render?: RenderView;
}

/** A weighted pillar: its weights across all pillars sum to 100. */
export interface PillarDef {
  id: string;
  title: string;
  weight: number;
  checks(ctx: ScanContext): Check[];
}

interface ScoredOptions {
  /** Points earned; defaults to all for pass, half for warn, none for fail. */
  points?: number;
  evidence?: string[];
  fix?: Fix | null;
  gate?: { id: string; cap: number } | null;
  impact?: Impact;
}

/** A signal that counts towards the pillar's score. */
export function scored(
  id: string,
  title: string,
  maxPoints: number,
  status: "pass" | "warn" | "fail",
  detail: string,
  options: ScoredOptions = {},
): Check {
  const points = options.points ??
    (status === "pass" ? maxPoints : status === "warn" ? maxPoints / 2 : 0);
  return {
    signal: {
      id,
      title,
      status,
      points: round1(Math.min(maxPoints, Math.max(0, points))),
      maxPoints,
      detail,
      evidence: options.evidence ?? [],
      gate: status === "pass" ? null : options.gate ?? null,
    },
    fix: status === "pass" ? null : options.fix ?? null,
    impact: options.impact,
  };
}

/**
 * A signal that is reported but leaves the denominator: `info` (observed, not scored),
 * `na` (does not apply) or `unknown` (could not be observed).
 */
export function unscored(
  id: string,
  title: string,
  status: "info" | "na" | "unknown",
  detail: string,
  evidence: string[] = [],
): Check {
  return {
    signal: { id, title, status, points: 0, maxPoints: 0, detail, evidence, gate: null },
    fix: null,
  };
}

/** Rounds to one decimal place. */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Shortens a string for evidence and details. */
export function clip(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The structured-data nodes of every format (JSON-LD, microdata, RDFa). */
export function allNodes(ctx: ScanContext): JsonLdNode[] {
  return ctx.items ?? ctx.nodes;
}
