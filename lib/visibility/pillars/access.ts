/**
 * Pillar "AI crawler access": may AI search engines, assistants and crawlers read the site?
 * robots.txt per crawler role, indexing directives, and an edge (CDN/WAF) that blocks bots.
 */
import { type Check, type PillarDef, type ScanContext, scored, unscored } from "../check.ts";
import { CRAWLERS } from "../crawlers.ts";
import {
  describeDirective,
  forbidsIndexing,
  forbidsSnippets,
  readDirectives,
  searchAgents,
  whoIsForbidden,
} from "../directives.ts";
import { codeBlock, howText } from "../fix_text.ts";
import type { FetchOutcome } from "../snapshot_types.ts";

export { GATES } from "./access_gates.ts";
import { GATES } from "./access_gates.ts";
import {
  robotsFile,
  searchCrawlers,
  trainingCrawlers,
  userFetchers,
  wildcard,
} from "./access_robots.ts";

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
