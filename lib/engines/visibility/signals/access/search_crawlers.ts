/**
 * `access.search_crawlers`: robots.txt lets the AI search and citation crawlers read the home
 * page. Owns the `search_crawlers_blocked` gate (every major search crawler blocked).
 */
import { crawlersByRole } from "../../crawlers.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { type RoleData, roleFinding, roleFix } from "../crawler_role.ts";

const MAJOR = crawlersByRole("search").filter((c) => c.major).map((c) => c.token);

/** Every major search crawler is kept out by robots.txt. */
export const SEARCH_BLOCKED_GATE: GateDef = {
  id: "search_crawlers_blocked",
  cap: 35,
  name: "robots.txt blocks the crawlers of AI search engines",
  why:
    "The crawlers that AI search engines use to find pages to cite are told to stay away, so the site cannot appear in their answers.",
  when: "robots.txt blocks every **major** search crawler (minor ones left open do not lift it)",
  lift: `robots.txt lets at least one of the major search crawlers (${
    MAJOR.join(", ")
  }) read the home page; each one allowed also adds points.`,
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
      "A search crawler that robots.txt blocks cannot put the site in that engine's answers. The vendors say so in their own documentation.",
    how:
      "We evaluate robots.txt for each search crawler's exact product token, with RFC 9309 group matching, and list which line decides. All of them blocked caps the score.",
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
