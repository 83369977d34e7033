/**
 * What every request to a service is served with, the part the web app (lib/kit/web/context.ts
 * AppDeps), the MCP server (lib/kit/mcp/context.ts McpDeps) and the scan flow
 * (lib/engines/scan/scan_service.ts) share: the configuration, the service and its store, the
 * clock, DNS and the report cache. Tests inject the clock and DNS.
 */
import type { Config } from "./config.ts";
import type { LookupFunction } from "./net/guarded_fetch.ts";
import type { ReportCache } from "./storage/report_cache.ts";
import type { Store } from "./storage/store.ts";
import type { ServiceDef } from "../service.ts";

/** A service's part of every request's dependencies. */
export interface ServiceDeps {
  config: Config;
  /** The service's store: records, history, limits, the queue. */
  store: Store;
  service: ServiceDef;
  /** Milliseconds since the epoch (tests inject a clock). */
  now: () => number;
  /** DNS resolver of the "resolves to a public address" check (tests inject one). */
  lookup?: LookupFunction;
  /** Serialised records kept for a second (lib/kit/storage/report_cache.ts). */
  reportCache?: ReportCache;
}
