/**
 * The Schema Markup Generator's scan, as the service definition and the scan threads run it
 * (lib/service.ts ScannerModule): a thread loads this module, not the pages.
 */
import type { RunDeps, RunOutcome } from "../../service.ts";
import type { Target } from "../../net/target.ts";
import type { SchemaScanRecord } from "../../structured/record.ts";
import { scanPage } from "../../schema/scan.ts";
import { boundOutcome } from "../../limits/record_budget.ts";

/** The steps of a schema scan, as it reports them (its progress card places a scan by them). */
export type SchemaStep = "fetching" | "validating";

/** Scans the page the target names (lib/schema/scan.ts), reporting each typed step it starts. */
export async function run(
  target: Target,
  { config, now, signal, onProgress }: RunDeps<SchemaStep>,
): Promise<RunOutcome<SchemaScanRecord>> {
  onProgress?.({ id: "fetching", text: "fetching the page and reading its structured data" });
  const { record, failure } = await scanPage(target, { config, now, signal });
  onProgress?.({ id: "validating", text: "validating and writing the JSON-LD" });
  return boundOutcome({ record, failure });
}
