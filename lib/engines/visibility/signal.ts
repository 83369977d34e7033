/**
 * What a visibility signal is: one module exporting one {@link SignalDef} (its id, pillar, title,
 * points, the gate it can raise, its "learn more" text with the vendors' sources, `check` and
 * `fix`), listed once in the registry (lib/engines/visibility/signals/registry.ts). Scoring, the gates,
 * /learn, the CLI and MCP texts and the scoring documentation all read the registry; nothing else
 * restates which signal exists or which gate it owns. Modelled on Lighthouse's one audit per file
 * (core/audits/seo/canonical.js) and its config list.
 */
import type { Check, Impact, ScanContext } from "./check.ts";
import type { CrawlerRow, Fix, Signal, SignalStatus } from "./record.ts";
import type { AuditPage } from "./audit/types.ts";
import type { LearnSource } from "./sources.ts";

export type { LearnSource };

/** What the /learn page, the CLI and MCP say about a signal. */
export interface LearnText {
  /** What the check is about, for someone who has never heard of it. */
  what: string;
  /** Why AI search engines and assistants care. */
  why: string;
  /** How this checker tests it. */
  how: string;
  /** The vendors' and standards' own documentation. */
  sources: readonly LearnSource[];
}

/**
 * A score cap a failing signal can raise. It lives in the module of the signal that owns it; a
 * second signal that can raise the same cap imports it from there.
 */
export interface GateDef {
  /** Stable id, in the record's `gate.id` (`edge_blocks_ai`). */
  id: string;
  /** The highest overall score while the gate stands. */
  cap: number;
  /** Completes "the score is capped because ...": what is wrong, in plain words. */
  name: string;
  /** Why it caps the whole score. */
  why: string;
  /** The exact condition, for the scoring documentation. */
  when: string;
  /** What would lift it: the report says this next to the cap. */
  lift: string;
}

/** What a signal's check observed on one scan. */
export interface Finding<D = unknown> {
  status: SignalStatus;
  /** What was observed, in one or two sentences. */
  detail: string;
  /** Raw observations backing the detail; a gate's are the evidence that raised it. */
  evidence?: string[];
  /** Points earned; by default all for pass, half for warn, none for fail. */
  points?: number;
  /** Raise the signal's gate (only a warn or fail can). */
  gated?: boolean;
  /** Overrides the impact computed from the recoverable points (a certain consequence). */
  impact?: Impact;
  /** What the fix needs from the check (blocked crawlers, the pages concerned...). */
  data?: D;
  /**
   * The points the signal earns once its fix is applied, when not all of them: a blanket
   * `Disallow: /` that the fix turns into an allowlist stays a warning (half), a page the fix
   * leaves closed still counts. The fix's worth (lib/engines/visibility/score.ts worthOf) counts them.
   */
  fixedPoints?: number;
  /**
   * What fixes of other causes are worth to this signal: a signal whose points several causes take
   * (an AI search crawler refused by robots.txt, another at the edge) credits each cause's fix with
   * the points it would earn once that fix alone is applied, and whether that fix lifts its gate.
   * The issue of that cause (`cause` = its `fix.cause.key`) counts them in its worth and lists this
   * signal among the checks it resolves.
   */
  credits?: Credit[];
  /** Only `discovery.site_sample`: the sampled-pages table (see record.ts). */
  pages?: AuditPage[];
  /** Only `access.edge`: the crawler matrix (see record.ts). */
  crawlers?: CrawlerRow[];
}

/** What the fix of another cause is worth to a signal (see {@link Finding.credits}). */
export interface Credit {
  /** The cause key of the fix (`edge:ai-crawlers`). */
  cause: string;
  /** The points the signal earns once that fix alone is applied. */
  points: number;
  /** Whether that fix alone lifts the signal's gate (when it raises one). */
  liftsGate: boolean;
}

/** One visibility signal: everything about it, in one object. */
export interface SignalDef<D = unknown> {
  /** `<pillar>.<name>`: the `id` of the signal in the record, and its file's name. */
  id: string;
  /** The pillar it belongs to (the registry lists it there). */
  pillar: string;
  /** What is checked, as the report shows it. */
  title: string;
  /** Points at stake within the pillar when the signal is scored. */
  points: number;
  /** `page`: the home page's snapshot; `site`: the site audit's sample. */
  scope: "page" | "site";
  /** The score cap it can raise, if any. */
  gate?: GateDef;
  learn: LearnText;
  /** What the scan shows; null when the signal does not apply to this scan (it is left out). */
  check(ctx: ScanContext): Finding<D> | null;
  /** What to do about a warn or fail; null when there is nothing to offer. */
  fix(ctx: ScanContext, finding: Finding<D>): Fix | null;
}

const SCORED = new Set<SignalStatus>(["pass", "warn", "fail"]);

/** Rounds to one decimal place. */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * A signal's check turned into the report's form: points from the status, the gate when the
 * finding raises it, and the fix for a warn or fail. Null when the signal does not apply.
 */
export function evaluate(def: SignalDef, ctx: ScanContext): Check | null {
  const found = def.check(ctx);
  return found ? toCheck(def, ctx, found) : null;
}

/** {@link evaluate} for a finding in hand. */
export function toCheck(def: SignalDef, ctx: ScanContext, found: Finding): Check {
  const scored = SCORED.has(found.status);
  const max = scored ? def.points : 0;
  const points = !scored
    ? 0
    : found.points ?? (found.status === "pass" ? max : found.status === "warn" ? max / 2 : 0);
  const signal: Signal = {
    id: def.id,
    title: def.title,
    status: found.status,
    points: round1(Math.min(max, Math.max(0, points))),
    maxPoints: max,
    detail: found.detail,
    evidence: found.evidence ?? [],
    gate: scored && found.status !== "pass" && found.gated && def.gate
      ? { id: def.gate.id, cap: def.gate.cap }
      : null,
  };
  if (found.pages) signal.pages = found.pages;
  if (found.crawlers) signal.crawlers = found.crawlers;
  const fix = scored && found.status !== "pass" ? def.fix(ctx, found) : null;
  return {
    signal,
    fix,
    impact: found.impact,
    ...(fix && found.fixedPoints !== undefined ? { fixedPoints: found.fixedPoints } : {}),
    ...(scored && found.status !== "pass" && found.credits?.length
      ? { credits: found.credits }
      : {}),
  };
}

/** A fix-less signal's `fix`. */
export function noFix(): null {
  return null;
}
