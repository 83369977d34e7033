/**
 * Builds the watch feature's dependencies (lib/features/watch/context.ts) from the server's parts: called
 * once by the composition root (lib/app/server.ts). Webhooks get a guarded fetcher of their own, with
 * WEBHOOK_RESOLVE (never SCAN_RESOLVE), a 10 s deadline, no redirects and a 4 KB answer cap.
 */
import type { Config } from "../../kit/config.ts";
import { createGuardedFetcher, type LookupFunction } from "../../kit/net/guarded_fetch.ts";
import type { ServiceDef } from "../../service.ts";
import type { Store } from "../../kit/storage/store.ts";
import { WatchStore } from "./store.ts";
import type { WatchDeps } from "./context.ts";
import { ATTEMPT_TIMEOUT_MS } from "./delivery.ts";
import type { SecretBox } from "../../kit/auth/secret_box.ts";
import { createMailer } from "./mailer.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";

/** The parts the watch feature is built from. */
export interface WatchParts {
  kv: Deno.Kv;
  store: Store;
  service: ServiceDef;
  config: Config;
  now: () => number;
  lookup?: LookupFunction;
  log: (entry: Record<string, unknown>) => void;
  /** The instance's secret box (lib/kit/auth/secret_box.ts), shared with answer presence. */
  box: () => Promise<SecretBox>;
}

/** The watch feature of one service. */
export function createWatchDeps(parts: WatchParts): WatchDeps {
  const { kv, config } = parts;
  return {
    config,
    service: parts.service,
    store: parts.store,
    watches: new WatchStore(kv, parts.service.name),
    now: parts.now,
    lookup: parts.lookup,
    fetcher: createGuardedFetcher({
      userAgent: config.userAgent,
      resolve: config.watch.webhookResolve,
      requestTimeoutMs: ATTEMPT_TIMEOUT_MS,
      maxBodyBytes: 4096,
      maxRedirects: 0,
      lookup: parts.lookup,
    }),
    box: parts.box,
    origin: trimEnd(config.publicUrl ?? `http://localhost:${config.port}`, charsOf("/")),
    mailer: createMailer(config.watch.smtp),
    log: parts.log,
  };
}
