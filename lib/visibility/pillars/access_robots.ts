/**
 * The robots.txt checks of the "AI crawler access" pillar (lib/visibility/pillars/access.ts): the
 * file itself, the wildcard group, and each crawler role (search, user fetchers, training).
 */
import { type Check, clip, type ScanContext, scored, unscored } from "../check.ts";
import { crawlersByRole, mayIgnoreRobots } from "../crawlers.ts";
import { blanketDisallowFix, crawlerAccessHow, starterRobotsTxt } from "../fixes.ts";

import { GATES } from "./access_gates.ts";

export function robotsFile(ctx: ScanContext): Check {
  const r = ctx.robots;
  const title = "robots.txt is readable";
  switch (r.state) {
    case "ok":
      return scored(
        "access.robots_txt",
        title,
        2,
        r.unknownLines > 3 ? "warn" : "pass",
        r.unknownLines > 3
          ? `robots.txt has ${r.unknownLines} lines that are not robots.txt directives; crawlers ignore them.`
          : `robots.txt answered ${r.httpStatus} with ${r.lineCount} lines.`,
        {
          evidence: [r.url],
          fix: {
            what: "Clean up robots.txt",
            why:
              "Lines crawlers cannot parse are silently ignored, so rules you think apply may not.",
            how:
              "Keep only User-agent, Allow, Disallow and Sitemap lines (and # comments) in robots.txt.",
            effort: "S",
          },
        },
      );
    case "missing":
      return scored(
        "access.robots_txt",
        title,
        2,
        "warn",
        `robots.txt answered ${r.httpStatus}: crawlers may read everything, but nothing points them to your sitemap.`,
        {
          evidence: [r.url],
          fix: {
            what: "Publish a robots.txt",
            why:
              "Without one, crawlers get no sitemap pointer and you cannot express any preference.",
            how: `Create ${r.url}, served as text/plain with status 200:\n\n${
              starterRobotsTxt(ctx)
            }`,
            effort: "S",
          },
        },
      );
    case "server_error":
      return scored(
        "access.robots_txt",
        title,
        2,
        "fail",
        `robots.txt answered ${r.httpStatus}. Under RFC 9309 a server error means "assume complete disallow": compliant crawlers will not crawl the site at all.`,
        {
          evidence: [r.url],
          gate: GATES.blanketDisallow,
          fix: {
            what: "Make robots.txt answer 200 (or 404)",
            why:
              "A 5xx on robots.txt tells every compliant crawler to stay away from the whole site.",
            how: `Serve ${r.url} as a static text file with status 200, for example:\n\n${
              starterRobotsTxt(ctx)
            }\n\nIf you have no rules, a plain 404 is also safe; a 5xx never is.`,
            effort: "S",
          },
        },
      );
    case "invalid":
      return scored(
        "access.robots_txt",
        title,
        2,
        "warn",
        `robots.txt answered ${r.httpStatus} with an HTML page instead of robots.txt rules (a soft 404); crawlers find no rules and no sitemap in it.`,
        {
          evidence: [r.url],
          fix: {
            what: "Serve a real robots.txt",
            why:
              "An HTML page at /robots.txt holds no rules and no Sitemap line; some crawlers treat it as an error.",
            how: `Serve ${r.url} as text/plain with status 200, for example:\n\n${
              starterRobotsTxt(ctx)
            }`,
            effort: "S",
          },
        },
      );
    case "unreachable":
      return unscored(
        "access.robots_txt",
        title,
        "unknown",
        "robots.txt could not be fetched (network error or time-out), so crawler access could not be checked.",
        [r.url],
      );
  }
}

export function wildcard(ctx: ScanContext): Check {
  const r = ctx.robots;
  const title = "No blanket Disallow for all crawlers";
  if (r.state === "unreachable") {
    return unscored("access.blanket_disallow", title, "unknown", "robots.txt could not be read.");
  }
  if (r.state !== "ok") {
    return r.state === "server_error"
      ? unscored(
        "access.blanket_disallow",
        title,
        "info",
        "robots.txt answered a server error; see the robots.txt signal.",
      )
      : scored("access.blanket_disallow", title, 3, "pass", "No robots.txt rules apply.");
  }
  if (!r.wildcardBlocksHome) {
    return scored(
      "access.blanket_disallow",
      title,
      3,
      "pass",
      "The User-agent: * group does not block the home page.",
    );
  }
  const starLines = r.crawlers.filter((c) => c.group === "wildcard" && !c.allowed);
  // The gate follows the per-crawler verdicts: an allowlist that admits search crawlers by name
  // is not a blanket block.
  const search = r.crawlers.filter((c) => c.role === "search");
  const admitted = search.filter((c) => c.allowed);
  if (admitted.length) {
    const left = search.filter((c) => !c.allowed);
    return scored(
      "access.blanket_disallow",
      title,
      3,
      "warn",
      `robots.txt is an allowlist: the User-agent: * group blocks the home page, and ${admitted.length} of ${search.length} search crawlers we check are admitted by name (${
        admitted.map((c) => c.token).join(", ")
      }). Crawlers without a group of their own${
        left.length ? `, such as ${left.map((c) => c.token).join(", ")},` : ""
      } cannot read the site, including new AI search engines until you name them.`,
      {
        evidence: [
          ...starLines.slice(0, 1).map((c) => `line ${c.line}: ${c.lineText}`),
          ...admitted.map((c) => `${c.token}: allowed${c.line ? ` (line ${c.line})` : ""}`),
        ],
        // The remedy (groups for the search crawlers left out) is the search-crawler signal's.
        fix: null,
      },
    );
  }
  return scored(
    "access.blanket_disallow",
    title,
    3,
    "fail",
    "robots.txt blocks every crawler without its own group (User-agent: * with Disallow: /) and admits none of the search or AI search crawlers we check by name: search engines and AI assistants cannot read the site.",
    {
      gate: GATES.blanketDisallow,
      evidence: starLines.slice(0, 1).map((c) => `line ${c.line}: ${c.lineText}`),
      fix: blanketDisallowFix(ctx),
    },
  );
}

function roleCheck(
  ctx: ScanContext,
  role: "search" | "user",
  id: string,
  title: string,
  maxPoints: number,
): Check {
  const r = ctx.robots;
  if (r.state === "unreachable") {
    return unscored(id, title, "unknown", "robots.txt could not be read.");
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
    return scored(
      id,
      title,
      maxPoints,
      "pass",
      `All ${access.length} ${who} may read the home page.`,
      {
        evidence,
      },
    );
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
  // The change is computed on the site's real file and checked for every crawler we know
  // (robots_fix.ts): the crawlers' own groups are corrected whole, a group is added for the rest.
  const fixHow = r.state === "server_error"
    ? "Make robots.txt answer 200; see the robots.txt fix."
    : crawlerAccessHow(ctx, blocked.map((c) => c.token));
  return scored(
    id,
    title,
    maxPoints,
    all ? "fail" : "warn",
    `${
      all
        ? `robots.txt blocks every major ${
          role === "search" ? "search and AI search crawler" : "user-triggered assistant"
        } we check (blocked: ${names}).`
        : `robots.txt blocks ${blocked.length} of ${access.length} ${who}: ${names}.`
    }${role === "user" ? ignoreNote(blocked.map((c) => c.token)) : ""}`,
    {
      points: (maxPoints * open) / total,
      evidence,
      gate: all && role === "search" ? GATES.searchBlocked : null,
      impact: role === "search" ? (all ? "critical" : "high") : undefined,
      fix: {
        what: `Allow ${names} in robots.txt`,
        why: role === "search"
          ? "These crawlers build the indexes that ChatGPT search, Perplexity, Claude, Google AI Overviews and Copilot cite. Blocked, your pages cannot be quoted or linked in their answers."
          : "These agents fetch your page when a person asks an assistant about it. Blocked, the assistant answers without your page.",
        how: fixHow,
        effort: "S",
      },
    },
  );
}

/** What the vendors of user-initiated fetchers say about robots.txt, for the blocked ones. */
function ignoreNote(tokens: string[]): string {
  const may = tokens.filter(mayIgnoreRobots);
  if (!may.length) return "";
  return ` Their vendors say user-initiated fetches may not follow robots.txt (${
    may.join(", ")
  }), so for them the block is a request; the edge probe shows what really gets through.`;
}

export function searchCrawlers(ctx: ScanContext): Check {
  return roleCheck(ctx, "search", "access.search_crawlers", "AI search crawlers allowed", 20);
}

export function userFetchers(ctx: ScanContext): Check {
  return roleCheck(ctx, "user", "access.user_fetchers", "Assistants fetching for users allowed", 4);
}

export function trainingCrawlers(ctx: ScanContext): Check {
  const r = ctx.robots;
  const title = "Training crawlers (your choice)";
  if (r.state === "unreachable") {
    return unscored("access.training_crawlers", title, "unknown", "robots.txt could not be read.");
  }
  const training = r.crawlers.filter((c) => c.role === "training");
  const blocked = training.filter((c) => !c.allowed);
  return unscored(
    "access.training_crawlers",
    title,
    "info",
    blocked.length
      ? `robots.txt blocks ${blocked.length} of ${training.length} model-training crawlers (${
        blocked.map((c) => c.token).join(", ")
      }). That is a legitimate choice and does not lower the score; it does not hide you from AI search${
        blocked.some((c) => c.token === "Google-Extended")
          ? " (Google-Extended also keeps pages out of grounding in Gemini Apps and Vertex AI, but not out of Google Search or AI Overviews)"
          : ""
      }.`
      : `All ${training.length} model-training crawlers may read the site. Blocking them is a legitimate choice and would not lower the score.`,
    training.map((c) => `${c.token}: ${c.allowed ? "allowed" : "blocked"}`),
  );
}
