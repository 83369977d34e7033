/**
 * Errors to HTTP, in one place: typed errors (lib/kit/errors.ts) carry their status and body; a store
 * that cannot write is a 503; anything else unexpected is a logged 500.
 */
import { HttpError } from "../errors.ts";
import { isStoreWriteError, StoreUnavailableError, storeWriteHealth } from "../health.ts";
import type { AppDeps } from "./context.ts";

/** The JSON answer to an error thrown while handling a request (logged when it is ours: a 500). */
export function errorAnswer(
  error: unknown,
  request: { path: string; method: string },
  deps: Pick<AppDeps, "log"> & Partial<Pick<AppDeps, "store" | "now">>,
): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  if (error instanceof HttpError) {
    return { status: error.status, body: error.body(), headers: error.headers() };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  // The store cannot write (a full disk, a read-only file): the service is unavailable, not
  // broken. 503 with Retry-After, /healthz fails, and new scans are refused for a while.
  if (isStoreWriteError(e)) {
    if (deps.store) storeWriteHealth(deps.store.kv).noteFailure((deps.now ?? Date.now)());
    (deps.log ?? ((entry) => console.error(JSON.stringify(entry))))({
      event: "store.write_failed",
      path: request.path,
      method: request.method,
      error: e.message,
    });
    const unavailable = new StoreUnavailableError();
    return { status: 503, body: unavailable.body(), headers: unavailable.headers() };
  }
  // A client that closes its connection before sending the body it announced (Content-Length
  // larger than what came) makes any body reader throw BadResource: the request's fault, a 400.
  if (e instanceof Deno.errors.BadResource && /request body/i.test(e.message)) {
    return {
      status: 400,
      body: { error: "Request body ended before it was complete" },
      headers: {},
    };
  }
  // Hono's own HTTPException (e.g. from middleware) keeps its status but gets our JSON shape.
  const status = (e as { status?: number }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, body: { error: e.message || "Bad request" }, headers: {} };
  }
  (deps.log ?? ((entry) => console.error(JSON.stringify(entry))))({
    event: "http.error",
    path: request.path,
    method: request.method,
    error: e.message,
  });
  return { status: 500, body: { error: "Internal error" }, headers: {} };
}
