/** `access.user_fetchers`: robots.txt lets assistants fetch the home page for their users. */
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
    how: "We evaluate robots.txt for each user-fetch agent's product token, as RFC 9309 says.",
    sources: [SOURCES.openai, SOURCES.anthropic, SOURCES.perplexity, SOURCES.rfc9309],
  },
  check: (ctx) => roleFinding(ctx, "user", 4),
  fix: (ctx, found) => roleFix(ctx, "user", found.data!),
};
