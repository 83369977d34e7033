/**
 * Method-not-allowed answers come from one place (lib/kit/web/methods.ts, lib/kit/web/route.ts routeApp):
 * every path the app mounts, read from the app's own route table for both services, answers 405 to
 * a method it does not serve, with an Allow header listing exactly the methods it serves, and
 * serves those.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { allowedMethods } from "../lib/kit/web/methods.ts";
import { param, routeApp, type RouteDef } from "../lib/kit/web/route.ts";
import type { AppDeps, AppEnv } from "../lib/kit/web/context.ts";
import { startAppEnv, type TestEnv } from "./helpers/app_env.ts";
import { schemaService } from "../lib/features/schema/service.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";

const PROBES = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** A concrete URL path for a route pattern (parameters and wildcards filled in). */
function concrete(path: string): string {
  return path
    // A parameter with its own pattern (`:file{.+\\.(?:md|html)}`) gets a value that matches it.
    .replace(/:[A-Za-z_]+\{((?:[^{}]|\{[^{}]*\})+)\}/g, (_m, re: string) => {
      const fits = [
        "k_test0001",
        ...["json", "md", "html", "sarif", "svg"].map((ext) => `k_test0001.${ext}`),
      ]
        .find((v) => new RegExp(`^(?:${re})$`).test(v));
      if (!fits) throw new Error(`no test value for the parameter pattern ${re}`);
      return fits;
    })
    .replace(/:[A-Za-z_]+/g, "k_test0001").replace(/\*/g, "x");
}

Deno.test("methods - a route's 405s list the methods it has handlers for (HEAD with GET; an ALL route answers itself)", async () => {
  assert.deepEqual(allowedMethods(["POST", "get", "DELETE"]), ["GET", "HEAD", "POST", "DELETE"]);
  const deps = {} as AppDeps;
  const mounted = { routes: [] };
  const app = new Hono<AppEnv>();
  const seen: string[] = [];
  const a: RouteDef = {
    path: "/a",
    use: [async (c, next) => {
      seen.push(c.req.method);
      await next();
    }],
    handlers: () => ({ GET: (c) => c.text("a"), POST: (c) => c.text("posted") }),
  };
  const b: RouteDef = {
    path: "/b/{id}",
    handlers: () => ({ POST: (c) => c.text(param(c, "id")) }),
  };
  const c: RouteDef = {
    path: "/c",
    handlers: () => ({ POST: (c) => c.text("c"), ALL: (c) => c.text("its own answer", 418) }),
  };
  for (const r of [a, b, c]) app.route("/", routeApp(r, deps, mounted));
  app.onError((e, c) => {
    const status = (e as { status?: number }).status ?? 500;
    const headers = (e as { headers?: () => Record<string, string> }).headers?.() ?? {};
    return c.json({ error: e.message }, status as 405, headers);
  });
  const put = await app.request("/a", { method: "PUT" });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get("allow"), "GET, HEAD, POST");
  assert.deepEqual(seen, ["PUT"], "the route's middleware runs before its 405 too");
  assert.equal((await app.request("/a", { method: "HEAD" })).status, 200);
  const get = await app.request("/b/7", { method: "GET" });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
  assert.equal(await (await app.request("/b/7", { method: "POST" })).text(), "7");
  assert.equal(
    (await app.request("/c", { method: "GET" })).status,
    418,
    "an ALL route keeps its answer",
  );
  assert.equal((await app.request("/nowhere", { method: "PUT" })).status, 404);
});

/** Each path of the app's route table and the methods registered for it (HEAD with GET). */
function servedMethods(app: Pick<Hono, "routes">): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of app.routes) {
    if (r.method === "ALL") continue;
    const set = out.get(r.path) ?? new Set<string>();
    set.add(r.method);
    if (r.method === "GET") set.add("HEAD");
    out.set(r.path, set);
  }
  return out;
}

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** A member's path in the account or admin group, or everything below it. */
const GROUP_MEMBER_PATH = /^\/(account|admin)\/[a-z]+(\/\*)?$/;

for (const service of [visibilityService, schemaService]) {
  Deno.test(`methods - every path of the ${service.name} app answers 405 with a correct Allow to a method it does not serve`, async () => {
    const env: TestEnv = await startAppEnv({
      service,
      env: { SERVICE: service.name, ADMIN_PASSWORD: "admin-password-for-tests-0123" },
    });
    try {
      const request = async (method: string, path: string) => {
        const res = await env.handler(
          new Request(`http://localhost${concrete(path)}`, {
            method,
            headers: { accept: "application/json", "x-forwarded-for": "203.0.113.9" },
          }),
        );
        const text = await res.text();
        return { status: res.status, allow: res.headers.get("allow"), text };
      };
      const table = servedMethods(env.app);
      // The route table is really read: pages, APIs, MCP and both groups are there.
      for (const p of ["/", "/api/scan", "/mcp", "/docs", "/account/signup", "/admin/login"]) {
        assert.ok(table.has(p), `${p} is mounted`);
      }
      const problems: string[] = [];
      let answered405 = 0;
      for (const [path, served] of table) {
        const allow = ORDER.filter((m) => served.has(m)).join(", ");
        const results = [];
        for (const method of PROBES.filter((m) => !served.has(m))) {
          results.push({ method, ...await request(method, path) });
        }
        // A group's session check is registered on a member's path and everything below it
        // ("/account/keys", "/account/keys/*") whether or not the member has a route there: such a
        // path with no route is a 404 to every method, never a 405.
        if (results.every((r) => r.status === 404)) {
          if (!GROUP_MEMBER_PATH.test(path)) problems.push(`${path}: 404 to every method`);
          continue;
        }
        for (const r of results) {
          if (r.status !== 405) {
            problems.push(`${r.method} ${path}: ${r.status}, not 405`);
            continue;
          }
          answered405++;
          if (r.allow !== allow) {
            problems.push(`${r.method} ${path}: Allow ${r.allow}, not ${allow}`);
          }
          const body = JSON.parse(r.text);
          if (!body.error) problems.push(`${r.method} ${path}: no error in ${r.text.slice(0, 80)}`);
        }
        // What Allow lists is served (whatever the answer to an empty request, never a 405).
        for (const method of PROBES.filter((m) => served.has(m))) {
          const r = await request(method, path);
          if (r.status === 405) problems.push(`${method} ${path}: 405, though Allow lists it`);
        }
      }
      assert.deepEqual(problems, []);
      assert.ok(answered405 >= 40, `${answered405} 405 answers checked`);
    } finally {
      await env.close();
    }
  });
}
