/**
 * The app served on loopback for a real browser: the in-process test environment (KV in memory,
 * the queue worker scanning the fixture sites, fake off-site services, ALTCHA by default) behind
 * `Deno.serve` on 127.0.0.1, with the clock following real time (browsers and ALTCHA's expiry
 * live in real time).
 *
 *   deno run -A tests/e2e/web_server.ts     # serves until stopped; prints the URL
 */
import type { ServiceDef } from "../../lib/service.ts";
import { startAppEnv, type TestEnv } from "../helpers/app_env.ts";

/** A running server. */
export interface WebServer {
  env: TestEnv;
  /** e.g. "http://127.0.0.1:41234" */
  url: string;
  close(): Promise<void>;
}

/** Starts the app on a free loopback port. */
export async function startWebServer(
  options: {
    challenge?: "altcha" | "turnstile";
    service?: ServiceDef;
    worker?: boolean;
    /** Extra environment (e.g. ADMIN_PASSWORD) for the config. */
    env?: Record<string, string>;
    /** More SCAN_RESOLVE entries (a test's own site, e.g. tests/fixtures/editable_site.ts). */
    extraResolve?: string[];
  } = {},
): Promise<WebServer> {
  const env = await startAppEnv({
    worker: options.worker ?? true,
    challenge: options.challenge ?? "altcha",
    service: options.service,
    env: options.env,
    extraResolve: options.extraResolve,
  });
  // Real time plus whatever a test adds by setting clock.now.
  let offset = 0;
  Object.defineProperty(env.clock, "now", {
    get: () => Date.now() + offset,
    set: (v: number) => {
      offset = v - Date.now();
    },
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => env.app.fetch(req, info),
  );
  return {
    env,
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      await server.shutdown();
      await env.close();
    },
  };
}

if (import.meta.main) {
  const s = await startWebServer();
  console.log(`Serving on ${s.url}/ (fixture hosts: good.test, no-llms.test, down.test, ...)`);
}
