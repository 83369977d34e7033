/**
 * The rendering step's cost (lib/engines/render/, docs/rendering.md) against the raw scan, measured in the
 * same run, for one page and for a 10-page audit:
 *
 * 1. Wall time, in process: a scan of spa.test with `pages: 1`, then of many.test with `pages:
 *    10` (server-rendered pages, every fixture response 50 ms late), each without and with
 *    `render`. What rendering adds is budgeted against the floor of any rendering, measured in
 *    the same run: an empty browser session (start Chromium, open a context and a blank tab,
 *    close them). One page: at most 2 floors. Ten pages (rendered two at a time): at most 5 times
 *    what one page added.
 * 2. Memory: the real server (`deno task start`'s flags and V8 flags, plus the one permission local
 *    rendering needs: --allow-run=/usr/bin/chromium), one raw then one rendered 10-page scan of
 *    many.test through POST /api/scan: the server's peak RSS (its scan thread loads
 *    playwright-core) and, separately, the Chromium process tree's peak PSS (proportional set
 *    size: shared pages counted once).
 *
 *   deno run -A tests/bench/render_bench.ts [--only=wall|memory] [--runs=N]
 */
import { rssSampler, untilHealthy } from "./server_probe.ts";
import { loadConfig } from "../../lib/kit/config.ts";
import { OffSiteCache } from "../../lib/engines/offsite/cache.ts";
import { normaliseTarget } from "../../lib/kit/net/target.ts";
import { scanSite } from "../../lib/engines/visibility/scan.ts";
import { loadPlaywright } from "../../lib/engines/render/playwright.ts";
import { CHROMIUM } from "../e2e/browser.ts";
import { startAuditSites } from "../fixtures/audit_sites.ts";
import { startFakeOffSite } from "../fixtures/offsite_server.ts";
import { startRenderSites } from "../fixtures/render_sites.ts";
import { startLikeStartTask } from "../helpers/start_task_server.ts";

const ONLY = Deno.args.find((a) => a.startsWith("--only="))?.slice(7) ?? null;
const RUNS = Number(Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const part = (name: string) => !ONLY || ONLY === name;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const MB = 1024 * 1024;
let missed = 0;

/** Budgets (docs/rendering.md quotes them). */
export const BUDGETS = {
  /** What rendering adds to a one-page scan, in empty browser sessions. */
  onePageFloors: 2,
  /** What rendering adds to a 10-page scan, in what it added to one page. */
  tenPagesOnePage: 5,
  /** Server RSS a rendered scan adds over a raw one (its thread loads playwright-core). */
  serverExtraMb: 150,
  /** The Chromium process tree of one rendered scan, peak PSS. */
  chromiumMb: 700,
} as const;

function line(name: string, value: string, budget: string, ok: boolean | null) {
  const mark = ok === null ? "" : ok ? "OK" : "MISS";
  if (ok === false) missed++;
  console.log(`${mark.padEnd(5)}${name.padEnd(52)}${value.padEnd(34)}budget: ${budget}`);
}

const load = await Deno.readTextFile("/proc/loadavg").catch(() => "?");
console.log(`load average: ${load.split(" ").slice(0, 3).join(" ")}`);
const off = await startFakeOffSite({});
const offResolve = [...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`);
const baseEnv = {
  WIKIDATA_API_URL: off.config.wikidataApiUrl,
  WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
  COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
  OFFSITE_TIMEOUT_MS: "1000",
};

// ------------------------------------------------------------------------------ 1. wall time
if (part("wall")) {
  const render = startRenderSites();
  const audit = startAuditSites({ delayMs: 50 });
  const config = loadConfig({
    ...baseEnv,
    SCAN_RESOLVE: [render.scanResolve, audit.scanResolve, ...offResolve].join(","),
    SCAN_TIMEOUT_MS: "30000",
    RENDER_BUDGET_MS: "60000",
  });
  const scanMs = async (domain: string, pages: number, withRender: boolean) => {
    const target = { ...normaliseTarget(domain), ...(withRender ? { render: true } : {}) };
    const t0 = performance.now();
    const { record } = await scanSite(target, {
      config,
      pages,
      offSiteCache: new OffSiteCache(),
    });
    const ms = performance.now() - t0;
    if (withRender && record.render?.status !== "rendered") {
      throw new Error(`${domain}: ${record.render?.status} ${record.render?.reason}`);
    }
    return ms;
  };
  // The floor: an empty browser session (playwright-core already loaded, as in a scan thread).
  const { chromium } = await loadPlaywright();
  const floors: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const b = await chromium.launch({ executablePath: CHROMIUM, chromiumSandbox: false });
    const context = await b.newContext();
    await (await context.newPage()).goto("about:blank");
    await context.close();
    await b.close();
    floors.push(performance.now() - t0);
  }
  const floor = median(floors);
  line("empty browser session (median)", `${floor.toFixed(0)} ms`, "the floor", null);
  await scanMs("http://spa.test/", 1, true); // warm-up: module loading is not the scan's cost
  const added = async (domain: string, pages: number) => {
    const raw: number[] = [];
    const rendered: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      raw.push(await scanMs(domain, pages, false));
      rendered.push(await scanMs(domain, pages, true));
    }
    return { raw: median(raw), rendered: median(rendered) };
  };
  const one = await added("http://spa.test/", 1);
  const oneAdded = one.rendered - one.raw;
  line("one page (spa.test): raw scan", `${one.raw.toFixed(0)} ms`, "baseline", null);
  line(
    "one page: rendered scan",
    `${one.rendered.toFixed(0)} ms (+${oneAdded.toFixed(0)} ms)`,
    `+${BUDGETS.onePageFloors} floors = +${(BUDGETS.onePageFloors * floor).toFixed(0)} ms`,
    oneAdded <= BUDGETS.onePageFloors * floor,
  );
  const ten = await added("many.test", 10);
  const tenAdded = ten.rendered - ten.raw;
  line(
    "10-page audit (many.test, 50 ms/response): raw",
    `${ten.raw.toFixed(0)} ms`,
    "baseline",
    null,
  );
  line(
    "10-page audit: rendered scan",
    `${ten.rendered.toFixed(0)} ms (+${tenAdded.toFixed(0)} ms)`,
    `+${BUDGETS.tenPagesOnePage}x one page = +${
      (BUDGETS.tenPagesOnePage * oneAdded).toFixed(0)
    } ms`,
    tenAdded <= BUDGETS.tenPagesOnePage * oneAdded,
  );
  await render.close();
  await audit.close();
}

// --------------------------------------------------------------------------------- 2. memory
/** Every descendant of `pid` (children first found by `ps`). */
async function descendants(pid: number): Promise<number[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,ppid="], stdout: "piped" })
    .output();
  const children = new Map<number, number[]>();
  for (const row of new TextDecoder().decode(out.stdout).trim().split("\n")) {
    const [p, pp] = row.trim().split(/\s+/).map(Number);
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const all: number[] = [];
  const stack = [...(children.get(pid) ?? [])];
  while (stack.length) {
    const p = stack.pop()!;
    all.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return all;
}

/** Sum of PSS (shared pages split among sharers) of the given processes, in bytes. */
async function pssOf(pids: number[]): Promise<number> {
  let kb = 0;
  for (const pid of pids) {
    const text = await Deno.readTextFile(`/proc/${pid}/smaps_rollup`).catch(() => "");
    kb += Number(text.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
  }
  return kb * 1024;
}

if (part("memory")) {
  const audit = startAuditSites();
  const kv = await Deno.makeTempDir();
  const server = await startLikeStartTask({
    ...baseEnv,
    SCAN_RESOLVE: [audit.scanResolve, ...offResolve].join(","),
    PIPELINE_TOKEN: "bench-token",
    KV_PATH: `${kv}/kv.sqlite3`,
    LOG_REQUESTS: "0",
    RENDER_BUDGET_MS: "60000",
  });
  await untilHealthy(server.base, 100);
  const scanAndWait = async (domain: string, withRender: boolean) => {
    const res = await fetch(`${server.base}/api/scan`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench-token" },
      body: JSON.stringify({ url: domain, render: withRender, forceRescan: true }),
    });
    await res.body?.cancel();
    const since = Date.now();
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const r = await fetch(`${server.base}/api/report/${domain}.json`);
      if (r.status !== 200) {
        await r.body?.cancel();
        continue;
      }
      const record = await r.json();
      if (Date.parse(record.scannedAt) >= since - 1000) return record;
    }
    throw new Error(`${domain}: no record`);
  };
  const measure = async (domain: string, withRender: boolean) => {
    const rss = await rssSampler(server.pid, 50);
    let chromiumPeak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        chromiumPeak = Math.max(chromiumPeak, await pssOf(await descendants(server.pid)));
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const record = await scanAndWait(domain, withRender);
    sampling = false;
    await sampler;
    return { idle: rss.idle, peak: rss.stop(), chromiumPeak, record };
  };
  const raw = await measure("many1.test", false);
  const rendered = await measure("many2.test", true);
  line(
    "server RSS, raw 10-page scan (idle -> peak)",
    `${(raw.idle / MB).toFixed(0)} -> ${(raw.peak / MB).toFixed(0)} MB`,
    "baseline",
    null,
  );
  line(
    "server RSS, rendered 10-page scan (idle -> peak)",
    `${(rendered.idle / MB).toFixed(0)} -> ${(rendered.peak / MB).toFixed(0)} MB`,
    `raw peak + ${BUDGETS.serverExtraMb} MB`,
    rendered.peak <= raw.peak + BUDGETS.serverExtraMb * MB,
  );
  line(
    "Chromium process tree, peak PSS (separate process)",
    `${(rendered.chromiumPeak / MB).toFixed(0)} MB (${
      rendered.record.render?.pages.length ?? 0
    } pages ${rendered.record.render?.status})`,
    `${BUDGETS.chromiumMb} MB`,
    rendered.chromiumPeak <= BUDGETS.chromiumMb * MB && rendered.record.render?.status ===
        "rendered",
  );
  await server.kill();
  await audit.close();
  await Deno.remove(kv, { recursive: true }).catch(() => {});
}

await off.close();
if (missed) {
  console.log(`${missed} budget(s) missed`);
  Deno.exit(1);
}
