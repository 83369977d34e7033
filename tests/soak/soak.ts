/**
 * Soak: the real server (main.ts, a subprocess on loopback) under a steady mixed load of report
 * reads, cache-hit scans (client key) and new scans (pipeline token, rotating client IPs) of
 * loopback sites, for a bounded time. Reports requests, 5xx, latency percentiles per kind and
 * the server's resident memory over the run, and whether memory levels off.
 *
 *   deno task soak                      # 2 minutes (the soak)
 *   deno task soak --duration=30 --rps=80
 *
 * Everything stays on this machine: the sites, the fake off-site services and the server listen on
 * 127.0.0.1, every scanned name is in SCAN_RESOLVE, and the load loop stops at its deadline (with
 * a hard cap on the number of requests).
 */
import { createApiKey } from "../../lib/kit/auth/keys.ts";
import { startFakeOffSite } from "../fixtures/offsite_server.ts";
import { poll200, startServer, startTaskV8Flags } from "../security/helpers/server_process.ts";
import { decentSite, startSiteServer } from "../security/helpers/sites.ts";
import { createStore } from "../../lib/app/server.ts";

/** Options of {@link runSoak}. */
export interface SoakOptions {
  durationMs: number;
  /** Requests started per second (open loop). */
  rps: number;
  /** Requests in flight at most; a tick that finds this many skips (counted). */
  maxInFlight?: number;
  /** Shares of each kind of request; they are normalised. */
  mix?: { report: number; cacheHit: number; newScan: number };
  /** Progress lines. */
  log?: (line: string) => void;
  /** The server's V8 flags; by default those of `deno task start` (its heap cap). */
  v8Flags?: string;
}

/** Latency and outcome figures of one kind of request. */
export interface KindStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  /** Answers other than the expected status. */
  unexpected: number;
}

/** What a soak measured. */
export interface SoakResult {
  durationMs: number;
  requests: number;
  skipped: number;
  errors5xx: number;
  networkErrors: number;
  kinds: Record<string, KindStats>;
  /** Server RSS in bytes: after warm-up, at 25/50/75/100% of the run. */
  rss: {
    start: number | null;
    q1: number | null;
    mid: number | null;
    q3: number | null;
    end: number | null;
  };
  /**
   * RSS of each half of the run, from the 10 s samples (the first 10% of the run, the server's
   * ramp-up, left out). V8's heap makes RSS a sawtooth (~200-270 MB here, period ~100 s): a leak
   * shows as a rising floor (the lowest, post-GC sample), so floors are compared; peaks are
   * reported too.
   */
  firstHalf: { floor: number; peak: number } | null;
  secondHalf: { floor: number; peak: number } | null;
  /** Second-half floor minus first-half floor, in bytes. */
  floorGrowth: number | null;
  /** The floor grew by at most max(32 MB, 15%) (null: run too short to judge). */
  levelsOff: boolean | null;
  newScansAdmitted: number;
  newScansStored: number;
  /** Server RSS every 10 s of the run. */
  samples: { atS: number; rss: number }[];
  /**
   * V8's live heap after each full (mark-compact) GC of the server, in MB, from --trace-gc: what
   * the JavaScript side really holds. A leak in JS shows here as a rising series; growth in RSS
   * alone is V8 sizing its heap or native memory (SQLite's cache, buffers).
   */
  heapAfterGc: { firstHalf: number | null; secondHalf: number | null; count: number };
  /** The server's connection and error log lines (the first 20), to explain network errors. */
  serverEvents: string[];
}

const MiB = 1024 * 1024;
const PIPELINE = "soak-pipeline-token-0123456789abcdef";
const WARM = ["w1.test", "w2.test", "w3.test", "w4.test", "w5.test"];

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs one soak and returns its figures (throws only when the set-up fails). */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => {});
  const mix = options.mix ?? { report: 0.7, cacheHit: 0.25, newScan: 0.05 };
  const total = mix.report + mix.cacheHit + mix.newScan;
  const maxInFlight = options.maxInFlight ?? 64;
  const maxRequests = Math.ceil((options.durationMs / 1000) * options.rps * 1.2) + 100;
  const newHostCount = Math.ceil(maxRequests * (mix.newScan / total) * 1.5) + 20;
  const newHosts = Array.from({ length: newHostCount }, (_, i) => `n${i + 1}.test`);

  const dir = await Deno.makeTempDir({ prefix: "soak-" });
  const sites = startSiteServer({}, { fallback: decentSite });
  const offSite = await startFakeOffSite({
    commonCrawl: { captures: Object.fromEntries(WARM.map((h) => [h, 10])) },
  });
  const kvPath = `${dir}/kv.sqlite3`;
  const kv = await Deno.openKv(kvPath);
  const { key } = await createApiKey(createStore(kv, "visibility"), "uvk_", { name: "soak" });
  kv.close();
  const server = await startServer({
    KV_PATH: kvPath,
    PIPELINE_TOKEN: PIPELINE,
    TRUST_PROXY: "1",
    SCAN_RESOLVE: [
      sites.scanResolve([...WARM, ...newHosts]),
      [...offSite.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`).join(","),
    ].join(","),
    WIKIDATA_API_URL: offSite.config.wikidataApiUrl,
    WIKIPEDIA_API_URL: offSite.config.wikipediaApiUrl,
    COMMONCRAWL_INDEX_URL: offSite.config.commonCrawlIndexUrl,
    OFFSITE_TIMEOUT_MS: "1500",
    SCAN_TIMEOUT_MS: "15000",
  }, {
    v8Flags: [options.v8Flags ?? startTaskV8Flags(), "--trace-gc"].filter(Boolean).join(","),
  });
  const base = server.base;
  try {
    // Warm-up: the domains that report reads and cache hits use.
    for (const [i, h] of WARM.entries()) {
      const res = await fetch(`${base}/api/scan`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${PIPELINE}`,
          "x-forwarded-for": `192.0.2.${i + 1}`,
        },
        body: JSON.stringify({ url: h }),
      });
      await res.body?.cancel();
      if (res.status !== 202 && res.status !== 200) throw new Error(`warm-up ${h}: ${res.status}`);
    }
    for (const h of WARM) await poll200(() => fetch(`${base}/api/report/${h}.json`), 30_000);
    // A few rounds of each kind so the JIT and caches settle before the first memory sample.
    for (let i = 0; i < 50; i++) {
      const r = await fetch(`${base}/api/report/${WARM[i % WARM.length]}.json`);
      await r.body?.cancel();
    }
    const rss: SoakResult["rss"] = {
      start: await server.rss(),
      q1: null,
      mid: null,
      q3: null,
      end: null,
    };
    log(`warm-up done; server RSS ${rss.start ? Math.round(rss.start / MiB) : "?"} MB`);

    const latencies: Record<string, number[]> = { report: [], cacheHit: [], newScan: [] };
    const statuses: Record<string, Record<string, number>> = {
      report: {},
      cacheHit: {},
      newScan: {},
    };
    const expected: Record<string, number> = { report: 200, cacheHit: 200, newScan: 202 };
    let inFlight = 0;
    let requests = 0;
    let skipped = 0;
    let networkErrors = 0;
    let errors5xx = 0;
    let newIndex = 0;
    const admitted: string[] = [];
    const running = new Set<Promise<void>>();
    const samples: { atS: number; rss: number }[] = [];

    const one = async (kind: string) => {
      let url: string;
      let init: RequestInit;
      if (kind === "report") {
        url = `${base}/api/report/${WARM[Math.floor(Math.random() * WARM.length)]}.json`;
        init = {};
      } else if (kind === "cacheHit") {
        url = `${base}/api/scan`;
        init = {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: JSON.stringify({ url: WARM[Math.floor(Math.random() * WARM.length)] }),
        };
      } else {
        const i = newIndex++;
        const host = newHosts[i % newHosts.length];
        url = `${base}/api/scan`;
        init = {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${PIPELINE}`,
            // 8 new scans an hour per IP: a new client address every 8 scans.
            "x-forwarded-for": `198.18.${Math.floor(i / 8 / 250)}.${(Math.floor(i / 8) % 250) + 1}`,
          },
          body: JSON.stringify({ url: host }),
        };
      }
      const t0 = performance.now();
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        latencies[kind].push(performance.now() - t0);
        statuses[kind][res.status] = (statuses[kind][res.status] ?? 0) + 1;
        if (res.status >= 500) errors5xx++;
        if (kind === "newScan" && res.status === 202) {
          admitted.push(JSON.parse(init.body as string).url);
        }
      } catch {
        networkErrors++;
      }
    };

    const started = performance.now();
    const interval = 1000 / options.rps;
    const sampleAt = [0.25, 0.5, 0.75].map((f) => f * options.durationMs);
    const sampleKeys = ["q1", "mid", "q3"] as const;
    let nextTick = started;
    const outputAt: { settled?: number; half?: number } = {};
    let lastReport = started;
    while (performance.now() - started < options.durationMs && requests < maxRequests) {
      const elapsed = performance.now() - started;
      if (outputAt.settled === undefined && elapsed >= options.durationMs / 10) {
        outputAt.settled = server.output().length;
      }
      if (outputAt.half === undefined && elapsed >= options.durationMs / 2) {
        outputAt.half = server.output().length;
      }
      while (sampleAt.length && elapsed >= sampleAt[0]) {
        sampleAt.shift();
        const k = sampleKeys[2 - sampleAt.length];
        server.rss().then((v) => (rss[k] = v));
      }
      if (performance.now() - lastReport >= 10_000) {
        lastReport = performance.now();
        const at = Math.round(elapsed / 1000);
        const line = `${at} s: ${requests} requests, ${errors5xx} 5xx, ${networkErrors} network ` +
          `errors, ${inFlight} in flight`;
        server.rss().then((v) => {
          if (v !== null) samples.push({ atS: at, rss: v });
          log(`${line}, server RSS ${v === null ? "?" : Math.round(v / MiB)} MB`);
        });
      }
      if (inFlight >= maxInFlight) skipped++;
      else {
        const r = Math.random() * total;
        const kind = r < mix.report
          ? "report"
          : r < mix.report + mix.cacheHit
          ? "cacheHit"
          : "newScan";
        requests++;
        inFlight++;
        const p = one(kind).finally(() => {
          inFlight--;
          running.delete(p);
        });
        running.add(p);
      }
      nextTick += interval;
      const wait = nextTick - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await Promise.all([...running]);
    const durationMs = performance.now() - started;
    rss.end = await server.rss();

    // The new scans admitted during the run all end with a stored record.
    let stored = 0;
    const until = Date.now() + 60_000;
    const pending = new Set(admitted);
    while (pending.size && Date.now() < until) {
      for (const h of [...pending]) {
        const r = await fetch(`${base}/api/report/${h}.json`);
        await r.body?.cancel();
        if (r.status === 200) {
          pending.delete(h);
          stored++;
        }
      }
      if (pending.size) await new Promise((r) => setTimeout(r, 500));
    }

    const kinds: Record<string, KindStats> = {};
    for (const k of Object.keys(latencies)) {
      const sorted = [...latencies[k]].sort((a, b) => a - b);
      kinds[k] = {
        count: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
        statuses: statuses[k],
        unexpected: Object.entries(statuses[k])
          .filter(([s]) => Number(s) !== expected[k])
          .reduce((a, [, n]) => a + n, 0),
      };
    }
    if (rss.end !== null) samples.push({ atS: Math.round(durationMs / 1000), rss: rss.end });
    samples.sort((a, b) => a.atS - b.atS);
    const halfS = durationMs / 2000;
    const settled = samples.filter((x) => x.atS >= durationMs / 10_000);
    const range = (xs: { rss: number }[]) =>
      xs.length
        ? { floor: Math.min(...xs.map((x) => x.rss)), peak: Math.max(...xs.map((x) => x.rss)) }
        : null;
    const firstHalf = range(settled.filter((x) => x.atS <= halfS));
    const secondHalf = range(settled.filter((x) => x.atS > halfS));
    const floorGrowth = firstHalf && secondHalf && settled.length >= 6
      ? secondHalf.floor - firstHalf.floor
      : null;
    const levelsOff = floorGrowth === null || !firstHalf
      ? null
      : floorGrowth <= Math.max(32 * MiB, firstHalf.floor * 0.15);
    // --trace-gc lines: "[pid:addr]   12345 ms: Mark-Compact 40.1 (52.3) -> 31.2 (50.1) MB, ...",
    // taken from the server's output between 10% and 50%, and after 50% of the run.
    const fullGcs = (text: string) =>
      [...text.matchAll(/ms: (?:Incremental )?Mark-Compact[^\n]*?-> ([\d.]+) \(/g)].map((m) =>
        Number(m[1])
      );
    const out = server.output();
    const minOf = (xs: number[]) => xs.length ? Math.min(...xs) : null;
    const first = fullGcs(out.slice(outputAt.settled ?? out.length, outputAt.half ?? out.length));
    const second = fullGcs(out.slice(outputAt.half ?? out.length));
    const heapAfterGc = {
      firstHalf: minOf(first),
      secondHalf: minOf(second),
      count: first.length + second.length,
    };
    const serverEvents = out.split("\n")
      .filter((l) => /"event":"(conn\.|http\.(error|accept|restart)|store\.)/.test(l)).slice(0, 20);
    return {
      serverEvents,
      heapAfterGc,
      durationMs,
      requests,
      skipped,
      errors5xx,
      networkErrors,
      kinds,
      rss,
      firstHalf,
      secondHalf,
      floorGrowth,
      levelsOff,
      newScansAdmitted: admitted.length,
      newScansStored: stored,
      samples,
    };
  } finally {
    await server.kill();
    await offSite.close();
    await sites.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The figures as text. */
export function formatSoak(r: SoakResult): string {
  const mb = (n: number | null) => (n === null ? "?" : `${Math.round(n / MiB)} MB`);
  const lines = [
    `Soak: ${(r.durationMs / 1000).toFixed(1)} s, ${r.requests} requests (${
      Math.round(r.requests / (r.durationMs / 1000))
    }/s), ${r.errors5xx} 5xx, ${r.networkErrors} network errors, ${r.skipped} ticks skipped at the in-flight cap`,
  ];
  for (const [k, s] of Object.entries(r.kinds)) {
    lines.push(
      `  ${k.padEnd(9)} ${String(s.count).padStart(6)} requests  p50 ${s.p50.toFixed(1)} ms  p99 ${
        s.p99.toFixed(1)
      } ms  max ${s.max.toFixed(1)} ms  statuses ${JSON.stringify(s.statuses)}`,
    );
  }
  lines.push(
    `  server RSS: start ${mb(r.rss.start)}, 25% ${mb(r.rss.q1)}, 50% ${mb(r.rss.mid)}, 75% ${
      mb(r.rss.q3)
    }, end ${mb(r.rss.end)}`,
    `  RSS floor/peak: first half ${mb(r.firstHalf?.floor ?? null)}/${
      mb(r.firstHalf?.peak ?? null)
    }, second half ${mb(r.secondHalf?.floor ?? null)}/${mb(r.secondHalf?.peak ?? null)} (${
      r.levelsOff === null ? "run too short to judge" : r.levelsOff ? "levels off" : "STILL GROWING"
    })`,
    `  RSS every 10 s: ${r.samples.map((x) => Math.round(x.rss / MiB)).join(" ")} MB`,
    `  V8 live heap after full GCs (lowest): first half ${r.heapAfterGc.firstHalf ?? "?"} MB, ` +
      `second half ${r.heapAfterGc.secondHalf ?? "?"} MB (${r.heapAfterGc.count} full GCs)`,
    `  new scans: ${r.newScansAdmitted} admitted, ${r.newScansStored} stored`,
    ...r.serverEvents.map((e) => `  server: ${e}`),
  );
  return lines.join("\n");
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const a = Deno.args.find((x) => x.startsWith(`--${name}=`));
    return a ? Number(a.split("=")[1]) : fallback;
  };
  const result = await runSoak({
    durationMs: arg("duration", 120) * 1000,
    rps: arg("rps", 60),
    log: (l) => console.log(l),
  });
  console.log(formatSoak(result));
  const ok = result.errors5xx === 0 && result.networkErrors === 0 &&
    Object.values(result.kinds).every((k) => k.unexpected === 0) &&
    result.newScansStored === result.newScansAdmitted && result.levelsOff !== false;
  Deno.exit(ok ? 0 : 1);
}
