/**
 * Robots directives of `<meta name="robots">` (and `<meta name="googlebot">` ...) and the
 * `X-Robots-Tag` header, read per directive and per agent: `noindex`, `none`, `nosnippet`,
 * `max-snippet:0` and the like, where `name:value` directives (`max-image-preview:none`) are not
 * mistaken for others, and a directive scoped to one agent (`googlebot-news`, or the header's
 * `bingbot: noindex`) applies to that agent only. Each X-Robots-Tag header line is read on its
 * own, as Google documents: an agent named in one line scopes the rules after it in that line
 * only, never the next line's.
 */
import type { FetchResult } from "../../kit/net/types.ts";
import { crawlersByRole } from "./crawlers.ts";

/**
 * The cause of the fix that removes a noindex aimed at some AI search crawlers (their template's
 * robots meta tag or the X-Robots-Tag header): one change, whichever signals it gives points back.
 */
export const NOINDEX_AGENTS_CAUSE = {
  key: "page:noindex-agents",
  title: "Remove the noindex aimed at AI search crawlers",
} as const;

/** Directives that take a value after a colon; anything else before a colon names an agent. */
const VALUED = new Set([
  "max-snippet",
  "max-image-preview",
  "max-video-preview",
  "unavailable_after",
  "unavailable-after",
]);

/** One directive and who it applies to (`*` for all robots). */
export interface RobotsDirective {
  agent: string;
  /** Lower-cased directive name, e.g. "noindex", "max-snippet". */
  name: string;
  /** The value of a `name:value` directive, else null. */
  value: string | null;
  /** Where it was read, e.g. `<meta name="robots">` or `X-Robots-Tag header`. */
  source: string;
}

/** Splits one directive list (`noindex, max-image-preview:none`) under a given agent. */
function parseList(text: string, agent: string, source: string, headerScopes: boolean) {
  const out: RobotsDirective[] = [];
  let current = agent;
  for (const rawPart of text.split(",")) {
    let part = rawPart.trim().toLowerCase();
    if (!part) continue;
    const colon = part.indexOf(":");
    if (headerScopes && colon > 0) {
      const head = part.slice(0, colon).trim();
      if (!VALUED.has(head) && /^[a-z0-9_-]+$/.test(head)) {
        // "googlebot: noindex": a new agent scope for what follows.
        current = head;
        part = part.slice(colon + 1).trim();
        if (!part) continue;
      }
    }
    const c = part.indexOf(":");
    const name = (c > 0 ? part.slice(0, c) : part).trim();
    const value = c > 0 ? part.slice(c + 1).trim() : null;
    if (name) out.push({ agent: current, name, value, source });
  }
  return out;
}

/**
 * The X-Robots-Tag lines of a response, each on its own (the guarded fetcher keeps them apart);
 * a result without them (built in memory) has its joined header as one line.
 */
export function xRobotsTagLines(result: Pick<FetchResult, "headers" | "headerLines">): string[] {
  const lines = result.headerLines?.["x-robots-tag"];
  if (lines) return lines;
  const joined = result.headers["x-robots-tag"];
  return joined ? [joined] : [];
}

/**
 * Reads the directives of the page's robots metas (name -> content, as `PageFacts.metaRobots`
 * holds them) and its X-Robots-Tag header lines (see {@link xRobotsTagLines}), each line read on
 * its own.
 */
export function readDirectives(
  metaRobots: Record<string, string>,
  xRobotsTag: string | readonly string[],
): RobotsDirective[] {
  const out: RobotsDirective[] = [];
  for (const line of typeof xRobotsTag === "string" ? [xRobotsTag] : xRobotsTag) {
    if (line) out.push(...parseList(line, "*", "X-Robots-Tag header", true));
  }
  for (const [name, content] of Object.entries(metaRobots)) {
    const agent = name.trim().toLowerCase();
    out.push(
      ...parseList(content, agent === "robots" ? "*" : agent, `<meta name="${name}">`, false),
    );
  }
  return out;
}

/** True when the directive forbids indexing. */
export function forbidsIndexing(d: RobotsDirective): boolean {
  return d.name === "noindex" || d.name === "none";
}

/** True when the directive forbids text snippets (so answers cannot quote the page). */
export function forbidsSnippets(d: RobotsDirective): boolean {
  return d.name === "nosnippet" || (d.name === "max-snippet" && d.value !== null &&
    Number(d.value) === 0);
}

/** The agents of the AI search crawlers we score, lower-cased. */
export function searchAgents(): string[] {
  return crawlersByRole("search").map((c) => c.token.toLowerCase());
}

/** For one directive test: whether it applies to all robots, and which scored search agents it names. */
export function whoIsForbidden(
  directives: RobotsDirective[],
  test: (d: RobotsDirective) => boolean,
): { all: RobotsDirective[]; agents: Map<string, RobotsDirective[]>; other: RobotsDirective[] } {
  const scoredAgents = new Set(searchAgents());
  const all: RobotsDirective[] = [];
  const agents = new Map<string, RobotsDirective[]>();
  const other: RobotsDirective[] = [];
  for (const d of directives) {
    if (!test(d)) continue;
    if (d.agent === "*") all.push(d);
    else if (scoredAgents.has(d.agent)) {
      agents.set(d.agent, [...(agents.get(d.agent) ?? []), d]);
    } else other.push(d);
  }
  return { all, agents, other };
}

/** How a directive reads in evidence. */
export function describeDirective(d: RobotsDirective): string {
  const text = d.value === null ? d.name : `${d.name}:${d.value}`;
  return d.source.startsWith("X-Robots-Tag") && d.agent !== "*"
    ? `${d.source}: ${d.agent}: ${text}`
    : `${d.source}: ${text}`;
}
