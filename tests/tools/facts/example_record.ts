/**
 * The home page's example report (lib/features/visibility/views/example_record.json) as a generated fact: a real
 * ScanRecord of the fixture site no-llms.test (a small plumbing-tips blog with the gaps most small
 * sites have), scanned through the app on loopback with the test clock, exactly as a visitor's scan
 * runs. The figures a run measures (the home page's times to its first byte, their median and how
 * many answers it took) are ignored when two records are compared, so the file changes only when a
 * scan would say something else.
 */
import { scanFixtureRecord } from "../../helpers/example_scan.ts";
import type { ScanRecord } from "../../../lib/engines/visibility/record.ts";

/** Where the example record lives, relative to the repository. */
export const EXAMPLE_RECORD_FILE = "lib/features/visibility/views/example_record.json";

/** The record as the file holds it. */
export function exampleRecordText(record: ScanRecord): string {
  return JSON.stringify(record, null, 2) + "\n";
}

/** The record's JSON with what a run measures masked. */
function masked(text: string): string {
  return JSON.stringify(JSON.parse(text, (key, value) => {
    if (key === "ttfbMs") return 0;
    return typeof value === "string"
      ? value.replace(/after \d+ ms\b/g, "after <ms> ms")
        // The first-byte verdict's own figures (technical.response_time: a median of samples).
        .replace(/median of \d+ answers/g, "median of <n> answers")
        .replace(
          /median first byte: \d+ ms \(\d+ samples, from \d+ to \d+ ms\)/g,
          "median first byte: <ms>",
        )
      : value;
  }));
}

/** True when two record texts say the same, measured timings aside. */
export function sameExample(a: string, b: string): boolean {
  return masked(a) === masked(b);
}

/** A fresh scan of the example's fixture site. */
export async function freshExampleRecord(): Promise<string> {
  return exampleRecordText(await scanFixtureRecord());
}
