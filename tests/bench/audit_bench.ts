/**
 * The site audit's budgets (issue 19), each as a ratio against a baseline measured in the same run:
 *
 * 1. Wall time: a 10-page audit of many.test, every fixture response 100 ms late, against a
 *    single-page scan (`pages: 1`) of the same site: budget 4x; the fixture server counts the
 *    requests in flight (budget: at most 2 at any moment).
 * 2. CPU: the analysis the 9 other pages add (extraction, page signals, validation, site checks)
 *    against analysing the home page alone (extraction and every pillar): budget 3x.
 * 3. Memory: a real server process (main.ts, `deno task start`'s V8 flags, scans in threads with
 *    SCAN_HEAP_MB) under 4 concurrent 50-page audits: peak RSS, budget 300 MB.
 *
 *   deno run -A tests/bench/audit_bench.ts [--quick] [--only=wall|cpu|memory]
 *     [--memory-pages=N] [--heap-mb=N]
 */
import { rssSampler, untilHealthy } from "./server_probe.ts";
import { loadConfig } from "../../lib/kit/config.ts";
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import { OffSiteCache } from "../../lib/engines/offsite/cache.ts";
import { normaliseTarget } from "../../lib/kit/net/target.ts";
import { analysePage, type PageInput } from "../../lib/engines/visibility/audit/page.ts";
import type { AuditResult } from "../../lib/engines/visibility/audit/types.ts";
import { analyseSnapshot, scanSite } from "../../lib/engines/visibility/scan.ts";
import type { FetchOutcome, Snapshot } from "../../lib/engines/visibility/snapshot_types.ts";
import { auditFixturePage, startAuditSites } from "../fixtures/audit_sites.ts";
import { startFakeOffSite } from "../fixtures/offsite_server.ts";

const QUICK = Deno.args.includes("--quick");
/** `--only=wall|cpu|memory` runs one part; `--memory-pages=N` audits N pages in part 3 (default 50). */
const ONLY = Deno.args.find((a) => a.startsWith("--only="))?.slice(7) ?? null;
const MEMORY_PAGES = Number(
  Deno.args.find((a) => a.startsWith("--memory-pages="))?.slice(15) ?? 50,
);
const part = (name: string) => !ONLY || ONLY === name;
/** `--heap-mb=N`: the scan threads' heap cap in part 3 (SCAN_HEAP_MB; default the server's). */
const HEAP_MB = Deno.args.find((a) => a.startsWith("--heap-mb="))?.slice(10);
const results: Record<string, unknown> = {};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function line(name: string, value: string, budget: string, ok: boolean | null) {
  const mark = ok === null ? "   " : ok ? "OK " : "MISS";
  console.log(`${mark.padEnd(5)}${name.padEnd(60)}${value.padEnd(40)}budget: ${budget}`);
}

const off = await startFakeOffSite({});
const offResolve = [...off.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`);
const baseEnv = {
  WIKIDATA_API_URL: off.config.wikidataApiUrl,
  WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
  COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
  PIPELINE_TOKEN: "bench-pipeline-token",
};

// ------------------------------------------------------------ 1. wall time, 100 ms per response
if (part("wall")) {
  const sites = startAuditSites({ delayMs: 100 });
  const config = loadConfig({
    ...baseEnv,
    SCAN_RESOLVE: [sites.scanResolve, ...offResolve].join(","),
  });
  const single: number[] = [];
  const audit: number[] = [];
  let maxInFlight = 0;
  const rounds = QUICK ? 1 : 3;
  for (let i = 0; i < rounds; i++) {
    for (const pages of [1, 10]) {
      sites.maxInFlight.clear();
      const t0 = performance.now();
      const o = await scanSite("many.test", {
        config,
        pages,
        offSiteCache: new OffSiteCache(),
      });
      const ms = performance.now() - t0;
      if (o.record.status !== "ok") throw new Error("bench scan failed");
      if (pages === 1) single.push(ms);
      else {
        audit.push(ms);
        if ((o.audit?.pages.filter((p) => p.state === "read").length ?? 0) !== 10) {
          throw new Error("the 10-page audit did not read 10 pages");
        }
        maxInFlight = Math.max(maxInFlight, sites.maxInFlight.get("many.test") ?? 0);
      }
    }
  }
  const ratio = median(audit) / median(single);
  line(
    "baseline: single-page scan, every response 100 ms late",
    `${median(single).toFixed(0)} ms (median of ${rounds})`,
    "-",
    null,
  );
  line(
    "10-page audit of the same site",
    `${median(audit).toFixed(0)} ms = ${ratio.toFixed(2)}x`,
    "<= 4x",
    ratio <= 4,
  );
  line(
    "  requests in flight to the site (fixture count)",
    `max ${maxInFlight}`,
    "<= 2",
    maxInFlight <= 2,
  );
  results.wall = { singleMs: single, auditMs: audit, ratio, maxInFlight };
  await sites.close();
}

// ------------------------------------------------------------ 2. CPU of the analysis
if (part("cpu")) {
  const host = "many.test";
  const home = `https://${host}/`;
  const answer = (url: string, body: string, type = "text/html; charset=utf-8"): FetchOutcome => ({
    ok: true,
    result: {
      url,
      finalUrl: url,
      status: 200,
      headers: { "content-type": type },
      body,
      bytes: body.length,
      truncated: false,
      redirects: [],
      ttfbMs: 100,
      totalMs: 100,
      remoteAddress: "127.0.0.1",
    },
  });
  const robots = answer(`${home}robots.txt`, "User-agent: *\nAllow: /\n", "text/plain");
  const homeHtml = auditFixturePage(host, "/")!;
  const paths = Array.from(
    { length: 9 },
    (_, i) => `/${["blog", "shop", "docs", "team"][i % 4]}/item-${i}`,
  );
  const pages = paths.map((p) => answer(`https://${host}${p}`, auditFixturePage(host, p)!));
  const missing = answer(`${home}x`, "not found", "text/plain");
  const snapshotOf = (): Snapshot => ({
    target: normaliseTarget(home),
    home: answer(home, homeHtml),
    facts: extractPageFacts(homeHtml, home),
    parseMs: 0,
    robots,
    sitemap: { url: `${home}sitemap.xml`, source: "default", outcome: missing },
    llms: missing,
    llmsFull: missing,
    edge: { browser: answer(home, homeHtml), crawlers: [] },
    elapsedMs: 0,
  });
  const now = new Date("2026-06-01T00:00:00Z");
  const homeAlone = () => analyseSnapshot(snapshotOf(), null, now);
  const audited = () => {
    const snapshot = snapshotOf();
    const base = {
      homeUrl: home,
      robots: null,
      robotsServerError: false,
      snapshot,
      siteName: null,
      now,
    };
    const reports = [
      analysePage(
        { ...base, url: home, source: "home", inSitemap: false, role: null },
        snapshot.home,
        snapshot.facts!,
      ),
      ...pages.map((o, i) =>
        analysePage(
          {
            ...base,
            url: `https://${host}${paths[i]}`,
            source: "sitemap",
            inSitemap: true,
            role: null,
          } as PageInput,
          o,
        )
      ),
    ];
    const audit: AuditResult = {
      requested: 10,
      pages: reports,
      candidates: 9,
      crawlDelaySec: null,
      delayLimited: false,
      budgetHit: false,
      budgetMs: 0,
      elapsedMs: 0,
      llmsLinks: null,
      maxInFlight: 2,
    };
    return analyseSnapshot(snapshot, null, now, audit);
  };
  const time = (fn: () => unknown, n: number) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    return (performance.now() - t0) / n;
  };
  for (let i = 0; i < 20; i++) {
    homeAlone();
    audited();
  }
  const n = QUICK ? 50 : 200;
  const homeMs: number[] = [], auditMs: number[] = [];
  for (let r = 0; r < 5; r++) {
    homeMs.push(time(homeAlone, n));
    auditMs.push(time(audited, n));
  }
  const added = median(auditMs) - median(homeMs);
  const ratio = added / median(homeMs);
  line(
    "baseline: analyse the home page alone (parse + every pillar)",
    `${median(homeMs).toFixed(2)} ms`,
    "-",
    null,
  );
  line(
    "  CPU the 9 other pages add (page signals, validation, site checks)",
    `${added.toFixed(2)} ms = ${ratio.toFixed(2)}x`,
    "<= 3x",
    ratio <= 3,
  );
  results.cpu = { homeMs: median(homeMs), withAuditMs: median(auditMs), addedRatio: ratio };
}

// ------------------------------------------------------------ 3. server memory, 4 x 50 pages
if (part("memory")) {
  const sites = startAuditSites();
  const dir = await Deno.makeTempDir();
  const serverPort = (() => {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const p = (l.addr as Deno.NetAddr).port;
    l.close();
    return p;
  })();
  const startTask: string = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  ).tasks.start;
  const v8Flags = startTask.match(/--v8-flags=(\S+)/)?.[1] ?? "";
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      // The start task sets no V8 flags since the memory plan (docs/running.md): pass none then.
      ...(v8Flags ? [`--v8-flags=${v8Flags}`] : []),
      new URL("../../main.ts", import.meta.url).pathname,
    ],
    env: {
      ...baseEnv,
      PORT: String(serverPort),
      KV_PATH: `${dir}/kv.sqlite3`,
      AUDIT_PAGES: String(MEMORY_PAGES),
      // The memory plan sizes the scan threads from the machine: plan for the 512 MB machine the
      // budget is about (docs/running.md), as tests/bench/memory_peaks.ts does outside a cgroup.
      MEMORY_MB: Deno.env.get("MEMORY_MB") ?? "512",
      ...(HEAP_MB ? { SCAN_HEAP_MB: HEAP_MB } : {}),
      SCAN_RESOLVE: [sites.scanResolve, ...offResolve].join(","),
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const base = `http://127.0.0.1:${serverPort}`;
  await untilHealthy(base, 150);
  const rss = await rssSampler(server.pid, 25);
  const rssIdle = rss.idle;
  const hosts = ["many1.test", "many2.test", "many3.test", "many4.test"];
  const t0 = performance.now();
  await Promise.all(hosts.map(async (h) => {
    const res = await fetch(`${base}/api/scan`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${baseEnv.PIPELINE_TOKEN}`,
      },
      body: JSON.stringify({ url: h }),
    });
    if (res.status !== 202) throw new Error(`scan ${h}: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
  }));
  const pagesRead: number[] = [];
  const pending = new Set(hosts);
  while (pending.size && performance.now() - t0 < 120_000) {
    for (const h of [...pending]) {
      const res = await fetch(`${base}/api/report/${h}.json`);
      if (res.status !== 200) {
        await res.body?.cancel();
        continue;
      }
      const record = await res.json();
      const sample = record.result?.pillars.flatMap((p: { signals: unknown[] }) => p.signals)
        .find((s: { id: string }) => s.id === "discovery.site_sample");
      pagesRead.push(
        sample?.pages?.filter((p: { state: string }) => p.state === "read").length ?? 0,
      );
      pending.delete(h);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const rssPeak = rss.stop();
  const totalMs = performance.now() - t0;
  server.kill("SIGKILL");
  await server.status;
  await sites.close();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const mb = (b: number) => (b / 1048576).toFixed(0);
  line(
    `4 concurrent ${MEMORY_PAGES}-page audits through the server (main.ts)`,
    `pages read ${pagesRead.join("/")} in ${(totalMs / 1000).toFixed(1)} s`,
    `all ${MEMORY_PAGES}`,
    pagesRead.length === 4 && pagesRead.every((n) => n === MEMORY_PAGES),
  );
  line(
    "  server RSS (its own process, deno task start's V8 flags)",
    `peak ${mb(rssPeak)} MB (idle ${mb(rssIdle)} MB)`,
    "< 300 MB",
    rssPeak < 300 * 1048576,
  );
  results.memory = {
    rssIdleMb: rssIdle / 1048576,
    rssPeakMb: rssPeak / 1048576,
    pagesRead,
    totalMs,
  };
}

await off.close();
await Deno.mkdir(new URL("../output/", import.meta.url), { recursive: true });
await Deno.writeTextFile(
  new URL("../output/audit_bench.json", import.meta.url),
  JSON.stringify(results, null, 2),
);
