/**
 * Scans the home page's example site (the fixture no-llms.test) through the in-process app with
 * its worker, and returns the stored ScanRecord (tests/tools/facts/example_record.ts writes it to
 * lib/features/visibility/views/example_record.json and checks the file is still what a scan
 * produces).
 */
import { PIPELINE, startAppEnv } from "./app_env.ts";
import type { ScanRecord } from "../../lib/engines/visibility/record.ts";

/** The fixture the example report is made from. */
export const EXAMPLE_HOST = "no-llms.test";

/**
 * Scans {@link EXAMPLE_HOST} and returns its record. The fixture and the fake off-site APIs are on
 * loopback, so the scan's deadlines are raised far past what they need: a busy machine must not
 * turn a lookup into "unknown" and the example into something a quiet one would not write.
 */
export async function scanFixtureRecord(): Promise<ScanRecord> {
  const env = await startAppEnv({
    worker: true,
    challenge: "altcha",
    env: {
      SCAN_TIMEOUT_MS: "120000",
      REQUEST_TIMEOUT_MS: "60000",
      OFFSITE_TIMEOUT_MS: "60000",
      AUDIT_BUDGET_MS: "120000",
    },
  });
  try {
    const res = await env.scan({ url: EXAMPLE_HOST }, { auth: `Bearer ${PIPELINE}` });
    await res.body?.cancel();
    // Polled until the scan is stored; the bound (5 minutes) only keeps a broken scan from hanging.
    for (let i = 0; i < 6000; i++) {
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
