/**
 * `technical.response_time`: the home page's first byte arrives quickly. Judged on a robust
 * measure our own load does not move: the median time to first byte of every answer of the home
 * page's page that a scan gets anyway (our fetch, the browser's probe and each crawler probe that
 * got the page: about 20 samples, no extra request), and a verdict only outside a stated margin
 * ({@link MARGIN}): a scanner busy enough to delay a few answers moves neither the median nor,
 * near a threshold, the verdict.
 */
import { codeBlock, howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { homeAnswer } from "../home_answer.ts";
import type { ScanContext } from "../../check.ts";
import type { FetchOutcome } from "../../snapshot_types.ts";

/** The thresholds: a first byte under 800 ms is quick, over 2 s slow. */
export const QUICK_MS = 800;
export const SLOW_MS = 2000;
/**
 * How far past a threshold the median must be before the verdict changes (a quarter of it): a
 * warning from 1000 ms, a failure from 2500 ms.
 */
export const MARGIN = 0.25;

/** The samples of the home page's time to first byte a scan has, in ms. */
export function ttfbSamples(ctx: ScanContext): number[] {
  const home = homeAnswer(ctx);
  const samePage = (o: FetchOutcome) =>
    o.ok && o.result.status === home.status && o.result.finalUrl === home.finalUrl;
  const probes = [ctx.snapshot.edge.browser, ...ctx.snapshot.edge.crawlers.map((c) => c.outcome)]
    .filter(samePage)
    .map((o) => (o as Extract<FetchOutcome, { ok: true }>).result.ttfbMs);
  return [home.ttfbMs, ...probes].filter((ms) => Number.isFinite(ms) && ms >= 0);
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const responseTime: SignalDef = {
  id: "technical.response_time",
  pillar: "technical",
  title: "Fast first byte",
  points: 2,
  scope: "page",
  learn: {
    what: "How long the server takes to start answering.",
    why: "AI crawlers and assistants fetching live work on tight time budgets.",
    how:
      `We take the median time to first byte of the home page over every answer of it a scan gets (our own fetch, the browser's probe and each crawler probe that got the page), so a moment of load on our side does not decide it. Under ${QUICK_MS} ms passes, over ${SLOW_MS} ms fails, and a verdict changes only ${
        MARGIN * 100
      }% past its threshold: a warning from ${QUICK_MS * (1 + MARGIN)} ms, a failure from ${
        SLOW_MS * (1 + MARGIN)
      } ms.`,
    sources: [SOURCES.googleCrawlers],
  },
  check(ctx) {
    const r = homeAnswer(ctx);
    const samples = ttfbSamples(ctx);
    const ms = Math.round(median(samples));
    const status = ms < QUICK_MS * (1 + MARGIN)
      ? "pass"
      : ms < SLOW_MS * (1 + MARGIN)
      ? "warn"
      : "fail";
    return {
      status,
      detail:
        `The home page's first byte arrived after ${ms} ms (the median of ${samples.length} answer${
          samples.length === 1 ? "" : "s"
        }${r.redirects.length ? ", redirects included" : ""}).`,
      evidence: [
        `median first byte: ${ms} ms (${samples.length} samples, from ${
          Math.round(Math.min(...samples))
        } to ${Math.round(Math.max(...samples))} ms)`,
      ],
    };
  },
  fix: (ctx) => ({
    what: "Answer faster",
    why:
      "AI crawlers and user-fetch agents work on tight time budgets; slow pages are skipped or cut.",
    how: howText(
      byHand(
        "cache the HTML at a CDN or in the application, and aim for a time to first byte under 800 ms.",
      ),
      checkAfterwards("that the first byte of the home page arrives within 800 ms:"),
      codeBlock(
        `curl -so /dev/null -w '%{time_starttransfer}\\n' '${ctx.pageUrl.replace(/'/g, "%27")}'`,
        "sh",
      ),
    ),
    effort: "M",
  }),
};
