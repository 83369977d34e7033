/**
 * `access.search_crawlers`: the AI search and citation crawlers may read the home page, by the one
 * model of access (robots.txt, the page's noindex, the edge's answer; crawler_role.ts). Owns the
 * `search_crawlers_blocked` gate (every major search crawler turned away, by any path).
 */
import { crawlersByRole } from "../../crawlers.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { type RoleData, roleFinding, roleFix } from "../crawler_role.ts";

const MAJOR = crawlersByRole("search").filter((c) => c.major).map((c) => c.token);

/**
 * Every major search crawler is turned away, by any path: robots.txt, a noindex aimed at it, or the
 * site's CDN or firewall answering its User-Agent with an error, a challenge or a block page.
 */
export const SEARCH_BLOCKED_GATE: GateDef = {
  id: "search_crawlers_blocked",
  cap: 35,
  name: "every major AI search engine's crawler is turned away",
  why:
    "The crawlers AI search engines use to find pages to cite cannot read the site (the evidence says what turns each away), so it cannot appear in their answers.",
  when:
    "every **major** search crawler is turned away, whatever the path: robots.txt blocks it, the home page's robots meta tag or X-Robots-Tag says noindex to it, or the edge answers its User-Agent with 401/403/429/451/503, a challenge page or a block page while a browser gets the page (minor crawlers left open do not lift it)",
  lift: `at least one major search crawler (${
    MAJOR.join(", ")
  }) may read the home page; each one let through also adds points.`,
};

export const searchCrawlers: SignalDef<RoleData> = {
  id: "access.search_crawlers",
  pillar: "access",
  title: "AI search crawlers allowed",
  points: 20,
  scope: "page",
  gate: SEARCH_BLOCKED_GATE,
  learn: {
    what:
      "AI search engines (ChatGPT search, Perplexity, Claude, Google's AI answers, Bing/Copilot) send their own crawlers, such as OAI-SearchBot, PerplexityBot and Claude-SearchBot, to find pages to cite.",
    why:
      "A search crawler that robots.txt blocks, that a noindex names, or that the site's CDN refuses cannot put the site in that engine's answers. The vendors say so in their own documentation.",
    how:
      "For each search crawler's exact product token we combine three verdicts into one: robots.txt with RFC 9309 group matching (and the line that decides), the home page's robots meta tags and X-Robots-Tag header (noindex for all robots or for that crawler), and what the site's edge answered our probe with its User-Agent. A crawler turned away by any of them costs the same points; every major one turned away caps the score. A crawler its vendor does not document on a page we could read is shown and never counted.",
    sources: [
      SOURCES.openai,
      SOURCES.anthropic,
      SOURCES.perplexity,
      SOURCES.googleCrawlers,
      SOURCES.rfc9309,
    ],
  },
  check: (ctx) => roleFinding(ctx, "search", 20),
  fix: (ctx, found) => roleFix(ctx, "search", found.data!),
};
