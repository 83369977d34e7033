/**
 * What the rendering tests share: rendering fixture pages in one session with the scan's limits
 * (2 requests in flight to the site), the canaries of the security tests, and an offline scan
 * environment whose SCAN_RESOLVE includes the rendering fixture sites.
 */
import dgram from "node:dgram";
import { type Config, loadConfig } from "../../lib/kit/config.ts";
import { createGuardedFetcher, type LookupFunction } from "../../lib/kit/net/guarded_fetch.ts";
import { limitSite } from "../../lib/engines/render/site_policy.ts";
import { renderSite } from "../../lib/engines/render/site_view.ts";
import type { RenderView } from "../../lib/engines/render/view.ts";
import { CRAWLER_RENDERING } from "../../lib/engines/visibility/crawlers.ts";
import { renderedVerdict } from "../../lib/engines/visibility/client_rendering.ts";
import { type RenderSites, startRenderSites } from "../fixtures/render_sites.ts";
import { type Sentinels, startSentinels } from "../security/helpers/net_guard.ts";
import { startScanEnv } from "./scan_env.ts";

/** Renders `urls` of the fixture sites in one session (every *.test host counts as the site). */
export async function renderFixtures(
  sites: RenderSites,
  urls: string[],
  options: {
    env?: Record<string, string>;
    robotsAllows?: (url: string) => boolean;
    lookup?: LookupFunction;
    /** The clock the render budget is kept by. */
    now?: () => number;
  } = {},
): Promise<RenderView> {
  const config = loadConfig({
    SCAN_RESOLVE: sites.scanResolve,
    REQUEST_TIMEOUT_MS: "3000",
    RENDER_PAGE_MS: "6000",
    RENDER_BUDGET_MS: "40000",
    ...options.env,
  });
  const fetcher = createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
    lookup: options.lookup,
  });
  const isSite = (host: string) => host.endsWith(".test");
  try {
    return await renderSite({
      settings: config.render,
      urls,
      // 2 in flight to the site, as the scan's polite fetcher keeps it.
      fetcher: limitSite(fetcher, isSite, 0),
      // Each URL's host is one this session scans (several fixture sites share a session here).
      scanHosts: [...new Set(urls.map((url) => new URL(url).hostname))],
      isSite,
      robotsAllows: options.robotsAllows ?? (() => true),
      userAgent: config.userAgent,
      maxBodyBytes: config.maxBodyBytes,
      requestTimeoutMs: config.requestTimeoutMs,
      crawlers: CRAWLER_RENDERING,
      verdict: renderedVerdict,
      now: options.now,
    });
  } finally {
    await fetcher.close();
  }
}

/** Counting listeners on loopback (TCP at 127.0.0.1, 127.0.0.2, [::1]) and a UDP socket. */
export interface Canaries {
  sentinels: Sentinels;
  /** Datagrams the UDP canary received (STUN/TURN, QUIC). */
  udp(): number;
  close(): Promise<void>;
}

/** Starts the canaries at one port. */
export async function startCanaries(): Promise<Canaries> {
  const sentinels = startSentinels();
  const socket = dgram.createSocket("udp4");
  let received = 0;
  socket.on("message", () => received++);
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(sentinels.port, "127.0.0.1", () => resolve());
  });
  return {
    sentinels,
    udp: () => received,
    close: async () => {
      await new Promise<void>((r) => socket.close(() => r()));
      await sentinels.close();
    },
  };
}

/** An offline scan environment (fixture and off-site servers) that can also scan *.test render sites. */
export async function startRenderScanEnv(): Promise<{
  sites: RenderSites;
  config: Config;
  env: Record<string, string>;
  close(): Promise<void>;
}> {
  const base = await startScanEnv({}, {});
  const sites = startRenderSites();
  const env = {
    ...base.env,
    SCAN_RESOLVE: [base.env.SCAN_RESOLVE, sites.scanResolve].join(","),
    SCAN_TIMEOUT_MS: "15000",
    OFFSITE_TIMEOUT_MS: "1000",
    RENDER_PAGE_MS: "6000",
  };
  return {
    sites,
    config: loadConfig(env),
    env,
    close: async () => {
      await base.close();
      await sites.close();
    },
  };
}
