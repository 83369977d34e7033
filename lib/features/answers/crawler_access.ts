/**
 * The one function answer presence reads crawler access through: every verdict a stored scan
 * record holds about a crawler, by source. The sources are the watch's list
 * (`CRAWLER_ACCESS_SOURCES`, lib/engines/history/regressions.ts: robots.txt for search and user-fetch
 * crawlers, the edge probe), so a source added there (AI usage preferences, a per-crawler edge
 * answer) reaches this report without a change here; plus robots.txt's verdicts on the tokens
 * of the other roles (Google-Extended), read from the training-crawler signal's evidence in the
 * same "<token>: allowed|blocked" form.
 */
import { CRAWLER_ACCESS_SOURCES, type CrawlerAccess } from "../../engines/history/regressions.ts";

/** One source's verdict on one crawler. */
export interface CrawlerVerdict {
  /** "robots", "edge", ... (the source's id). */
  source: string;
  /** How a sentence names it: "robots.txt", "the CDN or firewall". */
  label: string;
  access: CrawlerAccess;
}

type AnyResult = Parameters<(typeof CRAWLER_ACCESS_SOURCES)[number]["read"]>[0];

/** Signals whose evidence lists robots.txt verdicts of tokens the watch's sources do not read. */
const OTHER_ROBOTS_SIGNALS = ["access.training_crawlers"];

/**
 * Every verdict of a visibility record's result, by crawler token (as the record names it). Empty
 * when the result is not a visibility result (a failed scan, the schema service).
 */
export function crawlerVerdicts(result: unknown): Map<string, CrawlerVerdict[]> {
  const out = new Map<string, CrawlerVerdict[]>();
  const r = result as Partial<AnyResult> | null;
  if (!r || !Array.isArray(r.pillars)) return out;
  const add = (token: string, v: CrawlerVerdict) => {
    const list = out.get(token) ?? [];
    if (!list.some((x) => x.source === v.source)) list.push(v);
    out.set(token, list);
  };
  for (const source of CRAWLER_ACCESS_SOURCES) {
    const read = source.read(r as AnyResult);
    for (const [token, access] of read ?? []) {
      add(token, { source: source.id, label: source.label, access });
    }
  }
  for (const pillar of r.pillars) {
    for (const s of pillar.signals ?? []) {
      if (!OTHER_ROBOTS_SIGNALS.includes(s.id) || s.status === "unknown") continue;
      for (const line of s.evidence ?? []) {
        const m = line.match(/^([A-Za-z0-9._-]+): (allowed|blocked)\b/);
        if (m) add(m[1], { source: "robots", label: "robots.txt", access: m[2] as CrawlerAccess });
      }
    }
  }
  return out;
}
