/**
 * "Learn more": what each signal of the AI visibility report means (what, why, how we test it, the
 * vendors' own documentation) and what each gate is, all read from the signal registry
 * (lib/engines/visibility/signals/registry.ts) when asked, so a signal added there is explained on
 * /learn/<id>, in the CLI (lib/engines/visibility/format.ts) and in MCP
 * (lib/features/visibility/mcp.ts) with
 * nothing else to edit.
 */
import type { GateDef, LearnSource, SignalDef } from "./signal.ts";
import { PILLARS, RETIRED_GATES } from "./signals/registry.ts";

export type { LearnSource };

/** A gate as the report explains it, with the signals that can raise it. */
export interface GateText extends GateDef {
  /** The ids of the signals that can raise it, in registry order. */
  signals: string[];
}

/** The explanation of one signal. */
export interface LearnEntry {
  /** The signal id (`access.edge`). */
  id: string;
  /** The pillar the signal belongs to (`access`). */
  pillar: string;
  /** The signal's name as the report shows it. */
  title: string;
  /** What the signal is about, for someone who has never heard of it. */
  what: string;
  /** Why AI search engines and assistants care. */
  why: string;
  /** How this checker tests it. */
  how: string;
  /** The vendors' and standards' own documentation, with the day each was checked. */
  sources: LearnSource[];
  /** The gate this signal can raise, if any. */
  gate: GateText | null;
}

/** Every registered signal, in report order (pillar by pillar). */
export function registeredSignals(): SignalDef[] {
  return PILLARS.flatMap((p) => p.signals);
}

/** Every gate some registered signal can raise, lowest cap first, with its signals. */
export function gateTexts(): GateText[] {
  const byId = new Map<string, GateText>();
  for (const s of registeredSignals()) {
    if (!s.gate) continue;
    const seen = byId.get(s.gate.id);
    if (seen) seen.signals.push(s.id);
    else byId.set(s.gate.id, { ...s.gate, signals: [s.id] });
  }
  return [...byId.values()].sort((a, b) => a.cap - b.cap);
}

/**
 * What a gate is, in plain words: a gate some registered signal raises, or one older records carry
 * ({@link RETIRED_GATES}, raised by no signal now); null for an id we do not know.
 */
export function gateText(id: string): GateText | null {
  const retired = RETIRED_GATES.find((g) => g.id === id);
  return gateTexts().find((g) => g.id === id) ?? (retired ? { ...retired, signals: [] } : null);
}

/** The entry for signals a pillar could not compute (`<pillar>.not_evaluated`). */
const NOT_EVALUATED = {
  title: "A part of the report could not be evaluated",
  what:
    "A defect on our side stopped one pillar from being computed for this page. It is not a problem of the site.",
  why: "Nothing: it is left out of the score, so it neither raises nor lowers it.",
  how:
    "When a pillar's checks fail on some unexpected input, the report keeps the rest and marks the pillar as not evaluated. Scan again later, or report the page to us.",
};

/** The explanation of a signal id, or null for an id we do not know. */
export function learnEntry(id: string): LearnEntry | null {
  const def = registeredSignals().find((s) => s.id === id);
  if (def) {
    return {
      id,
      pillar: def.pillar,
      title: def.title,
      what: def.learn.what,
      why: def.learn.why,
      how: def.learn.how,
      sources: [...def.learn.sources],
      gate: def.gate ? gateText(def.gate.id) : null,
    };
  }
  const pillar = id.split(".")[0];
  if (id.endsWith(".not_evaluated") && PILLARS.some((p) => p.id === pillar)) {
    return { id, pillar, ...NOT_EVALUATED, sources: [], gate: null };
  }
  return null;
}

/** Every registered signal's explanation, in report order (pillar by pillar). */
export function learnEntries(): LearnEntry[] {
  return registeredSignals().map((s) => learnEntry(s.id)!);
}
