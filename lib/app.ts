/**
 * Builds the Hono app from the route modules. Tests call `app.request()` on it with no socket;
 * main.ts serves it. Errors are typed in lib and mapped to HTTP here, in one place.
 */
import { Hono } from "hono";
import { getConnInfo } from "hono/deno";
import { secureHeaders } from "hono/secure-headers";
import type { Context } from "hono";
import type { ChallengeVerifier } from "./challenge.ts";
import { clientIp } from "./client_ip.ts";
import type { Config } from "./config.ts";
import { HttpError, MethodNotAllowedError, NotFoundError } from "./errors.ts";
import type { LookupFunction } from "./net/guarded_fetch.ts";
import type { ServiceDef } from "./service.ts";
import type { Store } from "./store.ts";
import { scanRoutes } from "../routes/api/scan.ts";
import { reportRoutes } from "../routes/api/report/[domain].ts";

/** Everything the routes need, injected so tests control time, DNS and the challenge. */
export interface AppDeps {
  config: Config;
  store: Store;
  service: ServiceDef;
  verifyChallenge: ChallengeVerifier;
  /** Milliseconds since the epoch (tests inject a clock). */
  now: () => number;
  /** DNS resolver for the "resolves to a public address" check. */
  lookup?: LookupFunction;
  /** Structured log sink (one JSON object per event). */
  log?: (entry: Record<string, unknown>) => void;
}

/** Hono's context variables set by our middleware. */
export type AppEnv = { Variables: { clientIp: string } };

/** Builds the application. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      crossOriginResourcePolicy: "cross-origin",
    }),
  );
  app.use("*", async (c, next) => {
    c.set("clientIp", remoteIp(c, deps.config.trustProxy));
    await next();
  });
  app.route("/api/scan", scanRoutes(deps));
  app.route("/api/report", reportRoutes(deps));
  app.notFound(() => {
    throw new NotFoundError();
  });
  app.onError((error, c) => toResponse(error, c, deps));
  return app;
}

/** Registers a 405 for every method a path does not serve. */
export function allowOnly(app: Hono<AppEnv>, path: string, allow: string[]): void {
  app.all(path, () => {
    throw new MethodNotAllowedError(allow);
  });
}

function remoteIp(c: Context, trustProxy: boolean): string {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // app.request() in tests has no connection; X-Forwarded-For (with TRUST_PROXY) or "unknown".
  }
  return clientIp(remote, c.req.header("x-forwarded-for"), trustProxy);
}

function toResponse(error: Error, c: Context, deps: AppDeps): Response {
  if (error instanceof HttpError) {
    return c.json(error.body(), error.status as 400, error.headers());
  }
  // Hono's own HTTPException (e.g. from middleware) keeps its status but gets our JSON shape.
  const status = (error as { status?: number }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return c.json({ error: error.message || "Bad request" }, status as 400);
  }
  (deps.log ?? ((e) => console.error(JSON.stringify(e))))({
    event: "http.error",
    path: c.req.path,
    method: c.req.method,
    error: error.message,
  });
  return c.json({ error: "Internal error" }, 500);
}
