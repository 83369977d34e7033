/**
 * The CLI's `--baseline FILE` (lib/app/cli.ts): a saved ScanRecord (the JSON of `--json`, of
 * GET /api/report/<domain>.json or of a kept scan's link) compared with a fresh scan, for CI. A
 * regression (lib/engines/history/diff.ts: a lower score, a failed scan, or a new critical issue) fails.
 */
import { ScanRecordSchema } from "../visibility/record.ts";
import type { BaseRecord } from "../../kit/storage/store_types.ts";
import type { ScanDiff } from "./diff.ts";
import { findRegressions, type Regression } from "./regressions.ts";

/** A baseline file that cannot be used, with a message that says why. */
export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BaselineError";
  }
}

/** Reads and validates a saved record. @throws BaselineError */
export async function readBaseline(path: string): Promise<BaseRecord> {
  let text;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new BaselineError(`Cannot read the baseline ${path}: ${(e as Error).message}`);
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BaselineError(`The baseline ${path} is not JSON`);
  }
  const parsed = ScanRecordSchema.safeParse(json);
  if (!parsed.success) {
    throw new BaselineError(
      `The baseline ${path} is not a scan record (save one with --json, or from ` +
        "GET /api/report/<domain>.json)",
    );
  }
  return parsed.data;
}

/**
 * The comparison of a fresh record with the baseline, as the CLI prints it. A regression is the
 * diff's (a lower score, a failed scan, a new critical issue) or a watch alert's
 * (lib/engines/history/regressions.ts: a crawler newly blocked, a new score cap, a rich result lost...), so
 * CI and the watch alerts fail on the same things.
 */
export function compareWithBaseline(
  baseline: BaseRecord,
  fresh: BaseRecord,
): { diff: ScanDiff; regressions: Regression[]; regression: boolean; lines: string[] } {
  const { diff, regressions } = findRegressions(baseline, fresh, {
    minScoreDrop: Number.MIN_VALUE,
  });
  const reasons = [
    ...diff.regressionReasons,
    // What the diff's reasons do not already say (a gate is a new critical issue there).
    ...regressions.filter((r) => r.kind === "crawler_blocked" || r.kind === "rich_result_lost")
      .map((r) => r.text.replace(/\.$/, "")),
  ];
  const regression = diff.regression || regressions.length > 0;
  const lines = [
    `Compared with the baseline scanned ${baseline.scannedAt}` +
    (baseline.domain !== fresh.domain ? ` (of ${baseline.domain})` : "") + ":",
    ...diff.summary.map((s) => `  ${s}`),
    regression ? `Regression: ${reasons.join("; ")}.` : "No regression against the baseline.",
  ];
  return { diff, regressions, regression, lines };
}
