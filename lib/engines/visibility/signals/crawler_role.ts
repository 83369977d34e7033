/**
 * The robots.txt verdicts of one crawler role (search crawlers, or assistants fetching for users),
 * shared by `access.search_crawlers` and `access.user_fetchers`: which crawlers of the role
 * robots.txt blocks, the points left, and the fix computed on the site's real file.
 */
import { clip, type ScanContext } from "../check.ts";
import { crawlersByRole, mayIgnoreRobots } from "../crawlers.ts";
import { aiAccessFix } from "../robots_fixes.ts";
import type { Fix } from "../record.ts";
import type { Finding } from "../signal.ts";

/** The crawlers of the role that robots.txt blocks. */
export interface RoleData {
  blocked: string[];
}

/** The finding of a role's signal (`maxPoints`: the signal's points). */
export function roleFinding(
  ctx: ScanContext,
  role: "search" | "user",
  maxPoints: number,
): Finding<RoleData> {
  const r = ctx.robots;
  if (r.state === "unreachable") {
    return { status: "unknown", detail: "robots.txt could not be read." };
  }
  const tokens = crawlersByRole(role).map((c) => c.token);
  const access = r.crawlers.filter((c) => tokens.includes(c.token));
  const blocked = access.filter((c) => !c.allowed);
  const evidence = access.map((c) =>
    `${c.token}: ${c.allowed ? "allowed" : "blocked"}${
      c.line ? ` (line ${c.line}: ${clip(c.lineText ?? "", 60)})` : ""
    }`
  );
  const who = role === "search"
    ? "AI search and citation crawlers"
    : "assistants fetching for users";
  if (!blocked.length) {
    return {
      status: "pass",
      detail: `All ${access.length} ${who} may read the home page.`,
      evidence,
    };
  }
  // Every major crawler of the role blocked hides the site from it. Each blocked crawler removes
  // the site from one engine with certainty, so even a minor one costs more than an optional file
  // (llms.txt); a major one (more of the answers people get) weighs 3, a minor one 2.
  const major = new Set(crawlersByRole(role).filter((c) => c.major).map((c) => c.token));
  const all = access.filter((c) => major.has(c.token)).every((c) => !c.allowed);
  const weight = (c: { token: string }) => major.has(c.token) ? 3 : 2;
  const total = access.reduce((n, c) => n + weight(c), 0);
  // A fetcher whose vendor says it may not follow robots.txt may still fetch when blocked: its
  // block costs half (the edge probe, not robots.txt, is the real test for it).
  const open = access.reduce(
    (n, c) => n + (c.allowed ? weight(c) : mayIgnoreRobots(c.token) ? weight(c) / 2 : 0),
    0,
  );
  const names = blocked.map((c) => c.token).join(", ");
  return {
    status: all ? "fail" : "warn",
    detail: `${
      all
        ? `robots.txt blocks every major ${
          role === "search" ? "search and AI search crawler" : "user-triggered assistant"
        } we check (blocked: ${names}).`
        : `robots.txt blocks ${blocked.length} of ${access.length} ${who}: ${names}.`
    }${role === "user" ? ignoreNote(blocked.map((c) => c.token)) : ""}`,
    points: (maxPoints * open) / total,
    evidence,
    gated: all && role === "search",
    impact: role === "search" ? (all ? "critical" : "high") : undefined,
    data: { blocked: blocked.map((c) => c.token) },
  };
}

/**
 * The fix of a role's signal: the one robots.txt change for every AI search engine and assistant
 * it keeps out (robots_fixes.ts aiAccessFix, computed on the site's real file and checked for
 * every crawler we know), shared with the other signals of that cause.
 */
export function roleFix(ctx: ScanContext, role: "search" | "user", data: RoleData): Fix {
  const shared = aiAccessFix(ctx);
  if (shared) return shared;
  // (Not reached: a crawler blocked by robots.txt always has the shared fix.)
  return {
    what: `Allow ${data.blocked.join(", ")} in robots.txt`,
    why: role === "search"
      ? "These crawlers build the indexes that ChatGPT search, Perplexity, Claude, Google AI Overviews and Copilot cite. Blocked, your pages cannot be quoted or linked in their answers."
      : "These agents fetch your page when a person asks an assistant about it. Blocked, the assistant answers without your page.",
    how: `Let ${data.blocked.join(", ")} read the site in ${ctx.robots.url}.`,
    effort: "S",
  };
}

/** What the vendors of user-initiated fetchers say about robots.txt, for the blocked ones. */
function ignoreNote(tokens: string[]): string {
  const may = tokens.filter(mayIgnoreRobots);
  if (!may.length) return "";
  return ` Their vendors say user-initiated fetches may not follow robots.txt (${
    may.join(", ")
  }), so for them the block is a request; the edge probe shows what really gets through.`;
}
