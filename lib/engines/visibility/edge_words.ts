/**
 * What the edge's answer to a crawler is called, in every view (report, crawler table, exports,
 * compare, SARIF, MCP): one label per `EdgeState` (edge_probe.ts), so a plain 403 is "refused" and
 * only a page that asks the client to prove something is "a challenge page". And the cause the edge
 * fix belongs to.
 */
import type { EdgeState } from "./edge_probe.ts";

/** The cause of the edge fix: the CDN's or firewall's rules for AI crawlers (one change). */
export const EDGE_CAUSE = {
  key: "edge:ai-crawlers",
  title: "Let AI crawlers past your CDN or firewall",
} as const;

/** Each state in a few words. */
const LABELS: Record<EdgeState, string> = {
  open: "gets the page",
  refused: "refused",
  challenge: "a challenge page",
  rate_limited: "rate-limited (429)",
  block_page: "a block page",
  not_measured: "not measured",
};

/**
 * The label of an edge answer: its state's words and, where it adds something, the answer itself
 * ("refused (HTTP 403)", "a challenge page (HTTP 403)", "gets the page (HTTP 200)").
 */
export function edgeLabel(state: EdgeState | undefined, detail: string | null): string {
  if (!state) return detail ?? LABELS.not_measured;
  if (state === "not_measured") return detail ? `not measured (${detail})` : LABELS.not_measured;
  const status = detail?.match(/HTTP \d{3}/)?.[0];
  if (state === "challenge" || state === "rate_limited") {
    return state === "challenge" && status ? `${LABELS.challenge} (${status})` : LABELS[state];
  }
  if (state === "block_page") return detail ?? LABELS.block_page;
  return status ? `${LABELS[state]} (${status})` : LABELS[state];
}
