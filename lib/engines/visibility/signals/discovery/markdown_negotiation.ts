/**
 * `discovery.markdown_negotiation`: the home page answers a request that asks for Markdown
 * (`Accept: text/markdown`, content negotiation as Cloudflare's Markdown for Agents does it) with
 * a text/markdown body: a Markdown version for the agents that ask for one. Shown, never scored:
 * few crawlers ask, and the HTML page serves the ones that do not.
 */
import { noFix, type SignalDef } from "../../signal.ts";
import { STANDARDS } from "../../standards.ts";

/** A Content-Type that says Markdown. */
const MARKDOWN_TYPE = /^\s*text\/(?:x-)?markdown\b/i;

export const markdownNegotiation: SignalDef = {
  id: "discovery.markdown_negotiation",
  pillar: "discovery",
  title: "Markdown for agents that ask (your choice)",
  points: 0,
  scope: "page",
  learn: {
    what:
      "A site can answer a request whose Accept header asks for text/markdown with a Markdown version of the page (content negotiation; Cloudflare's Markdown for Agents does it at the edge, and some documentation platforms do it themselves).",
    why:
      "Agents that ask for Markdown read it with less noise than HTML. It is an alternate form of the same page, for the agents that ask: the HTML page still serves every other crawler, so it is shown and never scored.",
    how:
      "We ask for the home page once more with `Accept: text/markdown` (a small part of the body only) and report whether the answer's Content-Type is text/markdown, and whether it says `Vary: Accept` so caches keep the two forms apart.",
    sources: [STANDARDS.markdownForAgents],
  },
  check(ctx) {
    const out = ctx.snapshot.markdown;
    if (!out) return null;
    if (!out.ok) {
      return { status: "unknown", detail: "The request for a Markdown version got no answer." };
    }
    const r = out.result;
    const type = r.headers["content-type"] ?? "";
    if (r.status >= 200 && r.status < 300 && MARKDOWN_TYPE.test(type)) {
      const vary = /\baccept\b/i.test(r.headers["vary"] ?? "");
      return {
        status: "info",
        detail: `The home page answers Accept: text/markdown with a Markdown version (${
          type.split(";")[0].trim()
        }, HTTP ${r.status}): agents that ask for Markdown get one.${
          vary
            ? ""
            : " It does not say Vary: Accept, so a shared cache may serve one form for the other."
        }`,
        evidence: [
          `Accept: text/markdown -> HTTP ${r.status}, Content-Type: ${type.slice(0, 80)}`,
          `Vary: ${r.headers["vary"] ?? "(none)"}`,
        ],
      };
    }
    return {
      status: "info",
      detail:
        "The home page answers Accept: text/markdown with its usual page (no Markdown version on request). That is fine: it is optional and never scored.",
      evidence: [`Accept: text/markdown -> HTTP ${r.status}, Content-Type: ${type.slice(0, 80)}`],
    };
  },
  fix: noFix,
};
