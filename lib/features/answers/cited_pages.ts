/**
 * The pages of a site each assistant cited in an account's latest finished answer-presence run,
 * with the crawlers the assistant's vendor fetches pages with (its search crawler and its
 * user-fetcher, from the provider's adapter): what the server-log report joins with the pages
 * those crawlers really fetched (lib/features/logs/figures.ts), handed over by the composition
 * root so that neither feature imports the other.
 */
import type { AnswersDeps } from "./context.ts";
import { providerOf } from "./providers.ts";
import { siteOf } from "./presence.ts";

/** One assistant's cited pages of the site, as paths, and its vendor's fetching crawlers. */
export interface CitedPages {
  /** The assistant as the report names it ("ChatGPT search (OpenAI)"). */
  assistant: string;
  crawlers: string[];
  /** Paths of the site's pages its answers cited (no query), each once. */
  paths: string[];
}

/** The most paths kept per assistant. */
const MAX_PATHS = 200;

/** The cited pages of `domain` in the account's latest finished run (none without one). */
export async function citedPagesOf(
  answers: AnswersDeps,
  accountId: string,
  domain: string,
): Promise<CitedPages[]> {
  const runs = await answers.answers.listRuns({ kind: "account", accountId }, domain, 5);
  const run = runs.find((r) => r.status === "done");
  if (!run) return [];
  const site = siteOf(domain);
  const byProvider = new Map<string, Set<string>>();
  for (const sample of await answers.answers.samples(run.id)) {
    if (!sample.ok) continue;
    const paths = byProvider.get(sample.provider) ?? new Set<string>();
    byProvider.set(sample.provider, paths);
    for (const source of sample.sources) {
      if (source.kind !== "cited" || !source.host || siteOf(source.host) !== site) continue;
      try {
        if (paths.size < MAX_PATHS) paths.add(new URL(source.url).pathname || "/");
      } catch { /* not a URL: counted for no page */ }
    }
  }
  return run.providers.filter((p) => byProvider.has(p.id)).map((p) => {
    const adapter = providerOf(p.id);
    return {
      assistant: p.label,
      crawlers: [...adapter.crawlers.search, ...adapter.crawlers.user],
      paths: [...byProvider.get(p.id)!].sort(),
    };
  });
}
