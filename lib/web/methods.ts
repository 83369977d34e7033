/**
 * Method-not-allowed answers, from one place: the methods a path allows are read from the routes
 * a route module registered (Hono's route table), so a route never lists them again. The app
 * (lib/app.ts) and the route groups (lib/web/groups.ts) call {@link withMethodNotAllowed} on every
 * route module they mount; any other method on one of its paths is a 405 (`MethodNotAllowedError`:
 * the `Allow` header and a clear error, JSON or the group's error page).
 */
import type { Env, Hono } from "hono";
import { MethodNotAllowedError } from "../errors.ts";

/** The order methods are listed in an Allow header. */
const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Each path of a route table and the methods registered for it, in {@link ORDER} (HEAD with GET:
 * Hono answers HEAD with the GET handler). A path with an ALL handler (middleware such as
 * `use("*")`, or a route answering every method itself, like /mcp) is left out: it needs nothing.
 */
export function allowedMethods(app: Pick<Hono, "routes">): Map<string, string[]> {
  const methods = new Map<string, Set<string>>();
  const answersAll = new Set<string>();
  for (const r of app.routes) {
    const method = r.method.toUpperCase();
    if (method === "ALL") {
      answersAll.add(r.path);
      continue;
    }
    const set = methods.get(r.path) ?? new Set<string>();
    set.add(method);
    if (method === "GET") set.add("HEAD");
    methods.set(r.path, set);
  }
  const out = new Map<string, string[]>();
  for (const [path, set] of methods) {
    if (answersAll.has(path)) continue;
    out.set(path, [...set].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)));
  }
  return out;
}

function rank(method: string): number {
  const i = ORDER.indexOf(method);
  return i < 0 ? ORDER.length : i;
}

/**
 * Registers, after a route module's own routes, a 405 for every other method on each of its paths
 * (see {@link allowedMethods}). Returns the same app, to mount.
 */
export function withMethodNotAllowed<E extends Env>(app: Hono<E>): Hono<E> {
  for (const [path, allow] of allowedMethods(app)) {
    app.all(path, () => {
      throw new MethodNotAllowedError(allow);
    });
  }
  return app;
}
