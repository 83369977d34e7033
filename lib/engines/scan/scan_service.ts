/**
 * The scan request flow shared by POST /api/scan and the MCP tools, in the order that keeps cache
 * hits cheap and protects each next step: (validated target and authenticated caller come in) ->
 * cache -> DNS -> limits -> enqueue.
 */
import type { Caller } from "../../kit/auth/auth.ts";
import type { ServiceDeps } from "../../kit/service_deps.ts";
import type { Config } from "../../kit/config.ts";
import { type Target } from "../../kit/net/target.ts";
import { BadRequestError, RateLimitedError } from "../../kit/errors.ts";
import { limitMessage, poolsFor, rateLimitHeaders } from "../../kit/limits/limits.ts";
import { findResolveTarget, resolvePublicAddresses } from "../../kit/net/guarded_fetch.ts";
import { FetchError } from "../../kit/net/types.ts";
import type { BaseRecord } from "../../service.ts";
import type { ScanJob, StoredScan } from "../../kit/storage/store.ts";
import { readReport } from "../../kit/storage/report_cache.ts";
import { isStoreWriteError, StoreUnavailableError, storeWriteHealth } from "../../kit/health.ts";

/** How long a stored record is served instead of scanning again. */
export const CACHE_TTL_MS = 24 * 3600_000;
/** A failed scan is served from cache for less time: the site may be back soon. */
export const FAILED_CACHE_TTL_MS = 15 * 60_000;

/** What the scan flow needs: a service's part of every request's dependencies. */
export type ScanServiceDeps = ServiceDeps;

/** The outcome of a scan request. */
export type ScanRequestOutcome =
  | {
    status: 200;
    record: BaseRecord;
    body: Uint8Array<ArrayBuffer>;
    headers: Record<string, string>;
  }
  | {
    status: 202;
    domain: string;
    started: boolean;
    /**
     * The id of the scan that will answer: the one just admitted, or the one already in flight
     * that the request joined (its status: lib/kit/storage/history.ts).
     */
    scanId: string;
    headers: Record<string, string>;
  };

/**
 * Pool usage shown in the RateLimit headers of cache hits, kept for a second: a cache hit consumes
 * nothing, and reading the pool on every hit would double the KV reads of the hottest write path.
 * Only a cache: admissions always read and write the pools themselves.
 */
const usageCache = new Map<
  string,
  { used: number; resetMs: number; expires: number; at: number }
>();
const USAGE_CACHE_MS = 1000;

function rememberUsage(key: string, u: { used: number; resetMs: number; expires: number }): void {
  if (usageCache.size >= 10_000) usageCache.clear();
  usageCache.set(key, { ...u, at: u.expires - USAGE_CACHE_MS });
}

/** True when a stored scan may be served instead of a new one. */
export function isFresh(stored: StoredScan, now: number): boolean {
  const age = now - Date.parse(stored.record.scannedAt);
  return age >= 0 && age < (stored.record.status === "failed" ? FAILED_CACHE_TTL_MS : CACHE_TTL_MS);
}

/** Serves a fresh record, or admits and enqueues a new scan. */
export async function requestScan(
  target: Target,
  caller: Caller,
  options: { forceRescan: boolean },
  deps: ScanServiceDeps,
): Promise<ScanRequestOutcome> {
  const { store, config } = deps;
  target = withRenderChoice(target, deps);
  const now = deps.now();
  const pools = poolsFor(caller, target.domain);
  const usageKey = `${deps.service.name}:${pools[0].pool}:${pools[0].id}`;
  const usageHeaders = async (cached = false) => {
    const hit = cached ? usageCache.get(usageKey) : undefined;
    const u = hit && hit.expires > now ? hit : await store.poolUsage(pools[0], now);
    if (cached && u !== hit) rememberUsage(usageKey, { ...u, expires: now + USAGE_CACHE_MS });
    return rateLimitHeaders(pools[0], u.used, u.resetMs - (hit ? now - hit.at : 0));
  };
  if (!options.forceRescan) {
    const report = await readReport(store, target.domain, deps.reportCache);
    const stored = report?.stored;
    if (
      report && stored && isFresh(stored, now) &&
      (deps.service.servesCached?.(stored.record, target) ?? true)
    ) {
      return {
        status: 200,
        record: stored.record,
        body: report.body,
        // A cache hit consumes nothing: its RateLimit headers may be a second old.
        headers: await usageHeaders(true),
      };
    }
  }
  await assertResolvesPublicly(target.host, deps);
  const job: ScanJob = {
    kind: "scan",
    service: deps.service.name,
    jobId: crypto.randomUUID(),
    target,
    credential: caller.kind,
    enqueuedAt: now,
    caller: schedulingKey(caller),
  };
  // A store that cannot write would lose the record: refuse with 503 + Retry-After, not a 500.
  const writes = storeWriteHealth(store.kv);
  if (!writes.writable(now)) throw new StoreUnavailableError();
  let admission;
  try {
    admission = await store.admitScan(job, pools, now, inflightTtlMs(config));
  } catch (error) {
    if (!isStoreWriteError(error)) throw error;
    writes.noteFailure(now);
    throw new StoreUnavailableError();
  }
  usageCache.delete(usageKey);
  if (admission.status === "limited") {
    const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
    throw new RateLimitedError(limitMessage(admission.pool, seconds), seconds);
  }
  if (admission.status === "inflight") {
    // Joined the scan in flight; if it finished meanwhile, its record is the latest.
    const scanId = (await store.getInflight(target.domain))?.jobId ??
      (await store.getScan(target.domain))?.jobId ?? job.jobId;
    return {
      status: 202,
      domain: target.domain,
      started: false,
      scanId,
      headers: await usageHeaders(),
    };
  }
  return {
    status: 202,
    domain: target.domain,
    started: true,
    scanId: job.jobId,
    headers: rateLimitHeaders(pools[0], admission.used[0], pools[0].windowMs),
  };
}

/**
 * The target with its render choice resolved: as asked, else the service's default where this
 * server can render (ServiceDef.rendersByDefault), else not rendered.
 */
export function withRenderChoice(
  target: Target,
  deps: Pick<ScanServiceDeps, "config" | "service">,
): Target {
  if (target.render !== undefined) return target;
  const render = deps.service.rendersByDefault === true &&
    deps.config.render.browser.kind !== "off";
  return { ...target, render };
}

/**
 * Whom a scan is scheduled for (ScanJob.caller, lib/engines/scan/worker.ts's fair queue): the API key, else
 * the credential kind and the caller's address.
 */
export function schedulingKey(caller: Caller): string {
  return caller.kind === "key" ? `key:${caller.key.id}` : `${caller.kind}:${caller.ip}`;
}

/**
 * How long a domain stays marked in flight after its last renewal: longer than any scan may take,
 * short enough that a job lost in a crash never leaves it stuck for long. The worker holding a job
 * (waiting for a slot or running) renews its mark every 30 s, so a queued job keeps its domain in
 * flight however long it waits (lib/engines/scan/worker.ts).
 */
export function inflightTtlMs(config: Pick<Config, "scanTimeoutMs">): number {
  return config.scanTimeoutMs * 2 + 30_000;
}

async function assertResolvesPublicly(host: string, deps: ScanServiceDeps): Promise<void> {
  if (findResolveTarget(host, deps.config.scanResolve)) return;
  try {
    await resolvePublicAddresses(host, deps.lookup, { timeoutMs: 5000 });
  } catch (error) {
    if (error instanceof FetchError && error.kind === "blocked") {
      throw new BadRequestError(
        `${host} resolves to a private or reserved address and cannot be scanned`,
      );
    }
    if (error instanceof FetchError) {
      throw new BadRequestError(`${host} does not resolve to any address; check the domain name`);
    }
    throw error;
  }
}
