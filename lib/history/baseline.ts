/**
 * The CLI's `--baseline FILE` (lib/cli.ts): a saved ScanRecord (the JSON of `--json`, of
 * GET /api/report/<domain>.json or of a kept scan's link) compared with a fresh scan, for CI. A
 * regression (lib/history/diff.ts: a lower score, a failed scan, or a new critical issue) fails.
 */
import { ScanRecordSchema } from "../visibility/record.ts";
import type { BaseRecord } from "../service.ts";
import { diffRecords, type ScanDiff } from "./diff.ts";

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

/** The comparison of a fresh record with the baseline, as the CLI prints it. */
export function compareWithBaseline(
  baseline: BaseRecord,
  fresh: BaseRecord,
): { diff: ScanDiff; lines: string[] } {
  const diff = diffRecords(baseline, fresh);
  const lines = [
    `Compared with the baseline scanned ${baseline.scannedAt}` +
    (baseline.domain !== fresh.domain ? ` (of ${baseline.domain})` : "") + ":",
    ...diff.summary.map((s) => `  ${s}`),
    diff.regression
      ? `Regression: ${diff.regressionReasons.join("; ")}.`
      : "No regression against the baseline.",
  ];
  return { diff, lines };
}
