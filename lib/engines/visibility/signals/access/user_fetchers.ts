/**
 * `access.user_fetchers`: assistants may fetch the home page for their users, by the one model of
 * access (robots.txt and the edge's answer to their User-Agent; crawler_role.ts).
 */
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { type RoleData, roleFinding, roleFix } from "../crawler_role.ts";

export const userFetchers: SignalDef<RoleData> = {
  id: "access.user_fetchers",
  pillar: "access",
  title: "Assistants fetching for users allowed",
  points: 4,
  scope: "page",
  learn: {
    what:
      "When someone asks ChatGPT, Claude or Perplexity about a page, the assistant fetches it live with a user agent such as ChatGPT-User, Claude-User or Perplexity-User.",
    why:
      "Blocking them stops assistants from reading the page a person asked about, so they answer without it.",
    how:
      "For each user-fetch agent's product token we combine robots.txt (as RFC 9309 says) and what the site's edge answered our probe with its User-Agent: refused by either costs the same points. A robots.txt block of a fetcher whose vendor says it may not follow robots.txt costs half.",
    sources: [SOURCES.openai, SOURCES.anthropic, SOURCES.perplexity, SOURCES.rfc9309],
  },
  check: (ctx) => roleFinding(ctx, "user", 4),
  fix: (ctx, found) => roleFix(ctx, "user", found.data!),
};
