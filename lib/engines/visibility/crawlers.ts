/**
 * The AI and search crawlers we check robots.txt and the edge against. The registry itself is data
 * (crawlers_registry.ts: token, vendor, purpose, what the vendor says about robots.txt, its
 * documentation and published addresses, and the day each entry was checked); this module derives
 * the role each crawler is judged in:
 * - `training`: collects data to train models. Blocking is a legitimate choice: reported, not scored.
 * - `search`: indexes pages that AI search / answer engines cite. Blocking hides the site.
 * - `user`: fetches a page because a person asked an assistant about it (agents acting for a user
 *   included). Several vendors say such user-initiated fetches may not follow robots.txt (see
 *   {@link Crawler.robotsTxt}): a robots.txt block of them is a request, and only the edge probe
 *   shows what really gets through.
 * - `ads`: checks ad landing pages; reported, never scored.
 *
 * A crawler counts (`counts`) when its vendor documents it on a page we read (`verified`) and the
 * vendor still uses the token (not `retired`); the others are shown, labelled, and never scored.
 */
import { type CrawlerEntry, type CrawlerPurpose, REGISTRY } from "./crawlers_registry.ts";
import type { CrawlerRendering } from "../render/view.ts";

export type { CrawlerEntry, CrawlerPurpose };

/** The role a crawler is judged in (an agent acting for a user is judged as a user fetcher). */
export type CrawlerRole = "training" | "search" | "user" | "ads";

/** A registry entry with the role it is judged in. */
export interface Crawler extends CrawlerEntry {
  role: CrawlerRole;
  /** Verified on its vendor's page and not retired: the crawlers roles are judged on. */
  counts: boolean;
}

/** The role a purpose is judged in. */
export function roleOf(purpose: CrawlerPurpose): CrawlerRole {
  return purpose === "agent" ? "user" : purpose;
}

/** Every crawler considered, in the order reports list them. */
export const CRAWLERS: readonly Crawler[] = REGISTRY.map((c) => ({
  ...c,
  role: roleOf(c.purpose),
  counts: c.verified !== false && !c.retired,
}));

/** The crawlers of one role that count (verified, not retired): what the role is judged on. */
export function crawlersByRole(role: CrawlerRole): Crawler[] {
  return CRAWLERS.filter((c) => c.role === role && c.counts);
}

/** The registry entry of a token (case-insensitive), or null. */
export function crawlerOf(token: string): Crawler | null {
  const t = token.toLowerCase();
  return CRAWLERS.find((c) => c.token.toLowerCase() === t) ?? null;
}

/** True when the crawler's vendor says it may not follow robots.txt (user-initiated fetches). */
export function mayIgnoreRobots(token: string): boolean {
  return CRAWLERS.find((c) => c.token === token)?.robotsTxt === "may_ignore";
}

/**
 * Which crawlers run JavaScript before they read a page (the AI's-eye view, lib/engines/render/), each
 * with its source and the day it was checked. "vendor": the vendor's own documentation says so;
 * "measured": its vendor is silent and a published measurement of its traffic found no script
 * execution. Crawlers absent here are documented neither way, and reports say so.
 */
export const CRAWLER_RENDERING: readonly CrawlerRendering[] = [
  {
    token: "Googlebot",
    renders: true,
    basis: "vendor",
    source:
      "https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics",
    checked: "2026-11-26",
  },
  {
    token: "Applebot",
    renders: true,
    basis: "vendor",
    source: "https://support.apple.com/en-us/119829",
    checked: "2026-11-26",
  },
  ...["GPTBot", "ClaudeBot", "PerplexityBot"].map((token) => ({
    token,
    renders: false,
    basis: "measured" as const,
    source: "https://vercel.com/blog/the-rise-of-the-ai-crawler",
    checked: "2026-11-26",
  })),
];
