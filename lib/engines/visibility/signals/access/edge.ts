/**
 * `access.edge`: the site's edge (CDN, firewall, bot management) gives AI crawlers the page a
 * browser gets. Every search and user-triggered crawler with a known User-Agent is probed once
 * (edge_probe.ts); the signal carries the crawler matrix, which is the one model of access
 * (crawlers_matrix.ts). It keeps the cause and the fix, and no points of its own: a crawler refused
 * at the edge costs what a robots.txt refusal costs, in `access.search_crawlers` and
 * `access.user_fetchers`, whose findings credit the edge fix with the points it gives back (so its
 * issue shows that worth, and lifts their gate when every major search crawler is refused here).
 * The `edge_blocks_ai` gate it raised before that is kept for older records ({@link EDGE_GATE}).
 */
import { codeBlock, howText } from "../../fix_text.ts";
import { EDGE_CAUSE, edgeLabel } from "../../edge_words.ts";
import { edgeStateOf } from "../../edge_probe.ts";
import { productsOf } from "../../access_model.ts";
import { joinNames } from "../../products.ts";
import { STANDARDS } from "../../standards.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import { CRAWLERS } from "../../crawlers.ts";
import { crawlerMatrix } from "../../crawlers_matrix.ts";
import { isRefusal } from "../../edge_probe.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

/** The data the fix needs: the crawlers the edge refused. */
interface Data {
  refused: string[];
}

/**
 * The gate older records carry (raised before the one model of access, issue 40): the search
 * crawlers' gate now holds for every path. Kept so those records still read in plain words.
 */
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

/**
 * What a refusal of unsigned probes cannot tell (Web Bot Auth, STANDARDS.webBotAuth): an edge that
 * verifies signed agents may let a vendor's signed requests through.
 */
const SIGNED_AGENTS =
  "Our probes are not signed: an edge that verifies signed agents (Web Bot Auth: HTTP message signatures with a Signature-Agent header) may let a vendor's signed requests through where it refused ours; we cannot sign as a vendor, so that part cannot be seen from our address.";

export const edge: SignalDef<Data> = {
  id: "access.edge",
  pillar: "access",
  title: "Edge (CDN/firewall) lets AI crawlers through",
  points: 0,
  scope: "page",
  learn: {
    what:
      'Many sites sit behind a CDN or firewall that can block bots before robots.txt is even read, answering with an error or a "checking your browser" page.',
    why:
      "An AI crawler that gets a 403 or a challenge page sees no content at all, even when robots.txt allows it.",
    how:
      "We fetch the home page once with each AI search and user-triggered crawler's User-Agent (and one training crawler's), a small part of the body only, and compare each answer with what a browser's User-Agent gets: a 401, 403, 451 or 503 is a refusal, a 429 a rate limit, a page that asks the client to prove something (a script or captcha check) a challenge, a redirect to a block page or a page sharing under 40% of the browser's words a block page. A page that only says no (\"Access denied\") is a refusal, never called a challenge. A crawler turned away here costs what a robots.txt block costs, in the search and assistant checks; this check carries the cause and the fix. Our probes come from our scanner's address, not from the vendors' published addresses, and are not signed (Web Bot Auth), which an edge may treat differently; when the browser's User-Agent is refused too, the edge refused our scanner and we say nothing about the crawlers.",
    sources: [
      SOURCES.openai,
      SOURCES.anthropic,
      SOURCES.perplexity,
      SOURCES.googleAgent,
      STANDARDS.webBotAuth,
    ],
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
    const label = (c: { token: string }) => {
      const a = m.answers.get(c.token)!;
      return edgeLabel(edgeStateOf(a), a.detail);
    };
    const names = refused.map((c) => `${c.token} (${label(c)})`);
    // The evidence is what raised the verdict: the refused crawlers (the major AI search crawlers
    // first), the others summed up in one line.
    const shown = [
      ...refused.filter((c) => majors.includes(c)),
      ...refused.filter((c) => !majors.includes(c)),
    ];
    const products = productsOf(rows).filter((p) =>
      refused.some((c) => c.product === p.id) && p.major
    ).map((p) => p.short);
    return {
      status: all ? "fail" : "warn",
      detail: `${
        all
          ? "The home page loads for a browser but the edge turns away every major AI search crawler we probed"
          : `The edge turns away ${refused.length} of ${answered.length} AI search and assistant crawlers we probed`
      }${products.length ? ` (those of ${joinNames(products)})` : ""}: ${
        names.slice(0, 6).join(", ")
      }${
        names.length > 6 ? ` and ${names.length - 6} more` : ""
      }. robots.txt cannot help them: your CDN or firewall turns them away first; each costs the points a robots.txt block costs, in the search and assistant checks.${trainingNote} ${FROM_SCANNER} ${SIGNED_AGENTS}`,
      evidence: [
        ...shown.slice(0, 8).map(line),
        ...(shown.length > 8
          ? [`also refused: ${shown.slice(8).map((c) => c.token).join(", ")}`]
          : []),
      ],
      impact: all ? "critical" : "high",
      data: { refused: refused.map((c) => c.token) },
      crawlers: rows,
    };
  },
  fix(ctx, found) {
    const refused = found.data?.refused ?? [];
    const m = crawlerMatrix(ctx);
    const ranges = CRAWLERS.filter((c) => refused.includes(c.token) && c.ipRanges)
      .map((c) => `${c.token}: ${c.ipRanges}`);
    const probe = CRAWLERS.find((c) => c.token === refused[0]) ??
      CRAWLERS.find((c) => c.token === "OAI-SearchBot")!;
    const token = tokenWithVersion(probe.userAgent, probe.token);
    // Named from the record: the products whose crawlers this edge turns away, and how.
    const products = productsOf(m.rows).filter((p) =>
      refused.some((t) => CRAWLERS.find((c) => c.token === t)?.product === p.id)
    ).map((p) => p.short);
    const kinds = new Set(refused.map((t) => edgeStateOf(m.answers.get(t))));
    const how = kinds.has("challenge") && kinds.size === 1
      ? "answers their crawlers with a challenge page"
      : kinds.has("rate_limited") && kinds.size === 1
      ? "rate-limits their crawlers (HTTP 429)"
      : kinds.has("challenge")
      ? "refuses or challenges their crawlers"
      : "refuses their crawlers";
    return {
      what: EDGE_CAUSE.title,
      why: `${
        products.length ? joinNames(products.slice(0, 6)) : "These AI products"
      } cannot read the site: your CDN or firewall ${how} before robots.txt is even read, so they never see your page.`,
      how: howText(
        byHand(
          `in your CDN or firewall, let these AI search and assistant crawlers through instead of turning them away: ${
            refused.join(", ")
          }.`,
        ),
        `How depends on your setup, and the choice is yours: a rule that allows by User-Agent alone also lets in anyone who fakes it, so prefer your CDN's verified-bot list, signed agents (Web Bot Auth) where your CDN verifies them, or the addresses the vendors publish${
          ranges.length ? ` (${ranges.join("; ")})` : ""
        }. On Cloudflare, Security > Bots and AI Crawl Control allow crawlers one by one; keep training crawlers blocked there if that is your choice.`,
        checkAfterwards(
          "that the crawler gets your page (HTTP 200); our check sends the same unsigned request from its own address, so a rule that trusts only verified addresses or signatures may still refuse it:",
        ),
        codeBlock(`curl -A '${token}' -I '${ctx.pageUrl.replace(/'/g, "%27")}'`, "sh"),
      ),
      effort: "M",
      cause: EDGE_CAUSE,
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
