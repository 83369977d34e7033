/**
 * A route owns its URL: a route module exports one {@link RouteDef} per path it serves, holding
 * the path (as OpenAPI writes it), the handlers per method, and its OpenAPI operations. The list
 * of every route (lib/app/routes.ts ROUTES) is then the one source that mounting (lib/app/app.ts), the
 * OpenAPI document (lib/kit/web/openapi.ts), the 405 answers (lib/kit/web/methods.ts) and the route groups
 * (lib/kit/web/groups.ts) read; the URL builders (lib/kit/report_urls.ts) fill the same path templates.
 */
import { Hono } from "hono";
import type { Context, Handler, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { ServiceDef } from "../../service.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { allowedMethods, methodNotAllowed } from "./methods.ts";
import { type RecordViewGate, recordViews } from "./record_views.ts";
import { InvalidTargetError, normaliseTarget } from "../net/target.ts";
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from "../errors.ts";

/** The methods a route registers handlers for ("ALL": every method, the route answers itself). */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "ALL";

/** A handler, or middleware then a handler, run in order. */
export type RouteChain = Handler<AppEnv> | [...MiddlewareHandler<AppEnv>[], Handler<AppEnv>];

/** What a route serves on its path: a chain per method (GET also answers HEAD). */
export type RouteHandlers = Partial<Record<RouteMethod, RouteChain>>;

/** What a route's OpenAPI entry is built from. */
export interface OpenApiContext<D extends AppDeps = AppDeps> {
  /** The app's dependencies (the service, its key prefix; the MCP tools it registers). */
  deps: D;
}

/**
 * A component schema an OpenAPI entry references (`#/components/schemas/<name>`): a zod schema
 * (converted with its input or output view), or a JSON Schema written out where no zod schema
 * describes the body (a view object built by hand).
 */
export type OpenApiSchema =
  | {
    schema: z.ZodType;
    /** "input" for a request body, "output" for a response. */
    io: "input" | "output";
  }
  | { json: Record<string, unknown> };

/** What a route sees of the app beyond its dependencies. */
export interface MountedApp {
  /** The routes the app mounted for its service, in order (/openapi.json documents them). */
  routes: readonly RouteDef[];
  /**
   * The app's one fair queue of record views: routes that set `viewsRecords` wait in it, and so do
   * handlers that read records outside a route's GET (the MCP tools).
   */
  viewGate?: RecordViewGate;
}

/**
 * One path of a route module: where, what, and what the API document says of it. `D`: what its
 * handlers read of the app's dependencies: the kit's AppDeps, and a feature's own part where they
 * need it (`RouteDef<AppDeps & WithWatch>`; the app hands in the whole, lib/app/deps.ts).
 */
export interface RouteDef<D extends AppDeps = AppDeps> {
  /**
   * The URL path as OpenAPI writes it: literal segments, `{name}` for a parameter, a parameter
   * with a literal suffix (`{domain}.json`), or a final `*` for everything below (`/static/*`).
   */
  path: string;
  /** The handlers per method, built once from the app's dependencies. */
  handlers(deps: D, app: MountedApp): RouteHandlers;
  /** Middleware run before every answer on the path, the 405s included (CORS headers). */
  use?: MiddlewareHandler<AppEnv>[];
  /** Its OpenAPI operations by lower-case method, when the path is part of the documented API. */
  openapi?(ctx: OpenApiContext<D>): Record<string, unknown>;
  /** The component schemas its operations reference, by name. */
  schemas?(ctx: OpenApiContext<D>): Record<string, OpenApiSchema>;
  /** Served only when this says yes of the app's service (default: every service). */
  servedBy?(service: ServiceDef): boolean;
  /** Inside a route group (lib/kit/web/groups.ts): the methods that need a signed-in session. */
  signedIn?: RouteMethod[];
  /**
   * It reads and renders stored records (a report page, an export, a comparison, a kept scan):
   * its GETs wait their turn in the app's fair queue of record views (lib/kit/web/record_views.ts).
   */
  viewsRecords?: boolean;
}

/**
 * Middleware for a route's `use`: every answer on its path, errors and 405s too, may be read by
 * any origin (the public JSON API).
 */
export const anyOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header("Access-Control-Allow-Origin", "*");
  await next();
};

/**
 * Middleware for a route's `use`: the route is a JSON API (the watch and answer-presence APIs): a
 * body of any other type is refused (415) and no answer is cached.
 */
export const jsonApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header("content-type");
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && type && !/json/i.test(type)) {
    throw new UnsupportedMediaTypeError();
  }
  c.header("Cache-Control", "no-store");
  await next();
};

/** Whether the app of `service` serves this route. */
export function served(route: RouteDef, service: ServiceDef): boolean {
  return route.servedBy?.(service) ?? true;
}

/**
 * The Hono pattern of a path template: `{name}` -> `:name`; `{name}.json` -> a parameter whose
 * value must end in ".json" (`:name{[^/]+\.json}`; the handler strips the suffix with
 * {@link suffixed}); a final `*` stays a wildcard.
 */
export function honoPath(template: string): string {
  return template.split("/").map((segment) => {
    if (segment === "*" || !segment.includes("{")) return segment;
    const m = segment.match(/^\{([A-Za-z_][A-Za-z0-9_]*)\}(.*)$/);
    if (!m || m[2].includes("{")) throw new Error(`Unsupported path segment: ${segment}`);
    const [, name, suffix] = m;
    return suffix ? `:${name}{[^/]+${suffix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}}` : `:${name}`;
  }).join("/");
}

/** A path parameter of the matched route (Hono sets each one the path declares). */
export function param(c: Context, name: string): string {
  return c.req.param(name) ?? "";
}

/**
 * The domain the `{domain}` parameter names, in its normal spelling (lib/kit/net/target.ts), after
 * its template suffix (`suffix`, e.g. ".json" of `{domain}.json`): 404 when the value does not end
 * with the suffix (not this route's path), 400 when it names no domain.
 */
export function domainParam(c: Context, suffix = ""): string {
  const raw = param(c, "domain");
  const value = suffix ? suffixed(raw, suffix) : raw;
  if (value === null) throw new NotFoundError();
  try {
    return normaliseTarget(decodeURIComponent(value)).domain;
  } catch (e) {
    if (e instanceof InvalidTargetError || e instanceof URIError) {
      throw new BadRequestError(`Not a domain name: ${e.message}`);
    }
    throw e;
  }
}

/**
 * A parameter's value without its template suffix (`example.com.json` -> `example.com`), or null
 * when it does not end with it.
 */
export function suffixed(value: string, suffix: string): string | null {
  return value.endsWith(suffix) && value.length > suffix.length
    ? value.slice(0, -suffix.length)
    : null;
}

/**
 * A route's handlers as a Hono sub-app, its path relative to `base` (a group's prefix, or ""),
 * with a 405 for every other method on its path, whose Allow lists the methods it has handlers for
 * (lib/kit/web/methods.ts). A route with an ALL handler answers every method itself.
 */
export function routeApp<D extends AppDeps>(
  route: RouteDef<D>,
  deps: D,
  app: MountedApp,
  base = "",
): Hono<AppEnv> {
  const sub = new Hono<AppEnv>();
  const path = honoPath(route.path.slice(base.length) || "/");
  // Hono's typed overloads take a fixed number of handlers; a chain's length varies.
  const on = sub.on.bind(sub) as (m: string, p: string, ...h: Handler<AppEnv>[]) => unknown;
  const all = sub.all.bind(sub) as (p: string, ...h: Handler<AppEnv>[]) => unknown;
  const use = [
    ...(route.use ?? []),
    ...(route.viewsRecords && app.viewGate ? [recordViews(app.viewGate)] : []),
  ] as Handler<AppEnv>[];
  const chains = route.handlers(deps, app);
  for (const [method, chain] of Object.entries(chains)) {
    const handlers = (Array.isArray(chain) ? chain : [chain]) as Handler<AppEnv>[];
    if (method === "ALL") all(path, ...use, ...handlers);
    else on(method, path, ...use, ...handlers);
  }
  if (!chains.ALL) {
    all(path, ...use, methodNotAllowed(allowedMethods(Object.keys(chains))) as Handler<AppEnv>);
  }
  return sub;
}
