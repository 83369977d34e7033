/**
 * The AI Visibility Checker's scan, as the service definition and the scan threads run it
 * (lib/service.ts ScannerModule): a thread loads this module, not the pages.
 */
import type { RunDeps, RunOutcome } from "../../service.ts";
import type { Target } from "../../kit/net/target.ts";
import type { ScanRecord } from "../../engines/visibility/record.ts";
import { scanSite } from "../../engines/visibility/scan.ts";
import { boundOutcome } from "../../kit/limits/record_budget.ts";
import type { VisibilityStep } from "../../engines/visibility/snapshot.ts";

/** Scans a site (lib/engines/visibility/scan.ts), reporting each typed step it starts. */
export async function run(
  target: Target,
  { config, now, signal, onProgress }: RunDeps<VisibilityStep>,
): Promise<RunOutcome<ScanRecord>> {
  const { record, failure } = await scanSite(target, {
    config,
    now,
    signal,
    onProgress: onProgress && ((id, text) => onProgress({ id, text })),
  });
  return boundOutcome({ record, failure });
}
