/**
 * Everything fits in 512 MB (issue 30, item 2): the peak resident memory of the server (all its
 * threads: /proc/<pid>/status VmHWM) in four loads, each on a fresh server started as
 * `deno task start` starts it (its permissions and flags), budget < 400 MB each. The server runs
 * its scans and jobs in worker processes (SCAN_ISOLATION=process, the default): the figure is the
 * whole process tree's memory (the sum of its processes' PSS, sampled every 250 ms; the server's
 * own VmHWM and the cgroup's peak are printed beside it):
 *
 * 1. queue: 500 scans of fixture sites through the job queue;
 * 2. hostile: four hostile pages of the hostile suite (tests/fixtures/hostile_pages.ts) at once;
 * 3. validate: sixteen maximal (1 MiB) code validations at once (schema service);
 * 4. audit: four 50-page site audits at once.
 *
 * Where it can (root, cgroup v1 or v2 writable), each server runs in a memory cgroup of 512 MB:
 * the machine really is 512 MB for it (the memory plan reads the container's limit, and the
 * kernel ends a process that does not fit). Elsewhere it sets MEMORY_MB=512 and says so.
 *
 *   deno run -A tests/bench/memory_peaks.ts [--only=queue|hostile|validate|audit] [--scans=500]
 *     [--server-env=NAME=value]...
 *
 * `--server-env` adds a setting to every server's environment (e.g. SCAN_THREADS=4).
 */
import { startFakeOffSite } from "../fixtures/offsite_server.ts";
import { startAuditSites } from "../fixtures/audit_sites.ts";
import {
  machineLoad,
  type StartTaskProcess,
  startTaskProcess,
  treeSampler,
} from "./server_probe.ts";

const ONLY = Deno.args.find((a) => a.startsWith("--only="))?.slice(7) ?? null;
const SCANS = Number(Deno.args.find((a) => a.startsWith("--scans="))?.slice(8) ?? 500);
const MEMORY_MB = 512;
const BUDGET_MB = 400;
const PIPELINE = "bench-pipeline-token-0123456789abcdef";
const ROOT = new URL("../../", import.meta.url).pathname;
const SERVER_ENV = Object.fromEntries(
  Deno.args.filter((a) => a.startsWith("--server-env=")).map((a) => {
    const [name, ...value] = a.slice("--server-env=".length).split("=");
    return [name, value.join("=")];
  }),
);
const results: Record<string, unknown> = { date: new Date().toISOString(), env: SERVER_ENV };

function line(name: string, value: string, budget: string, ok: boolean | null) {
  const mark = ok === null ? "   " : ok ? "OK " : "MISS";
  console.log(`${mark.padEnd(5)}${name}\n       ${value}; budget: ${budget}`);
}

// ------------------------------------------------------------------ a 512 MB memory cgroup
/** A memory cgroup of `mb` MB to start servers in, or null where none can be made. */
async function memoryCgroup(mb: number): Promise<{ path: string; close(): Promise<void> } | null> {
  const name = `aiv-bench-${Deno.pid}`;
  for (
    const [dir, limitFile] of [
      [`/sys/fs/cgroup/${name}`, "memory.max"], // cgroup v2
      [`/sys/fs/cgroup/memory/${name}`, "memory.limit_in_bytes"], // cgroup v1
    ]
  ) {
    try {
      await Deno.mkdir(dir);
    } catch {
      continue;
    }
    try {
      // A real cgroup: the kernel fills the directory (a plain directory would take the files).
      await Deno.stat(`${dir}/cgroup.procs`);
      await Deno.writeTextFile(`${dir}/${limitFile}`, String(mb * 1048576));
      // No swap to hide in (v1 needs both limits; v2 has its own file).
      await Deno.writeTextFile(`${dir}/memory.memsw.limit_in_bytes`, String(mb * 1048576))
        .catch(() => Deno.writeTextFile(`${dir}/memory.swap.max`, "0").catch(() => {}));
      return { path: dir, close: () => Deno.remove(dir).catch(() => {}) };
    } catch {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
  return null;
}

const cgroup = await memoryCgroup(MEMORY_MB);
const how = cgroup
  ? `in a ${MEMORY_MB} MB memory cgroup (${cgroup.path})`
  : `with MEMORY_MB=${MEMORY_MB} (no memory cgroup could be made here)`;
console.log(`servers run ${how}; ${await machineLoad()}`);
results.how = how;

/** Starts the server as the start task does, in the cgroup (or with MEMORY_MB). */
async function startServer(env: Record<string, string>): Promise<StartTaskProcess> {
  const server = await startTaskProcess(
    cgroup ? env : { ...env, MEMORY_MB: String(MEMORY_MB) },
    {
      ...(cgroup ? { cgroupProcs: `${cgroup.path}/cgroup.procs` } : {}),
      extraV8Flags: Deno.env.get("BENCH_V8_FLAGS"),
    },
  );
  const out = await server.output();
  for (const l of out.split("\n")) if (/^(Memory|Scan isolation):/.test(l)) console.log(`  ${l}`);
  return server;
}

/** The cgroup's peak memory (pages of its processes and the file cache it caused), in MB. */
async function cgroupPeakMb(): Promise<number | null> {
  if (!cgroup) return null;
  const text = await Deno.readTextFile(`${cgroup.path}/memory.max_usage_in_bytes`)
    .catch(() => Deno.readTextFile(`${cgroup.path}/memory.peak`)).catch(() => "");
  return text ? Math.round(Number(text.trim()) / 1048576) : null;
}

/** Starts the cgroup's peak afresh (v1: writing 0; v2 has no reset: the peak since creation). */
async function resetCgroupPeak(): Promise<void> {
  if (cgroup) {
    await Deno.writeTextFile(`${cgroup.path}/memory.max_usage_in_bytes`, "0").catch(() => {});
  }
}

/** The server's peak resident memory so far, all threads (VmHWM), in MB; and whether it lives. */
async function peakOf(server: StartTaskProcess): Promise<{ peakMb: number; alive: boolean }> {
  const status = await Deno.readTextFile(`/proc/${server.pid}/status`).catch(() => "");
  return {
    peakMb: Math.round(Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024),
    alive: status !== "",
  };
}

async function post(base: string, path: string, body: unknown, ip: string): Promise<number> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${PIPELINE}`,
      "x-forwarded-for": ip,
    },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

/** Polls each domain's report until stored; returns their statuses ("missing" past the wait). */
async function stored(base: string, domains: string[], timeoutMs: number) {
  const out = new Map<string, string>();
  const until = Date.now() + timeoutMs;
  while (out.size < domains.length && Date.now() < until) {
    const left = domains.filter((d) => !out.has(d));
    for (let i = 0; i < left.length; i += 50) {
      await Promise.all(
        left.slice(i, i + 50).map(async (d) => {
          const res = await fetch(`${base}/api/report/${d}.json`).catch(() => null);
          if (res?.status === 200) out.set(d, (await res.json()).status);
          else await res?.body?.cancel();
        }),
      );
    }
    if (out.size < domains.length) await new Promise((r) => setTimeout(r, 200));
  }
  return domains.map((d) => out.get(d) ?? "missing");
}

const count = (xs: string[]) =>
  Object.entries(xs.reduce<Record<string, number>>((c, x) => (c[x] = (c[x] ?? 0) + 1, c), {}))
    .map(([k, v]) => `${v} ${k}`).join(", ");

const dir = await Deno.makeTempDir({ prefix: "memory-bench-" });
const off = await startFakeOffSite({});
const offEnv = {
  WIKIDATA_API_URL: off.config.wikidataApiUrl,
  WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
  COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
  OFFSITE_TIMEOUT_MS: "1500",
};
const offResolve = [...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`);
let misses = 0;

/** Runs one load against a fresh server and prints its peak. */
async function scenario(
  name: string,
  env: Record<string, string>,
  load: (server: StartTaskProcess) => Promise<string>,
) {
  if (ONLY && ONLY !== name) return;
  const server = await startServer({
    KV_PATH: `${dir}/${name}.sqlite3`,
    PIPELINE_TOKEN: PIPELINE,
    TRUST_PROXY: "1",
    ...offEnv,
    ...env,
    ...SERVER_ENV,
  });
  const idle = await peakOf(server);
  await resetCgroupPeak();
  const tree = await treeSampler(server.pid, 250);
  const t0 = performance.now();
  let what: string;
  try {
    what = await load(server);
  } catch (error) {
    what = `failed: ${(error as Error).message}`;
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const { peakMb: serverMb, alive } = await peakOf(server);
  const peakMb = Math.round(await tree.stop() / 1048576);
  const idleTreeMb = Math.round(tree.idle / 1048576);
  const cgroupMb = await cgroupPeakMb();
  const out = await server.output();
  if (Deno.env.get("BENCH_LOG")) await Deno.writeTextFile(Deno.env.get("BENCH_LOG")!, out);
  await server.kill();
  const ok = alive && peakMb < BUDGET_MB && !what.startsWith("failed");
  if (!ok) misses++;
  line(
    `${name}: ${what}`,
    alive
      ? `peak ${peakMb} MB, all processes (idle ${idleTreeMb} MB); the server alone ${serverMb} ` +
        `MB (idle ${idle.peakMb} MB)${
          cgroupMb === null ? "" : `; the cgroup's peak with its file cache ${cgroupMb} MB`
        }; ${seconds} s`
      : `the server died (${out.slice(-300)})`,
    `< ${BUDGET_MB} MB`,
    ok,
  );
  results[name] = {
    what,
    peakMb,
    idleMb: idleTreeMb,
    serverPeakMb: serverMb,
    serverIdleMb: idle.peakMb,
    cgroupPeakMb: cgroupMb,
    alive,
    seconds: Number(seconds),
  };
}

// ------------------------------------------------------------------ 1. the queue
const wildcard = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
  const host = (req.headers.get("host") ?? "").split(":")[0];
  const path = new URL(req.url).pathname;
  if (path === "/") {
    return new Response(
      `<!doctype html><html lang="en"><head><title>${host} | Queue bench</title><meta name="description" content="A page of ${host} used to measure the queue."></head><body><main><h1>${host}</h1>${
        "<p>Some words about what this site does, for whom and where. ".repeat(40)
      }</p></main></body></html>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  }
  if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
  return new Response("not found", { status: 404 });
});
const hosts = Array.from({ length: SCANS }, (_, i) => `q${i}.test`);
await scenario("queue", {
  AUDIT_PAGES: "1",
  SCAN_RESOLVE: [...hosts.map((h) => `${h}=127.0.0.1:${wildcard.addr.port}`), ...offResolve]
    .join(","),
}, async (server) => {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 8 }, async (_, lane) => {
    for (let i = lane; i < SCANS; i += 8) {
      const ip = `198.18.${Math.floor(i / 8) >> 8}.${Math.floor(i / 8) & 255}`;
      const status = await post(server.base, "/api/scan", { url: hosts[i] }, ip);
      if (status !== 202) throw new Error(`scan ${hosts[i]}: ${status}`);
    }
  }));
  const statuses = await stored(server.base, hosts, 600_000);
  const rate = SCANS / ((performance.now() - t0) / 1000);
  return `${SCANS} scans: ${count(statuses)}, ${rate.toFixed(0)} scans/s`;
});
await wildcard.shutdown();

// ------------------------------------------------------------------ 2. hostile pages
const HOSTILE = ["bomb.test", "nested.test", "graph.test", "tables.test"];
if (!ONLY || ONLY === "hostile") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--no-check", "tests/fixtures/hostile_pages.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!/port \d+/.test(said)) said += (await reader.read()).value ?? "";
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  const port = Number(said.match(/port (\d+)/)![1]);
  await scenario("hostile", {
    SCAN_RESOLVE: [...HOSTILE.map((h) => `${h}=127.0.0.1:${port}`), ...offResolve].join(","),
    SCAN_TIMEOUT_MS: "30000",
  }, async (server) => {
    const statuses = await Promise.all(
      HOSTILE.map((h, i) =>
        post(server.base, "/api/scan", { url: `http://${h}/` }, `198.19.0.${i}`)
      ),
    );
    if (statuses.some((s) => s !== 202)) throw new Error(`scans: ${statuses}`);
    const records = await stored(server.base, HOSTILE, 180_000);
    return `${HOSTILE.join(", ")} at once: ${count(records)}`;
  });
  child.kill("SIGKILL");
  await child.status;
}

// ------------------------------------------------------------------ 3. sixteen validations
await scenario("validate", { SERVICE: "schema" }, async (server) => {
  // About 1 MiB of JSON-LD: as many empty objects as the largest code the service accepts holds
  // (1 MiB, once wrapped in the page it stands for: about 100 bytes more).
  const n = Math.floor((1024 * 1024 - 256) / 3);
  const jsonld = `[${Array(n).fill("{}").join(",")}]`;
  const answers = await Promise.all(
    Array.from({ length: 16 }, async (_, i) => {
      const res = await fetch(`${server.base}/api/validate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `198.20.0.${i}` },
        body: JSON.stringify({ jsonld }),
        signal: AbortSignal.timeout(600_000),
      }).catch((e) => ({ status: String(e).slice(0, 40), body: null }));
      await (res as Response).body?.cancel();
      return String(res.status);
    }),
  );
  const health = await fetch(`${server.base}/healthz`).then((r) => r.status, () => "down");
  return `16 x 1 MiB JSON-LD at once: ${count(answers)}; /healthz ${health}`;
});

// ------------------------------------------------------------------ 4. 50-page audits
if (!ONLY || ONLY === "audit") {
  const sites = startAuditSites();
  const audited = ["many1.test", "many2.test", "many3.test", "many4.test"];
  await scenario("audit", {
    AUDIT_PAGES: "50",
    SCAN_RESOLVE: [sites.scanResolve, ...offResolve].join(","),
  }, async (server) => {
    const statuses = await Promise.all(
      audited.map((h, i) => post(server.base, "/api/scan", { url: h }, `198.21.0.${i}`)),
    );
    if (statuses.some((s) => s !== 202)) throw new Error(`scans: ${statuses}`);
    const pages: number[] = [];
    const until = Date.now() + 300_000;
    const left = new Set(audited);
    while (left.size && Date.now() < until) {
      for (const h of [...left]) {
        const res = await fetch(`${server.base}/api/report/${h}.json`);
        if (res.status !== 200) {
          await res.body?.cancel();
          continue;
        }
        const record = await res.json();
        const sample = record.result?.pillars.flatMap((p: { signals: unknown[] }) => p.signals)
          .find((s: { id: string }) => s.id === "discovery.site_sample");
        pages.push(sample?.pages?.filter((p: { state: string }) => p.state === "read").length ?? 0);
        left.delete(h);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    if (left.size) throw new Error(`not stored: ${[...left]}`);
    return `4 x 50-page audits at once: pages read ${pages.join("/")}`;
  });
  await sites.close();
}

await off.close();
await cgroup?.close();
await Deno.remove(dir, { recursive: true }).catch(() => {});
console.log(`${await machineLoad()} at the end`);
await Deno.mkdir(new URL("../output/", import.meta.url), { recursive: true });
await Deno.writeTextFile(
  new URL("../output/memory_peaks.json", import.meta.url),
  JSON.stringify(results, null, 2),
);
if (misses) Deno.exitCode = 1;
