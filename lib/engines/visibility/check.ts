/**
 * What every signal reads ({@link ScanContext}) and what scoring ranks ({@link Check}: a signal of
 * the report plus what to do about it). Signals themselves are lib/engines/visibility/signal.ts's
 * SignalDef, one module each under lib/engines/visibility/signals/.
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
  /** The points the signal earns once its fix is applied, when not all (see Finding). */
  fixedPoints?: number;
  /** What other causes' fixes are worth to the signal (see Finding.credits). */
  credits?: { cause: string; points: number; liftsGate: boolean }[];
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
  /** The site audit's sample (lib/engines/visibility/audit/); absent: the home page alone is scored. */
  audit?: AuditResult;
  /** The rendered view (lib/engines/render/), when the scan asked for it; absent: not rendered. */
  render?: RenderView;
}

/** Shortens a string for evidence and details. */
export function clip(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The structured-data nodes of every format (JSON-LD, microdata, RDFa). */
export function allNodes(ctx: ScanContext): JsonLdNode[] {
  return ctx.items ?? ctx.nodes;
}
