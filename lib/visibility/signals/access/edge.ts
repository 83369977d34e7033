/**
 * `access.edge`: the site's edge (CDN, firewall, bot management) gives AI crawlers the page a
 * browser gets. Owns the `edge_blocks_ai` gate (an AI search crawler's User-Agent is refused).
 */
import { codeBlock, howText } from "../../fix_text.ts";
import type { FetchOutcome } from "../../snapshot_types.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

/** The edge refuses an AI search crawler's User-Agent. */
export const EDGE_GATE: GateDef = {
  id: "edge_blocks_ai",
  cap: 35,
  name: "the site's CDN or firewall turns AI crawlers away",
  why:
    "When an AI crawler asks for the home page, the edge answers with an error or a challenge page instead of the page, so the crawler never sees the content, however good it is.",
  when:
    "the edge answers an AI search crawler's User-Agent with 401/403/429/451/503 or a challenge page",
  lift:
    "Your CDN or firewall answers an AI search crawler's User-Agent with the page (HTTP 200), as it answers a browser, instead of an error or a challenge page.",
};

/** Known signs of a bot challenge or block page served by an edge (CDN / WAF). */
function isChallenge(outcome: FetchOutcome): boolean {
  if (!outcome.ok) return false;
  const { status, headers, body } = outcome.result;
  if (headers["cf-mitigated"] === "challenge") return true;
  const head = body.slice(0, 20_000);
  return (status === 403 || status === 429 || status === 503) &&
    /just a moment|attention required|checking your browser|captcha|access denied|cf-chl|px-captcha|are you a robot|request blocked/i
      .test(head);
}

/** What the edge answered a probe, when it refused it ("a challenge page (HTTP 403)"). */
function blockedAtEdge(outcome: FetchOutcome): string | null {
  if (!outcome.ok) return null;
  const s = outcome.result.status;
  if (isChallenge(outcome)) return `a challenge page (HTTP ${s})`;
  if (s === 401 || s === 403 || s === 429 || s === 451 || s === 503) return `HTTP ${s}`;
  return null;
}

export const edge: SignalDef = {
  id: "access.edge",
  pillar: "access",
  title: "Edge (CDN/firewall) lets AI crawlers through",
  points: 5,
  scope: "page",
  gate: EDGE_GATE,
  learn: {
    what:
      'Many sites sit behind a CDN or firewall that can block bots before robots.txt is even read, answering with an error or a "checking your browser" page.',
    why:
      "An AI crawler that gets a 403 or a challenge page sees no content at all, even when robots.txt allows it.",
    how:
      "We fetch the home page a second time with an AI search crawler's User-Agent (and once with a training crawler's) and compare: a 401, 403, 429, 451 or 503, or a challenge page, where our own request got the page, means the edge turns them away. It caps the score.",
    sources: [SOURCES.openai, SOURCES.anthropic, SOURCES.perplexity],
  },
  check(ctx) {
    const { edgeSearch, edgeTraining } = ctx.snapshot;
    if (!edgeSearch.ok) {
      return {
        status: "unknown",
        detail:
          `The probe with an AI search crawler's User-Agent failed (${edgeSearch.error.kind}), so edge blocking could not be checked.`,
      };
    }
    const searchBlock = blockedAtEdge(edgeSearch);
    const trainingBlock = blockedAtEdge(edgeTraining);
    if (searchBlock) {
      return {
        status: "fail",
        detail:
          `The home page loads for a browser but answers an AI search crawler's User-Agent with ${searchBlock}: your CDN or firewall blocks AI search whatever robots.txt says.`,
        // The evidence that raises the gate names what the edge answered, a challenge included.
        evidence: [
          `OAI-SearchBot User-Agent: ${searchBlock}`,
          edgeTraining.ok
            ? `GPTBot User-Agent: ${trainingBlock ?? `HTTP ${edgeTraining.result.status}`}`
            : "GPTBot probe failed",
        ],
        gated: true,
      };
    }
    const evidence = [
      `OAI-SearchBot User-Agent: HTTP ${edgeSearch.result.status}`,
      edgeTraining.ok
        ? `GPTBot User-Agent: HTTP ${edgeTraining.result.status}`
        : "GPTBot probe failed",
    ];
    if (trainingBlock) {
      return {
        status: "pass",
        detail:
          `AI search crawlers get through; a training crawler's User-Agent gets ${trainingBlock}. Blocking training is your choice and is not scored.`,
        evidence,
      };
    }
    return {
      status: "pass",
      detail: "AI crawler User-Agents get the same page as browsers.",
      evidence,
    };
  },
  fix(ctx) {
    return {
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
    };
  },
};
