/** The gates of the "AI crawler access" pillar (lib/visibility/pillars/access.ts). */
/** Score caps of this pillar's gates. */
export const GATES = {
  blanketDisallow: { id: "blanket_disallow", cap: 20 },
  searchBlocked: { id: "search_crawlers_blocked", cap: 35 },
  noindex: { id: "noindex", cap: 25 },
  edgeBlocking: { id: "edge_blocks_ai", cap: 35 },
} as const;
