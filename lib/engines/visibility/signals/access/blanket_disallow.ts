/**
 * `access.blanket_disallow`: robots.txt's `User-agent: *` group does not close the home page to
 * every crawler without a group of its own. Owns the `blanket_disallow` gate (robots_txt.ts
 * raises it too, for a robots.txt that answers 5xx).
 */
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { aiAccessFix } from "../../robots_fixes.ts";

/** Every crawler is told to stay out of the whole site. */
export const BLANKET_DISALLOW_GATE: GateDef = {
  id: "blanket_disallow",
  cap: 20,
  name: "robots.txt tells every crawler to stay out of the whole site",
  why:
    'A "Disallow: /" for all crawlers asks ChatGPT, Perplexity, Claude and Google alike not to read any page, so none of them can quote it.',
  when:
    "robots.txt answers 5xx, or `User-agent: *` blocks the home page **and no search crawler we check is admitted** (by its own group, or Applebot by Googlebot's)",
  lift:
    "robots.txt answers 200 (or 404) and lets AI search crawlers read the home page: a group of their own with Allow: / is enough, the User-agent: * group can stay as it is.",
};

/** Whether the finding is an allowlist (its remedy is the search-crawler signal's). */
interface Data {
  allowlist: boolean;
}

/** The signal's points; an allowlist (a warning) earns half. */
const POINTS = 3;

export const blanketDisallow: SignalDef<Data> = {
  id: "access.blanket_disallow",
  pillar: "access",
  title: "No blanket Disallow for all crawlers",
  points: POINTS,
  scope: "page",
  gate: BLANKET_DISALLOW_GATE,
  learn: {
    what:
      "A `User-agent: *` group with `Disallow: /` asks every crawler that has no group of its own to stay out of the whole site.",
    why:
      "It shuts out AI search crawlers along with everything else, which is rarely what the site owner meant.",
    how:
      "We match the rules the way RFC 9309 says (the most specific group wins, longest matching rule wins) and check whether the home page is disallowed for crawlers without their own group. It caps the score.",
    sources: [SOURCES.rfc9309, SOURCES.googleRobots],
  },
  check(ctx) {
    const r = ctx.robots;
    if (r.state === "unreachable") {
      return { status: "unknown", detail: "robots.txt could not be read." };
    }
    if (r.state !== "ok") {
      return r.state === "server_error"
        ? {
          status: "info",
          detail: "robots.txt answered a server error; see the robots.txt signal.",
        }
        : { status: "pass", detail: "No robots.txt rules apply." };
    }
    if (!r.wildcardBlocksHome) {
      return { status: "pass", detail: "The User-agent: * group does not block the home page." };
    }
    const starLines = r.crawlers.filter((c) => c.group === "wildcard" && !c.allowed);
    // The gate follows the per-crawler verdicts: an allowlist that admits search crawlers by name
    // is not a blanket block.
    const search = r.crawlers.filter((c) => c.role === "search");
    const admitted = search.filter((c) => c.allowed);
    if (admitted.length) {
      const left = search.filter((c) => !c.allowed);
      return {
        status: "warn",
        detail:
          `robots.txt is an allowlist: the User-agent: * group blocks the home page, and ${admitted.length} of ${search.length} search crawlers we check are admitted by name (${
            admitted.map((c) => c.token).join(", ")
          }). Crawlers without a group of their own${
            left.length ? `, such as ${left.map((c) => c.token).join(", ")},` : ""
          } cannot read the site, including new AI search engines until you name them.`,
        evidence: [
          ...starLines.slice(0, 1).map((c) => `line ${c.line}: ${c.lineText}`),
          ...admitted.map((c) => `${c.token}: allowed${c.line ? ` (line ${c.line})` : ""}`),
        ],
        data: { allowlist: true },
      };
    }
    return {
      status: "fail",
      detail:
        "robots.txt blocks every crawler without its own group (User-agent: * with Disallow: /) and admits none of the search or AI search crawlers we check by name: search engines and AI assistants cannot read the site.",
      gated: true,
      evidence: starLines.slice(0, 1).map((c) => `line ${c.line}: ${c.lineText}`),
      data: { allowlist: false },
      // The fix admits the AI crawlers by name: an allowlist, a warning (half the points).
      fixedPoints: POINTS / 2,
    };
  },
  // The same change as the search crawlers' and assistants' (one cause: their groups), which makes
  // the file an allowlist (a warning); an allowlist's remedy is the search crawlers' alone.
  fix: (ctx, found) => found.data?.allowlist ? null : aiAccessFix(ctx),
};
