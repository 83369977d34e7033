/**
 * Answer presence's jobs, run in the server's workers (lib/kit/isolate/process_pool.ts; registered in
 * lib/app/server.ts JOB_KINDS): the site's home page read and parsed for its facts, and each vendor
 * answer parsed and judged. The server's thread sends them and acts on their small, bounded
 * answers; it parses nothing a site or a vendor sent (tests/security/server_thread_test.ts).
 */
import type { JobKind, ThreadJobModules } from "../../kit/isolate/protocol.ts";

/** Answer presence's job kinds. */
export const ANSWERS_JOBS: readonly JobKind[] = [
  {
    kind: "site-facts",
    module: new URL("./site_facts.ts", import.meta.url),
    what: "answer presence: a watched site's home page fetched and parsed for its facts",
  },
  {
    kind: "vendor-answer",
    module: new URL("./vendor_answer.ts", import.meta.url),
    what: "answer presence: a vendor's answer parsed and judged for the site",
  },
  {
    kind: "first-party-csv",
    module: new URL("./first_party_job.ts", import.meta.url),
    what: "answer presence: a Bing AI Performance or Search Console CSV export read",
  },
];

/** The modules of {@link ANSWERS_JOBS}, by kind (the CLI runs them in its own isolate). */
export function answersJobModules(): ThreadJobModules {
  return Object.fromEntries(ANSWERS_JOBS.map((k) => [k.kind, k.module.href]));
}
