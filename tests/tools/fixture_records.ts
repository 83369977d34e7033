/**
 * Scans every fixture site (tests/fixtures/site_server.ts and tests/fixtures/audit_sites.ts) with
 * the code of a given checkout and writes the records, one per host, as JSON: the before/after
 * proof that a refactor left the reports as they were. The clock is fixed and the one measured
 * figure of a record (the home page's time to first byte) is masked, so two runs of one checkout
 * give the same bytes.
 *
 * ```sh
 * git archive main | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 * deno run -A --config /tmp/old/deno.json tests/tools/fixture_records.ts --root=/tmp/old --out=/tmp/old.json
 * deno run -A --config deno.json tests/tools/fixture_records.ts --root=. --out=/tmp/new.json
 * deno run -A tests/tools/fixture_records.ts --diff /tmp/old.json /tmp/new.json
 * ```
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const NOW = new Date("2026-11-26T12:00:00Z");

/** Masks what a run measures (ms), so records of two runs compare byte for byte. */
function mask(record: unknown): unknown {
  return JSON.parse(JSON.stringify(record), (key, value) => {
    if (typeof value === "string" && /first byte arrived after \d+ ms/.test(value)) {
      return value.replace(/after \d+ ms/, "after <ms> ms");
    }
    return key === "ttfbMs" ? 0 : value;
  });
}

async function scanAll(root: string, out: string): Promise<void> {
  const base = pathToFileURL(resolve(root) + "/").href;
  const load = (p: string) => import(new URL(p, base).href);
  const { loadConfig } = await load("lib/kit/config.ts");
  const { scanSite } = await load("lib/engines/visibility/scan.ts");
  const { OffSiteCache } = await load("lib/engines/offsite/cache.ts");
  const { FIXTURE_HOSTS, startFixtureSites } = await load("tests/fixtures/site_server.ts");
  const audit = await load("tests/fixtures/audit_sites.ts");
  const { startFakeOffSite } = await load("tests/fixtures/offsite_server.ts");
  const { FOUND_EVERYWHERE } = await load("tests/helpers/scan_env.ts");
  const sites = await startFixtureSites();
  const auditSites = audit.startAuditSites();
  const off = await startFakeOffSite(FOUND_EVERYWHERE);
  const extra = (audit.EXTRA_HOSTS ?? []) as string[];
  const hosts = [
    ...Object.keys(FIXTURE_HOSTS),
    ...(audit.AUDIT_HOSTS as string[]).filter((h) => !/^many\d/.test(h)),
    ...extra,
  ];
  const config = loadConfig({
    SCAN_RESOLVE: [
      sites.scanResolve,
      auditSites.scanResolve,
      ...[...off.resolve].map(([h, t]: [string, { host: string; port: number }]) =>
        `${h}=${t.host}:${t.port}`
      ),
    ].join(","),
    WIKIDATA_API_URL: off.config.wikidataApiUrl,
    WIKIPEDIA_API_URL: off.config.wikipediaApiUrl,
    COMMONCRAWL_INDEX_URL: off.config.commonCrawlIndexUrl,
    SCAN_TIMEOUT_MS: "20000",
    REQUEST_TIMEOUT_MS: "1500",
    OFFSITE_TIMEOUT_MS: "1500",
  });
  const records: Record<string, unknown> = {};
  try {
    for (const host of hosts) {
      const outcome = await scanSite(host, {
        config,
        now: () => NOW,
        offSiteCache: new OffSiteCache(),
      });
      records[host] = mask(outcome.record);
      console.error(`${host}: ${outcome.record.status} ${outcome.record.result?.score ?? ""}`);
    }
  } finally {
    await off.close();
    await auditSites.close();
    await sites.close();
  }
  await Deno.writeTextFile(out, JSON.stringify(records, null, 1) + "\n");
}

/** Prints, per host, the JSON paths whose values differ (and hosts only one side has). */
function diff(a: Record<string, unknown>, b: Record<string, unknown>): number {
  let n = 0;
  const walk = (path: string, x: unknown, y: unknown) => {
    if (JSON.stringify(x) === JSON.stringify(y)) return;
    if (x && y && typeof x === "object" && typeof y === "object") {
      // Signals are compared by id, so an inserted one does not shift the rest.
      const byId = (v: unknown) =>
        Array.isArray(v) && v.every((e) => e && typeof e === "object" && "id" in e)
          ? new Map(v.map((e) => [String(e.id), e]))
          : null;
      const mx = byId(x), my = byId(y);
      if (mx && my) {
        for (const k of new Set([...mx.keys(), ...my.keys()])) {
          walk(`${path}[${k}]`, mx.get(k), my.get(k));
        }
        return;
      }
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) {
        walk(`${path}.${k}`, (x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]);
      }
      return;
    }
    n++;
    console.log(`${path}\n  - ${JSON.stringify(x)}\n  + ${JSON.stringify(y)}`);
  };
  for (const host of new Set([...Object.keys(a), ...Object.keys(b)])) walk(host, a[host], b[host]);
  return n;
}

if (import.meta.main) {
  const args = Deno.args;
  if (args[0] === "--diff") {
    const [a, b] = await Promise.all(args.slice(1, 3).map((f) => Deno.readTextFile(f)));
    const n = diff(JSON.parse(a), JSON.parse(b));
    console.log(`${n} values differ`);
  } else {
    const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
    await scanAll(opt("root") ?? ".", opt("out") ?? "fixture_records.json");
  }
}
