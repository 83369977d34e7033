/**
 * Every fix verified to fix (issue 42): each fix of a report is applied to the site it was
 * written for, exactly as its instructions say, the site is scanned again in-process, and the
 * checks it names must pass with no fix of the new report repeating it; a fix with nothing to
 * apply says what to check afterwards (tests/helpers/fix_verify.ts). Run over the bakery of
 * issue 42, every fixture site of every fixture server, and the shared corpus's saved sites
 * (read at test time, never copied; skipped with a message when absent).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../lib/kit/config.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import type { ScanRecord } from "../lib/engines/visibility/record.ts";
import { BAKERY_HOST, bakeryFiles } from "./fixtures/bakery_site.ts";
import { startFixtureSites } from "./fixtures/site_server.ts";
import { startEditableSite } from "./fixtures/editable_site.ts";
import { AUDIT_HOSTS, startAuditSites } from "./fixtures/audit_sites.ts";
import { CRAWLER_HOSTS, startCrawlerSites } from "./fixtures/crawler_sites.ts";
import { RENDER_HOSTS, startRenderSites } from "./fixtures/render_sites.ts";
import { type OverlayBackend, startOverlaySite } from "./helpers/overlay_site.ts";
import { verifyFixes } from "./helpers/fix_verify.ts";

/** A fixed clock for sites whose files carry no dates (the fixture servers date theirs from now). */
const NOW = new Date("2026-11-30T12:00:00Z");

function configFor(resolve: string) {
  return loadConfig({
    SCAN_RESOLVE: resolve,
    WIKIDATA_API_URL: "http://127.0.0.1:9/w/api.php",
    WIKIPEDIA_API_URL: "http://127.0.0.1:9/w/api.php",
    COMMONCRAWL_INDEX_URL: "http://127.0.0.1:9/collinfo.json",
    REQUEST_TIMEOUT_MS: "3000",
    SCAN_TIMEOUT_MS: "15000",
    OFFSITE_TIMEOUT_MS: "300",
  });
}

/** What a run over several sites found. */
interface Run {
  sites: number;
  applied: number;
  byHand: number;
  problems: string[];
}

/**
 * Verifies every fix of every host's report, through an overlay in front of `backend`. Hosts
 * whose scan fails (a site that is down, redirects in a loop, never ends) have no fixes to check.
 */
async function verifyHosts(
  hosts: readonly string[],
  backend: OverlayBackend,
  now?: Date,
): Promise<Run> {
  const site = startOverlaySite([...hosts], backend);
  const run: Run = { sites: 0, applied: 0, byHand: 0, problems: [] };
  try {
    const config = configFor(site.resolve);
    for (const host of hosts) {
      const scan = async (): Promise<ScanRecord> =>
        (await scanSite(host, { config, pages: 6, ...(now ? { now: () => now } : {}) })).record;
      const before = await scan();
      if (!before.result?.topIssues.length) continue;
      run.sites++;
      const v = await verifyFixes(host, site, before, scan);
      run.problems.push(...v.problems);
      run.applied += v.applied;
      run.byHand += v.byHand;
    }
  } finally {
    await site.close();
  }
  return run;
}

function report(name: string, run: Run): void {
  console.log(
    `info ${name}: ${run.sites} sites with fixes, ${run.applied} fixes applied and rescanned, ${run.byHand} to do by hand with a check afterwards`,
  );
  assert.deepEqual(run.problems, [], run.problems.join("\n"));
}

const SANITIZE = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "[fixes verified] the bakery: each fix, then every fix pasted once, fixes what it names",
  ...SANITIZE,
  fn: async () => {
    const run = await verifyHosts([BAKERY_HOST], { files: bakeryFiles() }, NOW);
    assert.equal(run.sites, 1);
    assert.ok(run.applied >= 6, `${run.applied} fixes applied`);
    report("the bakery", run);
  },
});

Deno.test({
  name: "[fixes verified] every fixture site of tests/fixtures/site_server.ts",
  ...SANITIZE,
  fn: async () => {
    const fixtures = await startFixtureSites();
    try {
      const run = await verifyHosts(fixtures.hosts, { port: fixtures.port });
      assert.ok(run.sites >= 10, `${run.sites} sites`);
      report("site_server.ts", run);
    } finally {
      await fixtures.close();
    }
  },
});

Deno.test({
  name: "[fixes verified] the editable, audit, crawler and render fixture sites",
  ...SANITIZE,
  fn: async () => {
    const servers = [
      (() => {
        const s = startEditableSite();
        return { hosts: [s.host], port: Number(s.resolve.split(":").pop()), close: s.close };
      })(),
      (() => {
        const s = startAuditSites();
        return { hosts: AUDIT_HOSTS, port: s.port, close: s.close };
      })(),
      (() => {
        const s = startCrawlerSites();
        return { hosts: CRAWLER_HOSTS, port: s.port, close: s.close };
      })(),
      (() => {
        const s = startRenderSites();
        return { hosts: RENDER_HOSTS, port: s.port, close: s.close };
      })(),
    ];
    try {
      for (const s of servers) {
        const run = await verifyHosts(s.hosts, { port: s.port });
        report(s.hosts.join(", "), run);
      }
    } finally {
      for (const s of servers) await s.close();
    }
  },
});

const CORPUS_SITES = new URL("../../shared/corpus/visibility/material/sites/", import.meta.url);

/**
 * The corpus's saved sites as files in memory, read at test time (never copied): "/" is
 * index.html, "/x" is x or x.html, as the corpus's own server serves them.
 */
function corpusFiles(): { hosts: string[]; files: Map<string, string> } | null {
  try {
    if (!Deno.statSync(CORPUS_SITES).isDirectory) return null;
  } catch {
    return null;
  }
  const hosts: string[] = [];
  const files = new Map<string, string>();
  for (const dir of Deno.readDirSync(CORPUS_SITES)) {
    if (!dir.isDirectory) continue;
    hosts.push(dir.name);
    for (const f of Deno.readDirSync(new URL(`${dir.name}/`, CORPUS_SITES))) {
      if (!f.isFile) continue;
      const text = Deno.readTextFileSync(new URL(`${dir.name}/${f.name}`, CORPUS_SITES));
      if (f.name === "index.html") files.set(`${dir.name}/`, text);
      files.set(`${dir.name}/${f.name}`, text);
      if (f.name.endsWith(".html")) files.set(`${dir.name}/${f.name.slice(0, -5)}`, text);
    }
  }
  return { hosts: hosts.sort(), files };
}

Deno.test({
  name: "[fixes verified] every saved site of the shared corpus",
  ...SANITIZE,
  fn: async () => {
    const corpus = corpusFiles();
    if (!corpus) {
      console.warn(
        `skipped: the shared corpus is not at ${CORPUS_SITES.pathname} (the fixture sites above run the same property)`,
      );
      return;
    }
    const run = await verifyHosts(corpus.hosts, { files: corpus.files }, NOW);
    assert.ok(run.sites >= 10, `${run.sites} corpus sites with fixes`);
    report("the corpus's saved sites", run);
  },
});
