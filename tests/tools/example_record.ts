/**
 * Writes the example report the home page shows (lib/features/visibility/views/example_record.json): a real ScanRecord,
 * produced by scanning the fixture site no-llms.test (a small plumbing-tips blog with the gaps most
 * small sites have) through the app on loopback, exactly as a visitor's scan runs. Run again after
 * changing the scoring or the fixes; tests/features/visibility/example_record_test.ts fails until you do.
 *
 *   deno run -A --config deno.json tests/tools/example_record.ts
 */
import { scanFixtureRecord } from "../helpers/example_scan.ts";

const OUT = new URL("../../lib/features/visibility/views/example_record.json", import.meta.url);

if (import.meta.main) {
  const record = await scanFixtureRecord();
  await Deno.writeTextFile(OUT, JSON.stringify(record, null, 2) + "\n");
  console.log(`${OUT.pathname}: ${record.domain} ${record.result?.score}/100`);
}
