/**
 * robots.txt verdicts cost a fraction of a parse (issue 35): the file is parsed once per scan and
 * every path and crawler is answered from the parsed groups. Measured on a generated file shaped
 * like a large real one (about 45 KB: 35 groups naming other bots, a `*` group and a few of our
 * crawlers' groups, each with many wildcard rules), in the same run:
 *
 * - `parse only` (the baseline): parsing the file once;
 * - `1,000 verdicts, parsed once`: 1,000 (crawler, path) verdicts from one parsed file, the way a
 *   scan asks now;
 * - `1,000 verdicts, parsed per path`: the same verdicts when every path re-reads the file, the way
 *   `analyseRobots` was called per path before (for comparison only).
 *
 * Run: deno bench -A tests/bench/robots_bench.ts
 * The budget is a ratio within the same run: 1,000 verdicts from the parsed file must cost under a
 * fifth of the same verdicts parsed per path (asserted once at load, so a regression fails the
 * bench run).
 */
import { CRAWLERS } from "../../lib/engines/visibility/crawlers.ts";
import {
  parseRobotsTxt,
  requestTarget,
  robotsVerdict,
} from "../../lib/engines/visibility/robots.ts";

/** Deterministic pseudo-random numbers, so every run benches the same file. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SEGMENTS = ["jobs", "learning", "pulse", "in", "company", "school", "feed", "search", "m"];

/** A large robots.txt: many groups for other bots, a `*` group and groups for some of ours. */
export function largeRobotsTxt(): string {
  const rand = rng(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const rule = () =>
    `${rand() < 0.2 ? "Allow" : "Disallow"}: /${pick(SEGMENTS)}/${rand() < 0.5 ? "*" : ""}${
      pick(SEGMENTS)
    }${rand() < 0.3 ? "?*" : ""}${rand() < 0.2 ? "$" : ""}`;
  const lines: string[] = ["# A large generated robots.txt", ""];
  for (let g = 0; g < 35; g++) {
    lines.push(`User-agent: OtherBot${g}`);
    for (let r = 0; r < 50; r++) lines.push(rule());
    lines.push("");
  }
  for (const token of ["Googlebot", "Bingbot", "GPTBot", "PerplexityBot"]) {
    lines.push(`User-agent: ${token}`);
    for (let r = 0; r < 40; r++) lines.push(rule());
    lines.push("");
  }
  lines.push("User-agent: *");
  for (let r = 0; r < 60; r++) lines.push(rule());
  lines.push("Disallow: /", "", "Sitemap: https://www.example.com/sitemap.xml");
  return lines.join("\n");
}

const TEXT = largeRobotsTxt();
const ORIGIN = "https://www.example.com";
const PATHS = Array.from({ length: 40 }, (_, i) => `/${SEGMENTS[i % SEGMENTS.length]}/p${i}?x=1`);
const TOKENS = CRAWLERS.map((c) => c.token);
/** 1,000 (crawler, path) pairs. */
const PAIRS = Array.from({ length: 1000 }, (_, i) => ({
  token: TOKENS[i % TOKENS.length],
  path: PATHS[Math.floor(i / TOKENS.length) % PATHS.length],
}));

function parseOnly(): void {
  parseRobotsTxt(TEXT);
}

/** Each path's request target, computed once per path as a scan does (robots_groups.ts). */
const TARGETS = new Map(PATHS.map((p) => [p, requestTarget(ORIGIN + p)]));

function verdictsParsedOnce(): number {
  const parsed = parseRobotsTxt(TEXT);
  let allowed = 0;
  for (const { token, path } of PAIRS) {
    if (robotsVerdict(parsed, token, TARGETS.get(path)!).allowed) allowed++;
  }
  return allowed;
}

function verdictsParsedPerPath(): number {
  let allowed = 0;
  // The old way: the file parsed again for every path asked about (then every crawler of the
  // registry answered on it), as analyseRobots did before it kept the parsed file.
  for (let i = 0; i < PAIRS.length; i += TOKENS.length) {
    const parsed = parseRobotsTxt(TEXT);
    for (const token of TOKENS) {
      if (robotsVerdict(parsed, token, TARGETS.get(PAIRS[i].path)!).allowed) allowed++;
    }
  }
  return allowed;
}

/**
 * Printed once on load: the cost of 1,000 verdicts in parses of the file (the baseline of the same
 * run). The budget, a ratio of the same run too: answering from the parsed file costs under a
 * fifth of parsing per path.
 */
function meanMs(fn: () => unknown, runs: number): number {
  for (let i = 0; i < 5; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - t0) / runs;
}
const parseMs = meanMs(parseOnly, 40);
const onceMs = Math.max(0, meanMs(verdictsParsedOnce, 40) - parseMs);
const perPathMs = meanMs(verdictsParsedPerPath, 10);
console.log(
  `robots.txt of ${Math.round(TEXT.length / 1024)} KB: parse ${parseMs.toFixed(3)} ms; ` +
    `1,000 verdicts from the parsed file ${onceMs.toFixed(3)} ms (${
      (onceMs / parseMs).toFixed(2)
    } parses); parsed per path ${perPathMs.toFixed(3)} ms (${
      (perPathMs / parseMs).toFixed(1)
    } parses)`,
);
if (onceMs * 5 > perPathMs) {
  throw new Error(
    `1,000 verdicts cost ${(onceMs / perPathMs).toFixed(2)} of the per-path way (budget: 0.2)`,
  );
}

Deno.bench("parse only", { group: "robots", baseline: true }, parseOnly);
Deno.bench("parse + 1,000 verdicts, parsed once", { group: "robots" }, () => {
  verdictsParsedOnce();
});
Deno.bench("1,000 verdicts, parsed per path (before)", { group: "robots" }, () => {
  verdictsParsedPerPath();
});
