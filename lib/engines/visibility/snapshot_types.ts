/** Types of the site snapshot that every visibility signal reads. */
import type { FetchError, FetchResult } from "../../kit/net/types.ts";
import type { PageFacts } from "../html/types.ts";
import type { Target } from "../../kit/net/target.ts";

/** A fetch that either answered (any status) or failed with a typed error. */
export type FetchOutcome =
  | { ok: true; result: FetchResult }
  | { ok: false; error: FetchError };

/** The home page as the edge answers other User-Agents. */
export interface EdgeProbes {
  /** A browser's User-Agent: the answer each crawler's is compared with. */
  browser: FetchOutcome;
  /** One answer per probed crawler, in registry order. */
  crawlers: { token: string; outcome: FetchOutcome }[];
}

/** Everything fetched and parsed once for one scan. */
export interface Snapshot {
  target: Target;
  /** The home page as our descriptive User-Agent sees it. */
  home: FetchOutcome;
  /** The home page HTML parsed once; null when there is no HTML to parse. */
  facts: PageFacts | null;
  /** Milliseconds spent parsing the home page. */
  parseMs: number;
  robots: FetchOutcome;
  /**
   * The sitemap judged: the first of robots.txt's Sitemap lines that answers with a sitemap (else
   * the first one named), or /sitemap.xml when robots.txt names none.
   */
  sitemap: {
    url: string;
    source: "robots" | "default";
    outcome: FetchOutcome;
    /** Sitemap lines tried before this one that did not answer with a sitemap. */
    tried?: { url: string; status: string }[];
    /** For a sitemap index: its first child sitemaps, fetched (bounded). */
    children?: { url: string; outcome: FetchOutcome }[];
  };
  llms: FetchOutcome;
  llmsFull: FetchOutcome;
  /**
   * The home page fetched again with a browser's and with each probed crawler's User-Agent
   * (edge_probe.ts): what the site's edge answers them.
   */
  edge: EdgeProbes;
  /**
   * The home page asked for again with `Accept: text/markdown` (Markdown for Agents, standards.ts):
   * a text/markdown answer is a Markdown version for the agents that ask for one. Absent in
   * snapshots built without it (tests) and when the home page did not answer.
   */
  markdown?: FetchOutcome;
  /** Wall time of the whole snapshot in milliseconds. */
  elapsedMs: number;
}
