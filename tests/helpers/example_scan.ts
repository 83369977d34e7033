/**
 * Scans the home page's example site (the fixture no-llms.test) through the in-process app with
 * its worker, and returns the stored ScanRecord (used to write lib/features/visibility/views/example_record.json and to
 * check it is still what a scan produces).
 */
import { PIPELINE, startAppEnv } from "./app_env.ts";
import type { ScanRecord } from "../../lib/engines/visibility/record.ts";

/** The fixture the example report is made from. */
export const EXAMPLE_HOST = "no-llms.test";

/** Scans {@link EXAMPLE_HOST} and returns its record. */
export async function scanFixtureRecord(): Promise<ScanRecord> {
  const env = await startAppEnv({ worker: true, challenge: "altcha" });
  try {
    const res = await env.scan({ url: EXAMPLE_HOST }, { auth: `Bearer ${PIPELINE}` });
    await res.body?.cancel();
    for (let i = 0; i < 200; i++) {
      const stored = await env.store.getScan(EXAMPLE_HOST);
      if (stored && !(await env.store.getInflight(EXAMPLE_HOST))) {
        return stored.record as ScanRecord;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the scan of ${EXAMPLE_HOST} did not finish`);
  } finally {
    await env.close();
  }
}
