/**
 * Pillar "AI crawler access": may AI search engines, assistants and crawlers read the site?
 * robots.txt per crawler role, indexing directives, and an edge (CDN/WAF) that blocks bots.
 */
import { type Check, clip, type PillarDef, type ScanContext, scored, unscored } from "../check.ts";
import { CRAWLERS, crawlersByRole, mayIgnoreRobots } from "../crawlers.ts";
import {
  describeDirective,
  forbidsIndexing,
  forbidsSnippets,
  readDirectives,
  searchAgents,
  whoIsForbidden,
} from "../directives.ts";
import { blanketDisallowFix, crawlerAccessHow, starterRobotsTxt } from "../fixes.ts";
import { codeBlock, howText } from "../fix_text.ts";
import type { FetchOutcome } from "../snapshot_types.ts";

/** Score caps of this pillar's gates. */
export const GATES = {
  blanketDisallow: { id: "blanket_disallow", cap: 20 },
  searchBlocked: { id: "search_crawlers_blocked", cap: 35 },
  noindex: { id: "noindex", cap: 25 },
  edgeBlocking: { id: "edge_blocks_ai", cap: 35 },
} as const;

export const accessPillar: PillarDef = {
  id: "access",
  title: "AI crawler access",
  weight: 29,
  checks: (ctx) => [
    robotsFile(ctx),
    wildcard(ctx),
    searchCrawlers(ctx),
    userFetchers(ctx),
    trainingCrawlers(ctx),
    indexing(ctx),
    edge(ctx),
  ],
};

function robotsFile(ctx: ScanContext): Check {
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

function wildcard(ctx: ScanContext): Check {
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

function searchCrawlers(ctx: ScanContext): Check {
  return roleCheck(ctx, "search", "access.search_crawlers", "AI search crawlers allowed", 20);
}

function userFetchers(ctx: ScanContext): Check {
  return roleCheck(ctx, "user", "access.user_fetchers", "Assistants fetching for users allowed", 4);
}

function trainingCrawlers(ctx: ScanContext): Check {
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

function indexing(ctx: ScanContext): Check {
  const title = "Page may be indexed and quoted";
  const home = ctx.snapshot.home;
  const header = home.ok ? home.result.headers["x-robots-tag"] ?? "" : "";
  const directives = readDirectives(ctx.facts.metaRobots, header);
  const sources = [
    ...(header ? [`X-Robots-Tag header: ${header}`] : []),
    ...Object.entries(ctx.facts.metaRobots).map(([n, c]) => `<meta name="${n}">: ${c}`),
  ];
  const agents = searchAgents();
  const noindex = whoIsForbidden(directives, forbidsIndexing);
  const nosnippet = whoIsForbidden(directives, forbidsSnippets);
  const names = (m: Map<string, unknown>) =>
    CRAWLERS.filter((c) => m.has(c.token.toLowerCase())).map((c) => c.token);
  const everyAgent = (m: Map<string, unknown>) => agents.every((a) => m.has(a));
  const noindexFix = (what: string) => ({
    what,
    why:
      "noindex removes the page from the indexes AI search engines retrieve from, whatever robots.txt says.",
    how: howText(
      `Remove ${
        [...new Set([...noindex.all, ...noindex.agents.values()].flat().map((d) => d.source))].join(
          " and ",
        )
      } noindex (for the header: stop sending X-Robots-Tag: noindex), or let the page be indexed explicitly:`,
      codeBlock('<meta name="robots" content="index, follow">', "html"),
      'Check your CMS\'s "discourage search engines" setting, which often adds noindex.',
    ),
    effort: "S" as const,
  });
  if (noindex.all.length || (noindex.agents.size && everyAgent(noindex.agents))) {
    return scored(
      "access.indexing",
      title,
      5,
      "fail",
      "The home page tells crawlers not to index it (noindex): search engines and AI search will drop it.",
      {
        evidence: [...noindex.all, ...[...noindex.agents.values()].flat()].map(describeDirective),
        gate: GATES.noindex,
        fix: noindexFix("Remove noindex from the home page"),
      },
    );
  }
  const other = [...noindex.other, ...nosnippet.other].map(describeDirective);
  if (noindex.agents.size) {
    const who = names(noindex.agents);
    return scored(
      "access.indexing",
      title,
      5,
      "warn",
      `The home page tells ${who.join(", ")} not to index it (noindex for ${
        who.length === 1 ? "that crawler" : "those crawlers"
      } only): the search and AI answers they feed will drop it; the other AI search crawlers may index it.`,
      {
        points: 5 * (1 - noindex.agents.size / agents.length),
        evidence: [...[...noindex.agents.values()].flat().map(describeDirective), ...other],
        impact: "high",
        fix: noindexFix(`Remove noindex for ${who.join(", ")}`),
      },
    );
  }
  const snippetAll = nosnippet.all.length > 0 || everyAgent(nosnippet.agents);
  if (snippetAll || nosnippet.agents.size) {
    const who = names(nosnippet.agents);
    return scored(
      "access.indexing",
      title,
      5,
      "warn",
      snippetAll
        ? "The page may be indexed but forbids snippets (nosnippet / max-snippet:0), so AI answers cannot quote it."
        : `The page may be indexed but forbids snippets to ${
          who.join(", ")
        } (nosnippet / max-snippet:0), so their answers cannot quote it.`,
      {
        points: snippetAll ? 2.5 : 5 - 2.5 * (nosnippet.agents.size / agents.length),
        evidence: [...nosnippet.all, ...[...nosnippet.agents.values()].flat()].map(
          describeDirective,
        ),
        fix: {
          what: "Allow snippets",
          why:
            "AI answers quote passages; nosnippet stops them quoting you and many then skip the page.",
          how: howText(
            "Remove nosnippet and max-snippet:0 from the robots meta tag and the X-Robots-Tag header (to keep a passage out of snippets, put data-nosnippet on its element instead). The tag then reads:",
            codeBlock('<meta name="robots" content="index, follow, max-snippet:-1">', "html"),
          ),
          effort: "S",
        },
      },
    );
  }
  return scored(
    "access.indexing",
    title,
    5,
    "pass",
    other.length
      ? `Robots directives allow the AI search crawlers we check to index and quote the page; directives for other agents (${
        other.join("; ")
      }) do not concern them.`
      : sources.length
      ? "Robots directives allow indexing and snippets."
      : "No noindex or nosnippet directive in meta tags or headers.",
    { evidence: sources },
  );
}

/** Known signs of a bot challenge or block page served by an edge (CDN / WAF). */
export function isChallenge(outcome: FetchOutcome): boolean {
  if (!outcome.ok) return false;
  const { status, headers, body } = outcome.result;
  if (headers["cf-mitigated"] === "challenge") return true;
  const head = body.slice(0, 20_000);
  return (status === 403 || status === 429 || status === 503) &&
    /just a moment|attention required|checking your browser|captcha|access denied|cf-chl|px-captcha|are you a robot|request blocked/i
      .test(head);
}

function blockedAtEdge(outcome: FetchOutcome): string | null {
  if (!outcome.ok) return null;
  const s = outcome.result.status;
  if (isChallenge(outcome)) return `a challenge page (HTTP ${s})`;
  if (s === 401 || s === 403 || s === 429 || s === 451 || s === 503) return `HTTP ${s}`;
  return null;
}

function edge(ctx: ScanContext): Check {
  const title = "Edge (CDN/firewall) lets AI crawlers through";
  const { edgeSearch, edgeTraining } = ctx.snapshot;
  if (!edgeSearch.ok) {
    return unscored(
      "access.edge",
      title,
      "unknown",
      `The probe with an AI search crawler's User-Agent failed (${edgeSearch.error.kind}), so edge blocking could not be checked.`,
    );
  }
  const searchBlock = blockedAtEdge(edgeSearch);
  const trainingBlock = blockedAtEdge(edgeTraining);
  const evidence = [
    `OAI-SearchBot User-Agent: HTTP ${edgeSearch.result.status}`,
    edgeTraining.ok
      ? `GPTBot User-Agent: HTTP ${edgeTraining.result.status}`
      : "GPTBot probe failed",
  ];
  if (searchBlock) {
    return scored(
      "access.edge",
      title,
      5,
      "fail",
      `The home page loads for a browser but answers an AI search crawler's User-Agent with ${searchBlock}: your CDN or firewall blocks AI search whatever robots.txt says.`,
      {
        evidence,
        gate: GATES.edgeBlocking,
        fix: {
          what: "Let verified AI search crawlers past your CDN/firewall",
          why:
            "A bot challenge or 403 at the edge hides the site from AI search even when robots.txt allows it; the crawler never sees your page.",
          how: howText(
            "In your CDN or firewall, let the verified AI search and user-fetch crawlers through (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User, Googlebot, Bingbot, Applebot) instead of challenging them.",
            "How depends on your setup, and the choice is yours: a rule that allows by User-Agent alone also lets in anyone who fakes it, so prefer your CDN's verified-bot list or the operators' published IP ranges (e.g. https://openai.com/searchbot.json, https://www.perplexity.com/perplexitybot.json). On Cloudflare, Security > Bots and AI Crawl Control allow crawlers one by one; keep training crawlers blocked there if that is your choice.",
            "Then check that an AI search crawler gets your page (HTTP 200):",
            codeBlock(`curl -A 'OAI-SearchBot/1.3' -I '${ctx.pageUrl.replace(/'/g, "%27")}'`, "sh"),
          ),
          effort: "M",
        },
      },
    );
  }
  if (trainingBlock) {
    return scored(
      "access.edge",
      title,
      5,
      "pass",
      `AI search crawlers get through; a training crawler's User-Agent gets ${trainingBlock}. Blocking training is your choice and is not scored.`,
      { evidence },
    );
  }
  return scored(
    "access.edge",
    title,
    5,
    "pass",
    "AI crawler User-Agents get the same page as browsers.",
    {
      evidence,
    },
  );
}
