/**
 * Method-not-allowed answers, from one place: the methods a path allows are the methods its route
 * registers handlers for (lib/kit/web/route.ts RouteDef), so a route never lists them again; any other
 * method on its path is a 405 (`MethodNotAllowedError`: the `Allow` header and a clear error, JSON
 * or the group's error page).
 *
 * Why not Hono's own `hono/method-not-allowed` middleware (checked against Hono 4.13.19, the
 * version deno.json pins): it answers only when the final response is a 404 that no error produced,
 * but our app's not-found handler throws the typed NotFoundError (lib/kit/errors.ts, mapped to HTTP
 * once in lib/app/app.ts), so it would never answer; it reads the app's whole route table, where the
 * route groups' session checks are registered per method (`group.on(["POST"], path, ...)`), so a
 * path with only such a check would get a 405 whose Allow lists POST while POST is a 404; it runs
 * outside the groups, so its 405 would not be the group's error page; and it lists methods in
 * registration order. Ours is the handful of lines below.
 */
import type { Handler } from "hono";
import { MethodNotAllowedError } from "../errors.ts";

/** The order methods are listed in an Allow header. */
const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * The Allow list of a path whose handlers serve `methods`, in {@link ORDER} (HEAD with GET: Hono
 * answers HEAD with the GET handler).
 */
export function allowedMethods(methods: Iterable<string>): string[] {
  const set = new Set<string>();
  for (const m of methods) {
    const method = m.toUpperCase();
    set.add(method);
    if (method === "GET") set.add("HEAD");
  }
  return [...set].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function rank(method: string): number {
  const i = ORDER.indexOf(method);
  return i < 0 ? ORDER.length : i;
}

/** The handler of every other method on a path: a 405 with `allow` in its Allow header. */
export function methodNotAllowed(allow: string[]): Handler {
  return () => {
    throw new MethodNotAllowedError(allow);
  };
}
