/**
 * Serving at the runtime's floor (issue 30, item 1): `GET /api/report/<domain>.json` of a stored
 * record (~14 KB, the good.test fixture's scan) from the real server started as `deno task start`
 * starts it (its permissions, V8 flags and default loopback bind; request logs on, written to a
 * file), against a bare `Deno.serve` process answering the same bytes (with the start task's V8
 * flags, if it has any), in
 * alternating `wrk -t1 -c32` rounds. A third process is the same server bound to every interface
 * (`HOST=0.0.0.0`: the connection guard in front), so the guard's cost on a public bind is a
 * ratio measured in the same rounds.
 *
 *   deno run -A tests/bench/serve_floor.ts [--rounds=5] [--seconds=5] [--server-env=NAME=value]...
 *
 * `--server-env` adds a setting to both servers' environment (e.g. LOG_REQUESTS=0, to see what a
 * setting costs).
 *
 * Prints each round, the median ratios (budget: loopback >= 50% of bare), the server CPU time per
 * request of each process (less sensitive to a busy machine than throughput), and the load. Then,
 * on the loopback server: the p99 latency at half its throughput (open loop, against the bare
 * server at the same rate), and `POST /api/scan` answered from the cache for a client API key,
 * against the bare server reading the same POST and answering the same bytes (budget >= 30%).
 */
import { startFixtureSites } from "../fixtures/site_server.ts";
import { startFakeOffSite } from "../fixtures/offsite_server.ts";
import { FOUND_EVERYWHERE } from "../helpers/scan_env.ts";
import { startTaskArgs } from "../helpers/start_task_server.ts";
import {
  cpuSecondsOf,
  machineLoad,
  rateLoad,
  startLogged,
  type StartTaskProcess,
  startTaskProcess,
} from "./server_probe.ts";
import { Store } from "../../lib/kit/storage/store.ts";
import { createApiKey } from "../../lib/kit/auth/keys.ts";

const arg = (name: string, fallback: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const ROUNDS = arg("rounds", 5);
const SECONDS = arg("seconds", 5);
const PIPELINE = "bench-pipeline-token-0123456789abcdef";
const HOST = "good.test";
const SERVER_ENV = Object.fromEntries(
  Deno.args.filter((a) => a.startsWith("--server-env=")).map((a) => {
    const [name, ...value] = a.slice("--server-env=".length).split("=");
    return [name, value.join("=")];
  }),
);

interface Wrk {
  rps: number;
  p99: string;
  /** The server's CPU time per request (all its threads), in µs. */
  cpuUs: number;
}

async function wrk(url: string, pid: number, extra: string[] = []): Promise<Wrk> {
  const cpu0 = await cpuSecondsOf(pid);
  const out = await new Deno.Command("wrk", {
    args: ["-t1", "-c32", `-d${SECONDS}s`, "--latency", ...extra, url],
    stdout: "piped",
  }).output();
  const cpu = (await cpuSecondsOf(pid)) - cpu0;
  const text = new TextDecoder().decode(out.stdout);
  if (/Non-2xx/.test(text)) throw new Error(`non-2xx answers from ${url}:\n${text}`);
  const requests = Number(text.match(/(\d+) requests in/)?.[1] ?? 0);
  return {
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p99: text.match(/^\s+99%\s+(\S+)/m)?.[1] ?? "?",
    cpuUs: requests ? (cpu * 1e6) / requests : NaN,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (x: number) => `${Math.round(x * 100)}%`;

const loadBefore = await machineLoad();
const sites = await startFixtureSites();
const off = await startFakeOffSite(FOUND_EVERYWHERE);
const dir = await Deno.makeTempDir({ prefix: "serve-floor-" });
const env = (name: string, extra: Record<string, string> = {}) => ({
  KV_PATH: `${dir}/${name}.sqlite3`,
  PIPELINE_TOKEN: PIPELINE,
  SCAN_RESOLVE: [
    sites.scanResolve,
    ...[...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`),
  ].join(","),
  WIKIDATA_API_URL: off.config.wikidataApiUrl,
  WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
  COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
  ...SERVER_ENV,
  ...extra,
});

/** Scans HOST through `server` and returns the stored record's bytes as served. */
async function storeRecord(server: StartTaskProcess): Promise<Uint8Array> {
  const res = await fetch(`${server.base}/api/scan`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${PIPELINE}` },
    body: JSON.stringify({ url: HOST }),
  });
  if (res.status !== 202 && res.status !== 200) {
    throw new Error(`scan: ${res.status} ${await res.text()}`);
  }
  await res.body?.cancel();
  const until = Date.now() + 60_000;
  for (;;) {
    const r = await fetch(`${server.base}/api/report/${HOST}.json`);
    if (r.status === 200) return new Uint8Array(await r.arrayBuffer());
    await r.body?.cancel();
    if (Date.now() > until) throw new Error(`no record after 60 s:\n${await server.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A client API key, written into the KV file before the server opens it. */
async function seedApiKey(kvPath: string): Promise<string> {
  const kv = await Deno.openKv(kvPath);
  try {
    return (await createApiKey(new Store(kv, "visibility"), "uvk_", { name: "bench" })).key;
  } finally {
    kv.close();
  }
}

const started: StartTaskProcess[] = [];
try {
  const key = await seedApiKey(env("loopback").KV_PATH);
  const loopback = await startTaskProcess(env("loopback"));
  started.push(loopback);
  const publicBind = await startTaskProcess(
    env("public", {
      HOST: "0.0.0.0",
      PUBLIC_URL: "http://bench.example/",
      MCP_ALLOWED_HOSTS: "bench.example",
    }),
  );
  started.push(publicBind);
  const record = await storeRecord(loopback);
  await storeRecord(publicBind);
  const file = `${dir}/record.json`;
  await Deno.writeFile(file, record);
  // The start task's V8 flags, if it has any.
  const v8 = (await startTaskArgs()).filter((a) => a.startsWith("--v8-flags="));
  const bare = await startLogged(Deno.execPath(), [
    "run",
    "--allow-net=127.0.0.1",
    `--allow-read=${file}`,
    ...v8,
    new URL("./bare_server.ts", import.meta.url).pathname,
    file,
  ], {});
  started.push(bare);
  const connectionsLine = (text: string) => text.match(/^Connections: .*$/m)?.[0] ?? "?";
  console.log(`record: ${(record.length / 1024).toFixed(1)} KB; ${loadBefore}`);
  console.log(`loopback server:  ${connectionsLine(await loopback.output())}`);
  console.log(`0.0.0.0 server:   ${connectionsLine(await publicBind.output())}`);

  const path = `/api/report/${HOST}.json`;
  // Warm-up: the report cache, V8's optimisation of the hot path, wrk's connections.
  for (const s of [bare, loopback, publicBind]) {
    await new Deno.Command("wrk", { args: ["-t1", "-c32", "-d1s", `${s.base}${path}`] }).output();
  }
  const rounds: { bare: Wrk; loopback: Wrk; public: Wrk }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await wrk(`${bare.base}/`, bare.pid);
    const l = await wrk(`${loopback.base}${path}`, loopback.pid);
    const p = await wrk(`${publicBind.base}${path}`, publicBind.pid);
    rounds.push({ bare: b, loopback: l, public: p });
    const f = (w: Wrk) =>
      `${Math.round(w.rps)} req/s, p99 ${w.p99}, ${w.cpuUs.toFixed(0)} µs CPU/req`;
    console.log(
      `round ${i + 1}: bare ${f(b)} | loopback ${f(l)} = ${pct(l.rps / b.rps)} | ` +
        `0.0.0.0 (guard) ${f(p)} = ${pct(p.rps / b.rps)}`,
    );
  }
  const ratio = median(rounds.map((r) => r.loopback.rps / r.bare.rps));
  const guardRatio = median(rounds.map((r) => r.public.rps / r.loopback.rps));
  const publicRatio = median(rounds.map((r) => r.public.rps / r.bare.rps));
  const cpu = (k: "bare" | "loopback" | "public") => median(rounds.map((r) => r[k].cpuUs));
  const ok = ratio >= 0.5;
  console.log(
    `${ok ? "OK  " : "MISS"} GET ${path} on the default loopback bind = ${pct(ratio)} of bare ` +
      `Deno.serve with the same ${(record.length / 1024).toFixed(1)} KB (median of ${ROUNDS} ` +
      `rounds; budget >= 50%)`,
  );
  console.log(
    `     on a public bind (HOST=0.0.0.0, connection guard): ${pct(publicRatio)} of bare, ` +
      `${pct(guardRatio)} of the loopback server`,
  );
  console.log(
    `     server CPU per request (median): bare ${cpu("bare").toFixed(0)} µs, loopback ` +
      `${cpu("loopback").toFixed(0)} µs (${(cpu("loopback") / cpu("bare")).toFixed(2)}x), ` +
      `0.0.0.0 ${cpu("public").toFixed(0)} µs (${(cpu("public") / cpu("bare")).toFixed(2)}x)`,
  );

  // p99 at half the loopback server's throughput, open loop, alternating with the bare server at
  // the same rate (what the loader and the machine add themselves); the median of the rounds.
  const half = Math.round(median(rounds.map((r) => r.loopback.rps)) / 2);
  const lat: { ours: number; bare: number }[] = [];
  for (let i = 0; i < Math.min(ROUNDS, 3); i++) {
    const b = await rateLoad(`${bare.base}/`, Math.min(half, 20_000), 4);
    const o = await rateLoad(`${loopback.base}${path}`, Math.min(half, 20_000), 4);
    lat.push({ ours: o.p99, bare: b.p99 });
  }
  const p99 = median(lat.map((l) => l.ours));
  console.log(
    `${p99 < 5 ? "OK  " : "MISS"} p99 at half that rate (${half} req/s, open loop): ${p99} ms ` +
      `(bare server at the same rate: ${median(lat.map((l) => l.bare))} ms; budget < 5 ms)`,
  );

  // POST /api/scan answered from the cache for a client key, against the bare POST floor.
  const lua = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(
    lua,
    `wrk.method = "POST"\nwrk.body = '{"url":"${HOST}"}'\nwrk.headers["Content-Type"] = ` +
      `"application/json"\nwrk.headers["Authorization"] = "Bearer ${key}"\n`,
  );
  const posts: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await wrk(`${bare.base}/`, bare.pid, ["-s", lua]);
    const o = await wrk(`${loopback.base}/api/scan`, loopback.pid, ["-s", lua]);
    posts.push(o.rps / b.rps);
  }
  const postRatio = median(posts);
  console.log(
    `${postRatio >= 0.3 ? "OK  " : "MISS"} POST /api/scan answered from the cache, client key = ` +
      `${pct(postRatio)} of bare Deno.serve reading the POST and answering the same bytes ` +
      `(rounds: ${posts.map(pct).join(", ")}; budget >= 30%)`,
  );
  console.log(`     ${loadBefore} before; ${await machineLoad()} after`);
  await Deno.mkdir(new URL("../output/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL("../output/serve_floor.json", import.meta.url),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        loadBefore,
        loadAfter: await machineLoad(),
        recordBytes: record.length,
        ratio,
        publicRatio,
        guardRatio,
        rounds,
        p99AtHalfRate: { rate: half, rounds: lat },
        postCacheHit: { ratio: postRatio, rounds: posts },
      },
      null,
      2,
    ),
  );
  if (!ok) Deno.exitCode = 1;
} finally {
  for (const s of started) await s.kill();
  await off.close();
  await sites.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
