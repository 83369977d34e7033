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

async function wrk(url: string): Promise<{ rps: number; p99: string }> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", "-c32", `-d${SECONDS}s`, "--latency", url],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (/Non-2xx/.test(text)) throw new Error(`non-2xx answers from ${url}`);
  return {
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p99: text.match(/99%\s+(\S+)/)?.[1] ?? "?",
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
  for (let i = 0; i < ROUNDS; i++) {
    const bare = await wrk(`${servers["0"].base}/api/report/${HOST}.json`);
    const guarded = await wrk(`${servers["1"].base}/api/report/${HOST}.json`);
    ratios.push(guarded.rps / bare.rps);
    console.log(
      `round ${i + 1}: Deno.serve alone ${Math.round(bare.rps)} req/s (p99 ${bare.p99}), ` +
        `guarded ${Math.round(guarded.rps)} req/s (p99 ${guarded.p99}): ${
          Math.round((guarded.rps / bare.rps) * 100)
        }%`,
    );
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `median: guarded = ${
      Math.round(ratios[Math.floor(ratios.length / 2)] * 100)
    }% of Deno.serve alone`,
  );
} finally {
  for (const s of Object.values(servers)) await s.kill();
  await offSite.close();
  await sites.close();
  await Deno.remove(dir, { recursive: true });
}
