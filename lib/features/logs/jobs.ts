/**
 * The server-log feature's jobs, run in the server's workers (lib/kit/isolate/process_pool.ts;
 * registered in lib/app/server.ts JOB_KINDS): an upload read as it streams in (read_job.ts, in
 * workers of its own with a heap of LOG_READ_HEAP_MB), and a site's report joined with its
 * robots.txt (report_job.ts). The server's thread moves the upload's bytes and the site's text into
 * them and acts on their small answers; it parses nothing of either
 * (tests/security/server_thread_test.ts).
 */
import type { JobKind } from "../../kit/isolate/protocol.ts";

/** The feature's job kinds (the services that read logs only). */
export const LOGS_JOBS: readonly JobKind[] = [
  {
    kind: "log-read",
    module: new URL("./read_job.ts", import.meta.url),
    what: "server logs: an uploaded log read as it streams in (only crawler counters come back)",
    when: (s) => s.readsServerLogs === true,
    heapMb: (config) => config.logs.readHeapMb,
  },
  {
    kind: "log-report",
    module: new URL("./report_job.ts", import.meta.url),
    what: "server logs: a site's report joined with its robots.txt",
    when: (s) => s.readsServerLogs === true,
  },
];
