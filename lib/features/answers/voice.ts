/**
 * Share of voice: for the site and each competitor its owner lists, over a provider's answers, how
 * many answers name it, cite it and put it first (named first among the tracked sites, or cited
 * first when none is named), each as k of N answers with its Wilson 95% interval, and its share of
 * all the tracked sites' mentions and citations. N is the answers received (a failed call is never
 * an absence), the same N as the site's own rates.
 */
import type { Presence } from "./presence.ts";
import { type Rate, wilson } from "./wilson.ts";

/** One tracked site's share of voice. */
export interface VoiceLine {
  domain: string;
  /** True for the site itself. */
  site: boolean;
  mentioned: Rate;
  cited: Rate;
  first: Rate;
  /** Its mentions over every tracked site's mentions (0..1), null when none was named. */
  mentionShare: number | null;
  /** Its citations over every tracked site's citations (0..1), null when none was cited. */
  citationShare: number | null;
}

/** The share of voice of the site (first) and each competitor over `presences`. */
export function voiceOf(presences: Presence[]): VoiceLine[] {
  const n = presences.length;
  const domains = presences[0]?.voice.map((v) => v.domain) ?? [];
  const count = (i: number, key: "mentioned" | "cited" | "first") =>
    presences.filter((p) => p.voice[i]?.[key]).length;
  const mentions = domains.map((_, i) => count(i, "mentioned"));
  const citations = domains.map((_, i) => count(i, "cited"));
  const all = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const share = (k: number, total: number) => total ? Math.round((k / total) * 1000) / 1000 : null;
  return domains.map((domain, i) => ({
    domain,
    site: i === 0,
    mentioned: wilson(mentions[i], n),
    cited: wilson(citations[i], n),
    first: wilson(count(i, "first"), n),
    mentionShare: share(mentions[i], all(mentions)),
    citationShare: share(citations[i], all(citations)),
  }));
}
