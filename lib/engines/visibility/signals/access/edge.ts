/**
 * `access.edge`: the site's edge (CDN, firewall, bot management) gives AI crawlers the page a
 * browser gets. Every search and user-triggered crawler with a known User-Agent is probed once
 * (edge_probe.ts); the signal carries the crawler matrix (robots.txt, declared preference, edge
 * answer, crawlers_matrix.ts). Owns the `edge_blocks_ai` gate (the edge refuses every major AI
 * search crawler probed).
 */
import { codeBlock, howText } from "../../fix_text.ts";
import { CRAWLERS } from "../../crawlers.ts";
import { crawlerMatrix } from "../../crawlers_matrix.ts";
import { isRefusal } from "../../edge_probe.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

/** The data the fix needs: the crawlers the edge refused. */
interface Data {
  refused: string[];
}

/** The edge refuses every major AI search crawler probed. */
export const EDGE_GATE: GateDef = {
  id: "edge_blocks_ai",
  cap: 35,
  name: "the site's CDN or firewall turns AI crawlers away",
  why:
    "When AI search crawlers ask for the home page, the edge answers with an error or a challenge page instead of the page, so they never see the content, however good it is.",
  when:
    "the edge answers every major AI search crawler's User-Agent we probe with 401/403/429/451/503, a challenge page, a redirect to a block page or a different page, while a browser's User-Agent gets the page",
  lift:
    "Your CDN or firewall answers at least one major AI search crawler's User-Agent with the page (HTTP 200), as it answers a browser, instead of an error or a challenge page; each crawler let through also adds points.",
};

/** What the label of every edge finding says about where the probe came from. */
const FROM_SCANNER =
  "Probed from our scanner's address: a real crawler coming from its vendor's published addresses may be let through, or refused, where our probe was not.";

export const edge: SignalDef<Data> = {
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
      "We fetch the home page once with each AI search and user-triggered crawler's User-Agent (and one training crawler's), a small part of the body only, and compare each answer with what a browser's User-Agent gets: a 401, 403, 429, 451 or 503, a challenge page, a redirect to a block page or a page sharing under 40% of the browser's words means the edge turns that crawler away. The report shows a matrix per crawler: robots.txt's verdict, the preference the site declares for the crawler's purpose, and the edge's answer. Our probes come from our scanner's address, not from the vendors' published addresses, which an edge may treat differently; when the browser's User-Agent is refused too, the edge refused our scanner and we say nothing about the crawlers. Every major AI search crawler refused caps the score.",
    sources: [SOURCES.openai, SOURCES.anthropic, SOURCES.perplexity, SOURCES.googleAgent],
  },
  check(ctx) {
    const m = crawlerMatrix(ctx);
    const rows = m.rows;
    const probed = CRAWLERS.filter((c) => m.answers.has(c.token));
    const judged = probed.filter((c) => c.role === "search" || c.role === "user");
    const answered = judged.filter((c) => m.answers.get(c.token)!.kind !== "failed");
    const evidence = probed.map((c) => `${c.token} User-Agent: ${m.answers.get(c.token)!.detail}`);
    if (m.scannerRefused) {
      return {
        status: "unknown",
        detail:
          `The site's edge refused our probes with every User-Agent, a browser's included (${m.browser.detail}): it refused our scanner, which says nothing about how it treats AI crawlers coming from their vendors' addresses. Not scored.`,
        evidence: [`Browser User-Agent: ${m.browser.detail}`, ...evidence],
        crawlers: rows,
      };
    }
    if (!answered.some((c) => c.role === "search")) {
      return {
        status: "unknown",
        detail:
          "The probes with AI search crawlers' User-Agents got no answer in time, so edge blocking could not be checked.",
        evidence,
        crawlers: rows,
      };
    }
    const refused = answered.filter((c) => isRefusal(m.answers.get(c.token)!));
    const line = (c: { token: string }) =>
      `${c.token} User-Agent: ${m.answers.get(c.token)!.detail}`;
    const majors = answered.filter((c) => c.role === "search" && c.major);
    const all = majors.length > 0 && majors.every((c) => refused.includes(c));
    const training = probed.filter((c) =>
      c.role === "training" && isRefusal(m.answers.get(c.token)!)
    );
    const trainingNote = training.length
      ? ` A training crawler's User-Agent (${
        training.map((c) => c.token).join(", ")
      }) is refused too: blocking training is your choice and is not scored.`
      : "";
    if (!refused.length) {
      return {
        status: "pass",
        detail:
          `AI search and assistant crawlers' User-Agents (${answered.length} probed) get the same page as a browser.${trainingNote} ${FROM_SCANNER}`,
        evidence,
        crawlers: rows,
      };
    }
    // Each refused crawler is weighed as robots.txt blocks are (crawler_role.ts): a major one 3,
    // a minor one 2.
    const weight = (c: { major?: boolean }) => c.major ? 3 : 2;
    const total = answered.reduce((n, c) => n + weight(c), 0);
    const open = answered.filter((c) => !refused.includes(c)).reduce((n, c) => n + weight(c), 0);
    const names = refused.map((c) => `${c.token} (${m.answers.get(c.token)!.detail})`);
    // The evidence is what raised the verdict: the refused crawlers (for the gate, the major AI
    // search crawlers), the others summed up in one line.
    const shown = all ? refused.filter((c) => majors.includes(c)) : refused;
    const rest = refused.filter((c) => !shown.includes(c)).map((c) => c.token);
    return {
      status: all ? "fail" : "warn",
      detail: `${
        all
          ? "The home page loads for a browser but the edge turns away every major AI search crawler we probed"
          : `The edge turns away ${refused.length} of ${answered.length} AI search and assistant crawlers we probed`
      }: ${names.slice(0, 6).join(", ")}${
        names.length > 6 ? ` and ${names.length - 6} more` : ""
      }. robots.txt cannot help them: your CDN or firewall refuses them first.${trainingNote} ${FROM_SCANNER}`,
      points: (5 * open) / total,
      evidence: [
        ...shown.slice(0, 8).map(line),
        ...(rest.length || shown.length > 8
          ? [`also refused: ${[...shown.slice(8).map((c) => c.token), ...rest].join(", ")}`]
          : []),
      ],
      gated: all,
      impact: all ? "critical" : "high",
      data: { refused: refused.map((c) => c.token) },
      crawlers: rows,
    };
  },
  fix(ctx, found) {
    const refused = found.data?.refused ?? [];
    const ranges = CRAWLERS.filter((c) => refused.includes(c.token) && c.ipRanges)
      .map((c) => `${c.token}: ${c.ipRanges}`);
    const probe = CRAWLERS.find((c) => c.token === refused[0]) ??
      CRAWLERS.find((c) => c.token === "OAI-SearchBot")!;
    const token = tokenWithVersion(probe.userAgent, probe.token);
    return {
      what: "Let verified AI search crawlers past your CDN/firewall",
      why:
        "A bot challenge or 403 at the edge hides the site from AI search even when robots.txt allows it; the crawler never sees your page.",
      how: howText(
        `In your CDN or firewall, let these AI search and assistant crawlers through instead of refusing or challenging them: ${
          refused.join(", ")
        }.`,
        `How depends on your setup, and the choice is yours: a rule that allows by User-Agent alone also lets in anyone who fakes it, so prefer your CDN's verified-bot list or the addresses the vendors publish${
          ranges.length ? ` (${ranges.join("; ")})` : ""
        }. On Cloudflare, Security > Bots and AI Crawl Control allow crawlers one by one; keep training crawlers blocked there if that is your choice.`,
        "Then check that the crawler gets your page (HTTP 200):",
        codeBlock(`curl -A '${token}' -I '${ctx.pageUrl.replace(/'/g, "%27")}'`, "sh"),
      ),
      effort: "M",
    };
  },
};

/** The product token with its version as the User-Agent writes it ("GPTBot/1.2"), or the token. */
function tokenWithVersion(userAgent: string, token: string): string {
  const at = userAgent.indexOf(`${token}/`);
  if (at < 0) return token;
  let end = at + token.length + 1;
  while (end < userAgent.length && /[\d.]/.test(userAgent[end])) end++;
  return end > at + token.length + 1 ? userAgent.slice(at, end) : token;
}
