/**
 * The figures measured in one process (the library's parts, not the served process): report reads
 * while argon2id hashes beside them, the rate limiter pinned to one core, and one home-page scan
 * against slow sites. Loopback only; every loop is bounded. Prints one line per figure with its
 * budget and writes tests/output/bench.json (BENCHMARKS.md records a run).
 *
 *   deno run -A tests/bench/load.ts [--quick]
 *
 * What the server does as `deno task start` runs it is measured by tests/bench/serve_floor.ts
 * (serving against the runtime's floor) and tests/bench/memory_peaks.ts (memory, the queue).
 */
import { rateLoad } from "./server_probe.ts";
import { loadConfig } from "../../lib/kit/config.ts";
import { hashPassword } from "../../lib/kit/auth/password.ts";
import { visibilityService } from "../../lib/features/visibility/service.ts";
import { createServer } from "../../lib/app/server.ts";
import { scanSite } from "../../lib/engines/visibility/scan.ts";
import { OffSiteCache } from "../../lib/engines/offsite/cache.ts";
import { startFixtureSites } from "../fixtures/site_server.ts";
import { startFakeOffSite } from "../fixtures/offsite_server.ts";
import { FOUND_EVERYWHERE } from "../helpers/scan_env.ts";

const QUICK = Deno.args.includes("--quick");
const results: Record<string, unknown> = {};

function line(name: string, value: string, budget: string, ok: boolean | null) {
  const mark = ok === null ? "   " : ok ? "OK " : "MISS";
  console.log(`${mark.padEnd(5)}${name.padEnd(58)}${value.padEnd(34)}budget: ${budget}`);
}

function serve(handler: Deno.ServeHandler): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
}

const port = (s: Deno.HttpServer<Deno.NetAddr>) => s.addr.port;

// ---------------------------------------------------------------- a real record to serve
const sites = await startFixtureSites();
const off = await startFakeOffSite(FOUND_EVERYWHERE);
const resolve = [
  sites.scanResolve,
  ...[...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`),
];
const env = {
  SCAN_RESOLVE: resolve.join(","),
  WIKIDATA_API_URL: off.config.wikidataApiUrl,
  WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
  COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
  PIPELINE_TOKEN: "bench-pipeline-token",
};
const config = loadConfig(env);
const { record } = await scanSite("good.test", { config, offSiteCache: new OffSiteCache() });

// Built as main.ts builds it (lib/app/server.ts), without a worker, served in this process: the
// hashing figure below needs the hashes and the reads in one process.
const built = await createServer(config, {
  kv: await Deno.openKv(":memory:"),
  exclusive: true,
  service: visibilityService,
  challenge: { widget: { kind: "turnstile", siteKey: "x" }, verify: () => Promise.resolve(false) },
  log: () => {},
  worker: false,
});
const { kv, store } = built;
await store.finishScan({
  kind: "scan",
  service: "visibility",
  jobId: "bench",
  target: { domain: "good.test", url: "https://good.test/", host: "good.test" },
  credential: "pipeline",
  enqueuedAt: Date.now(),
}, { record, failure: null, credential: "pipeline", durationMs: 1, jobId: "bench" });
const ours = serve(built.handler);

const reportUrl = `http://127.0.0.1:${port(ours)}/api/report/good.test.json`;

// ---------------------------------------------------------------- password hashing vs report reads
const RATE = 1000;
const calm = await rateLoad(reportUrl, RATE, QUICK ? 3 : 5);
let hashing = true;
let hashes = 0;
const hasher = (async () => {
  while (hashing) {
    await Promise.all(
      Array.from({ length: 20 }, () => hashPassword("correct horse battery staple")),
    );
    hashes += 20;
  }
})();
const busy = await rateLoad(reportUrl, RATE, QUICK ? 3 : 5);
hashing = false;
await hasher;
line(
  `report reads at ${RATE}/s while 20 logins hash at once (argon2id)`,
  `p99 ${busy.p99} ms (calm: ${calm.p99} ms; ${hashes} hashes)`,
  "p99 < 10 ms",
  busy.p99 < 10,
);
results.hashingStall = { rate: RATE, calm, busy, hashes };

await ours.shutdown();

// ---------------------------------------------------------------- the rate limiter, one core
// Pinned to one CPU with taskset (util-linux), so "one core" is literal: the KV's own thread
// shares it with the JavaScript.
const pinned = await new Deno.Command("taskset", { args: ["-c", "0", "true"] }).output()
  .then((o) => o.success, () => false);
const limiterRun = await new Deno.Command(pinned ? "taskset" : Deno.execPath(), {
  args: [
    ...(pinned ? ["-c", "0", Deno.execPath()] : []),
    "run",
    "-A",
    new URL("./limiter_rate.ts", import.meta.url).pathname,
    QUICK ? "1" : "2",
  ],
  stdout: "piped",
}).output();
const lim = JSON.parse(new TextDecoder().decode(limiterRun.stdout));
const core = pinned ? "one core" : "not pinned: no taskset";
line(
  `rate limiter (${core}), local KV: admissions, 16 callers`,
  `${lim.local.admittedConcurrent}/s (one at a time: ${lim.local.admittedSequential}/s)`,
  ">= 5,000/s",
  lim.local.admittedConcurrent >= 5000 && lim.local.admittedSequential >= 5000,
);
line(
  "  refusals (pool full)",
  `${lim.local.refusedConcurrent}/s (one at a time: ${lim.local.refusedSequential}/s)`,
  ">= 5,000/s",
  lim.local.refusedConcurrent >= 5000 && lim.local.refusedSequential >= 5000,
);
line(
  "  exact: 200 concurrent callers into a pool of 8",
  `local ${lim.local.exact ? "8 admitted" : "WRONG"}, file ${
    lim.localFile.exact ? "8" : "WRONG"
  }, shared KV ${lim.shared.exact ? "8" : "WRONG"}`,
  "exactly 8",
  lim.local.exact && lim.localFile.exact && lim.shared.exact,
);
line(
  "  local KV on a real file (each commit waits for the disk)",
  `${lim.localFile.admittedConcurrent}/s (one at a time: ${lim.localFile.admittedSequential}/s)`,
  "-",
  null,
);
line(
  "  shared KV (KV Connect, Deploy): read, decide, checked commit",
  `${lim.shared.admittedConcurrent}/s (one at a time: ${lim.shared.admittedSequential}/s)`,
  "-",
  null,
);
line("  floor: one atomic KV commit of one key", `${lim.commitFloorSequential}/s`, "-", null);
results.limiter = { pinnedToOneCore: pinned, ...lim };

// ---------------------------------------------------------------- one scan, every response 100 ms late
const slowSites = await startFixtureSites({ delayMs: 100 });
const slowConfig = loadConfig({
  ...env,
  SCAN_RESOLVE: [slowSites.scanResolve, ...resolve.slice(1)].join(","),
});
// Since the site audit (issue 19) every request of a scan to the site goes through one limit of 2
// in flight, so the scan's floor is its request count over 2, in 100 ms rounds. The budget keeps the
// old one's slack over that floor (500 ms was one 100 ms round + 400 ms for the scan's own work).
const walls: number[] = [];
let scanRequests = 0;
for (let i = 0; i < 5; i++) {
  slowSites.requests.length = 0;
  const t0 = performance.now();
  // The home-page scan (pages: 1); the site audit's own wall-time ratio is tests/bench/audit_bench.ts.
  const o = await scanSite("good.test", {
    config: slowConfig,
    offSiteCache: new OffSiteCache(),
    pages: 1,
  });
  if (o.record.status !== "ok") throw new Error("slow scan failed");
  walls.push(performance.now() - t0);
  scanRequests = Math.max(scanRequests, slowSites.requests.length);
}
walls.sort((a, b) => a - b);
const scanFloorMs = Math.ceil(scanRequests / 2) * 100;
line(
  "one home-page scan (pages: 1), every response 100 ms late (median of 5)",
  `${walls[2].toFixed(0)} ms (${scanRequests} requests, floor ${scanFloorMs} ms)`,
  `< floor + 400 ms = ${scanFloorMs + 400} ms`,
  walls[2] < scanFloorMs + 400,
);
results.scanWall = {
  medianMs: walls[2],
  runsMs: walls,
  requests: scanRequests,
  floorMs: scanFloorMs,
};
await slowSites.close();

kv.close();
await off.close();
await sites.close();
await Deno.mkdir(new URL("../output/", import.meta.url), { recursive: true });
await Deno.writeTextFile(
  new URL("../output/bench.json", import.meta.url),
  JSON.stringify(results, null, 2),
);
console.log("\nwrote tests/output/bench.json");
