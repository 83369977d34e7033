/**
 * A complete offline scan environment for tests: the fixture sites and the fake off-site services
 * on loopback, and a Config whose SCAN_RESOLVE sends every test host name to them.
 */
import { type Config, loadConfig } from "../../lib/kit/config.ts";
import { type FixtureSites, startFixtureSites } from "../fixtures/site_server.ts";
import {
  type FakeOffSite,
  type OffSiteScenario,
  startFakeOffSite,
} from "../fixtures/offsite_server.ts";
import { OffSiteCache } from "../../lib/engines/offsite/cache.ts";

/** Running fixtures and the config that points at them. */
export interface ScanEnv {
  sites: FixtureSites;
  offSite: FakeOffSite;
  config: Config;
  /** The environment variables equivalent to `config` (for subprocesses such as the CLI). */
  env: Record<string, string>;
  /** A fresh off-site cache, so tests do not see each other's lookups. */
  cache(): OffSiteCache;
  close(): Promise<void>;
}

/** Every fixture domain known to the fake Wikidata/Wikipedia/Common Crawl as found. */
export const FOUND_EVERYWHERE: OffSiteScenario = {
  wikidata: {
    items: [
      "good.test",
      "blocks-training.test",
      "blocks-search.test",
      "edge-blocks-bots.test",
      "robots-500.test",
      "broken-robots.test",
    ].map((d, i) => ({
      id: `Q${100 + i}`,
      label: "Good Coffee Roasters",
      websites: [`https://${d}/`],
      enwiki: "Good Coffee Roasters",
    })),
  },
  commonCrawl: {
    captures: {
      "good.test": 40,
      "blocks-training.test": 40,
      "blocks-search.test": 40,
      "edge-blocks-bots.test": 40,
      "robots-500.test": 40,
      "broken-robots.test": 40,
    },
  },
};

/** Starts the fixtures. Extra environment entries override the defaults. */
export async function startScanEnv(
  scenario: OffSiteScenario = FOUND_EVERYWHERE,
  extraEnv: Record<string, string> = {},
): Promise<ScanEnv> {
  const sites = await startFixtureSites();
  const offSite = await startFakeOffSite(scenario);
  const resolve = [
    sites.scanResolve,
    ...[...offSite.resolve].map(([h, t]) => `${h}=${t.host}:${t.port}`),
  ].join(",");
  const env: Record<string, string> = {
    SCAN_RESOLVE: resolve,
    WIKIDATA_API_URL: offSite.config.wikidataApiUrl,
    WIKIPEDIA_API_URL: offSite.config.wikipediaApiUrl,
    COMMONCRAWL_INDEX_URL: offSite.config.commonCrawlIndexUrl,
    SCAN_TIMEOUT_MS: "6000",
    REQUEST_TIMEOUT_MS: "2000",
    OFFSITE_TIMEOUT_MS: "1500",
    ...extraEnv,
  };
  return {
    sites,
    offSite,
    config: loadConfig(env),
    env,
    cache: () => new OffSiteCache(),
    close: async () => {
      await offSite.close();
      await sites.close();
    },
  };
}

const CLI = new URL("../../lib/app/cli.ts", import.meta.url).pathname;

/** Runs `lib/app/cli.ts` with the permissions of `deno task scan` (deno.json); returns its output. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  // The scan task's own permission flags (deno.json), so the test runs what users run.
  const task: string =
    JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)))
      .tasks.scan;
  const flags = task.split(/\s+/).filter((a) => a.startsWith("--allow-"));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, CLI, ...args],
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
