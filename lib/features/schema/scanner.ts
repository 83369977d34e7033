/**
 * The Schema Markup Generator's scan, as the service definition and the scan threads run it
 * (lib/service.ts ScannerModule): a thread loads this module, not the pages.
 */
import type { RunDeps, RunOutcome } from "../../service.ts";
import type { Target } from "../../kit/net/target.ts";
import type { SchemaScanRecord } from "../../engines/structured/record.ts";
import { scanPage } from "../../engines/schema/scan.ts";
// The one RFC 9309 reader (lib/schema may not import lib/visibility; the service joins them).
import { robotsForRender } from "../../engines/visibility/render_step.ts";
// Which crawlers render (sources and dates in docs/rendering.md), for "who sees which item".
import { CRAWLER_RENDERING } from "../../engines/visibility/crawlers.ts";
import { boundOutcome } from "../../kit/limits/record_budget.ts";

/** The steps of a schema scan, as it reports them (its progress card places a scan by them). */
export type SchemaStep = "fetching" | "rendering" | "validating";

/** Scans the page the target names (lib/engines/schema/scan.ts), reporting each typed step it starts. */
export async function run(
  target: Target,
  { config, now, signal, onProgress }: RunDeps<SchemaStep>,
): Promise<RunOutcome<SchemaScanRecord>> {
  onProgress?.({ id: "fetching", text: "fetching the page and reading its structured data" });
  const { record, failure } = await scanPage(target, {
    config,
    now,
    signal,
    readRobots: robotsForRender,
    readers: CRAWLER_RENDERING,
    // A rendering scan (target.render) reports its browser's steps under their own id.
    onProgress: onProgress && ((text) => onProgress({ id: "rendering", text })),
  });
  onProgress?.({ id: "validating", text: "validating and writing the JSON-LD" });
  return boundOutcome({ record, failure });
}
