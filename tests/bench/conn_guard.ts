/**
 * The connection guard's cost on the hot path: `GET /api/report/<domain>.json` of a stored record
 * served by the real server (main.ts as `deno task start` runs it: its V8 flags), once behind the
 * guard (the default) and once with CONN_GUARD=0 (Deno.serve alone), in alternating wrk rounds.
 * Loopback only. docs/connections.md records a run.
 *
 *   deno run -A tests/bench/conn_guard.ts [--rounds=3] [--seconds=5]
 */
import { startFakeOffSite } from "../fixtures/offsite_server.ts";
import { poll200, startServer, startTaskV8Flags } from "../security/helpers/server_process.ts";
import { decentSite, startSiteServer } from "../security/helpers/sites.ts";

const arg = (name: string, fallback: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const ROUNDS = arg("rounds", 3);
const SECONDS = arg("seconds", 5);
const PIPELINE = "bench-pipeline-token-0123456789abcdef";
const HOST = "bench.test";

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * One wrk run against a server process: throughput, p99, and the server's CPU time per request
 * (which depends far less on what else this shared machine is doing than throughput does).
 */
async function wrk(url: string, pid: number): Promise<{ rps: number; p99: string; cpuUs: number }> {
  const cpu0 = await cpuSeconds(pid);
  const out = await new Deno.Command("wrk", {
    args: ["-t1", "-c32", `-d${SECONDS}s`, "--latency", url],
    stdout: "piped",
  }).output();
  const cpu = (await cpuSeconds(pid)) - cpu0;
  const text = new TextDecoder().decode(out.stdout);
  if (/Non-2xx/.test(text)) throw new Error(`non-2xx answers from ${url}`);
  const requests = Number(text.match(/(\d+) requests in/)?.[1] ?? 0);
  return {
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p99: text.match(/^\s+99%\s+(\S+)/m)?.[1] ?? "?",
    cpuUs: requests ? (cpu * 1e6) / requests : NaN,
  };
}

const sites = startSiteServer({}, { fallback: decentSite });
const offSite = await startFakeOffSite({});
const servers: Record<string, Awaited<ReturnType<typeof startServer>>> = {};
const dir = await Deno.makeTempDir({ prefix: "conn-guard-bench-" });
try {
  for (const guard of ["1", "0"]) {
    const server = await startServer({
      KV_PATH: `${dir}/kv-${guard}.sqlite3`,
      PIPELINE_TOKEN: PIPELINE,
      CONN_GUARD: guard,
      LOG_REQUESTS: "0",
      SCAN_RESOLVE: [
        sites.scanResolve([HOST]),
        [...offSite.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`).join(","),
      ].join(","),
      WIKIDATA_API_URL: offSite.config.wikidataApiUrl,
      WIKIPEDIA_API_URL: offSite.config.wikipediaApiUrl,
      COMMONCRAWL_INDEX_URL: offSite.config.commonCrawlIndexUrl,
      OFFSITE_TIMEOUT_MS: "1500",
    }, { v8Flags: startTaskV8Flags() });
    servers[guard] = server;
    const res = await fetch(`${server.base}/api/scan`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
      body: JSON.stringify({ url: HOST }),
    });
    await res.body?.cancel();
    await (await poll200(() => fetch(`${server.base}/api/report/${HOST}.json`), 30_000)).body
      ?.cancel();
  }
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (let i = 0; i < ROUNDS; i++) {
    const bare = await wrk(`${servers["0"].base}/api/report/${HOST}.json`, servers["0"].pid);
    const guarded = await wrk(`${servers["1"].base}/api/report/${HOST}.json`, servers["1"].pid);
    ratios.push(guarded.rps / bare.rps);
    cpuRatios.push(guarded.cpuUs / bare.cpuUs);
    console.log(
      `round ${i + 1}: Deno.serve alone ${Math.round(bare.rps)} req/s, p99 ${bare.p99}, ` +
        `${bare.cpuUs.toFixed(0)} µs CPU/request; guarded ${Math.round(guarded.rps)} req/s, ` +
        `p99 ${guarded.p99}, ${guarded.cpuUs.toFixed(0)} µs CPU/request`,
    );
  }
  console.log(
    `median: guarded throughput = ${Math.round(median(ratios) * 100)}% of Deno.serve alone; ` +
      `server CPU per request = ${median(cpuRatios).toFixed(2)}×`,
  );
} finally {
  for (const s of Object.values(servers)) await s.kill();
  await offSite.close();
  await sites.close();
  await Deno.remove(dir, { recursive: true });
}
