/**
 * Beside each provider's result, the on-site facts that plausibly explain it, from the site's
 * latest stored scan: what every source says about that vendor's crawlers (crawler_access.ts:
 * robots.txt, the edge probe, and whatever source is added there), and the site-wide score caps
 * that fail. The sentences say "plausibly" and never "because": an assistant can leave a site out
 * for reasons no scan sees (its index, other sites' authority), and can cite a site whose crawler
 * is blocked today from what it read before.
 */
import { mayIgnoreRobots } from "../../engines/visibility/crawlers.ts";
import { crawlerVerdicts } from "./crawler_access.ts";
import type { ProviderAdapter } from "./provider.ts";
import type { Causes, CrawlerLine, Measures } from "./run_types.ts";

interface SignalLike {
  title?: string;
  detail?: string;
  status?: string;
  gate?: { id: string; cap: number } | null;
}

const ROLE_WORDS: Record<CrawlerLine["role"], string> = {
  search: "its search crawler",
  user: "its agent fetching pages for users",
  other: "a token it honours",
};

/** The causes beside `provider`'s result, read from a stored record's result (or null). */
export function causesFor(
  provider: ProviderAdapter,
  result: unknown,
  overall: Measures,
): Causes {
  const verdicts = crawlerVerdicts(result);
  const crawlers: CrawlerLine[] = (["search", "user", "other"] as const).flatMap((role) =>
    provider.crawlers[role].map((token) => ({
      token,
      role,
      verdicts: verdicts.get(token) ?? [],
      mayIgnoreRobots: mayIgnoreRobots(token),
    }))
  );
  const notes: string[] = [];
  const { cited, mentioned } = overall;
  if (cited.n === 0) {
    notes.push("No answer came back, so nothing is said here about the site's presence.");
    return { crawlers, notes };
  }
  const absent = cited.k === 0;
  if (!crawlers.some((c) => c.verdicts.length)) {
    notes.push(
      `No stored scan of the site says whether ${provider.label}'s crawlers may read it: scan ` +
        "the site to see the verdicts beside this result.",
    );
  }
  for (const c of crawlers) {
    const blockers = c.verdicts.filter((v) => v.access === "blocked").map((v) => v.label);
    if (!blockers.length) continue;
    const who = `${c.token} (${ROLE_WORDS[c.role]})`;
    const ignore = c.mayIgnoreRobots && blockers.every((b) => b === "robots.txt")
      ? " Its vendor says user-initiated fetches may not follow robots.txt, so the block may not hold."
      : "";
    notes.push(
      absent
        ? `${who} is blocked by ${blockers.join(" and ")}: a plausible reason ${provider.label} ` +
          `cited the site in none of ${cited.n} answers. It is not proof: the vendor also answers ` +
          `from other sources.${ignore}`
        : `${who} is blocked by ${
          blockers.join(" and ")
        }, yet ${provider.label} cited the site in ` +
          `${cited.k} of ${cited.n} answers: it may cite what it read before the block, or reach ` +
          `the site another way.${ignore}`,
    );
  }
  const seen = crawlers.filter((c) => c.verdicts.length);
  if (absent && seen.length && seen.every((c) => c.verdicts.every((v) => v.access === "allowed"))) {
    notes.push(
      `${provider.label}'s crawlers (${
        seen.map((c) => c.token).join(", ")
      }) may read the site by ` +
        `every source checked (${
          [...new Set(seen.flatMap((c) => c.verdicts.map((v) => v.label)))]
            .join(", ")
        }): access does not explain why it is not cited. The answers below show what ` +
        "it cites instead.",
    );
  }
  if (absent) {
    for (const s of failingGates(result)) {
      notes.push(
        `The site's score is capped at ${s.gate!.cap} by "${s.title}": ${s.detail} This may keep ` +
          "it out of every assistant's answers.",
      );
    }
  }
  if (absent && mentioned.k > 0) {
    notes.push(
      `${provider.label} named the site in ${mentioned.k} of ${mentioned.n} answers without ` +
        "citing it: it knows the site but linked other pages.",
    );
  }
  return { crawlers, notes };
}

/** The record's failing signals that cap the score. */
function failingGates(result: unknown): SignalLike[] {
  const pillars = (result as { pillars?: { signals?: SignalLike[] }[] } | null)?.pillars;
  if (!Array.isArray(pillars)) return [];
  return pillars.flatMap((p) => p.signals ?? []).filter((s) => s.gate && s.status === "fail")
    .slice(0, 3);
}
