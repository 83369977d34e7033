/**
 * The example report on the home page: the first screen of a real report (score, what holds it
 * back, the first fixes), rendered from a ScanRecord that scanning the fixture site no-llms.test
 * produced (lib/features/visibility/views/example_record.json, written by `deno task facts` and
 * held to a fresh scan by tests/facts_test.ts). Clearly labelled as an example.
 */
import type { VNode } from "preact";
import type { ScanRecord } from "../../../engines/visibility/record.ts";
import { LEARN_INDEX_PATH } from "../../../kit/report_urls.ts";
import { ReportSummary } from "./report_summary.tsx";
import example from "./example_record.json" with { type: "json" };

/** The stored example record. */
export const EXAMPLE_RECORD = example as ScanRecord;

/** The example report block of the home page. */
export function ExampleReport(): VNode {
  return (
    <section class="example-report" aria-labelledby="example-title">
      <h2 id="example-title">What a report looks like</h2>
      <p class="muted">
        <strong>Example</strong>: the report of a sample site from our test suite, a small plumbing
        tips blog ({EXAMPLE_RECORD.domain}, not a real domain) with the gaps most small sites have.
        A real report goes on with every fix in order and every check by pillar, each linked to{" "}
        <a href={LEARN_INDEX_PATH}>what the check means</a>.
      </p>
      <div class="example-frame">
        <p class="example-tag" aria-hidden="true">Example</p>
        <ReportSummary record={EXAMPLE_RECORD} example />
      </div>
    </section>
  );
}
