/**
 * Every state-changing route the app mounts (each POST, PUT, PATCH and DELETE, discovered from the
 * app's own route table, for both services) refuses a cross-site post: the bodies a page on another
 * site can make a browser send without a CORS preflight (a form, multipart, text/plain) with that
 * site's Origin are answered 403 (the cross-site guard, MCP's origin check) or 415 (a JSON-only
 * API), never served.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { startAppEnv, type TestEnv } from "./helpers/app_env.ts";
import { schemaService } from "../lib/features/schema/service.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Bodies a cross-site page can send without a preflight. */
const SIMPLE_BODIES: { type: string; body: string }[] = [
  { type: "application/x-www-form-urlencoded", body: "email=a%40example.com&name=x&csrf=x" },
  {
    type: "multipart/form-data; boundary=b",
    body: "--b\r\nContent-Disposition: form-data; " +
      'name="name"\r\n\r\nx\r\n--b--\r\n',
  },
  { type: "text/plain", body: '{"url":"https://example.com/","jsonrpc":"2.0"}' },
];

/** The distinct (method, path) pairs of state-changing routes in a Hono route table. */
export function stateChangingRoutes(app: Pick<Hono, "routes">): { method: string; path: string }[] {
  const seen = new Map<string, { method: string; path: string }>();
  for (const r of app.routes) {
    if (STATE_CHANGING.has(r.method)) seen.set(`${r.method} ${r.path}`, r);
  }
  return [...seen.values()];
}

/** A concrete URL path for a route pattern (parameters and wildcards filled in). */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z_]+/g, "k_test0001").replace(/\*/g, "x");
}

/** The routes (with the answer) that served a cross-site post instead of refusing it. */
async function servedCrossSite(
  request: (path: string, init: RequestInit) => Promise<Response>,
  routes: { method: string; path: string }[],
): Promise<string[]> {
  const served: string[] = [];
  for (const { method, path } of routes) {
    for (const { type, body } of SIMPLE_BODIES) {
      const res = await request(concrete(path), {
        method,
        headers: {
          "content-type": type,
          origin: "https://attacker.example",
          "sec-fetch-site": "cross-site",
          "x-forwarded-for": "203.0.113.77",
        },
        body,
      });
      await res.body?.cancel();
      if (res.status !== 403 && res.status !== 415) {
        served.push(`${method} ${path} (${type.split(";")[0]}): ${res.status}`);
      }
    }
  }
  return served;
}

Deno.test("cross-site - the check finds a state-changing route that serves a cross-site post", async () => {
  const app = new Hono();
  app.post("/unguarded", (c) => c.text("done"));
  app.get("/page", (c) => c.text("page"));
  const routes = stateChangingRoutes(app);
  assert.deepEqual(routes.map((r) => `${r.method} ${r.path}`), ["POST /unguarded"]);
  const served = await servedCrossSite(
    (path, init) => Promise.resolve(app.request(path, init)),
    routes,
  );
  assert.equal(served.length, SIMPLE_BODIES.length);
});

for (const service of [visibilityService, schemaService]) {
  Deno.test(`cross-site - every state-changing route of the ${service.name} app refuses a cross-site post`, async () => {
    const env: TestEnv = await startAppEnv({
      service,
      env: { SERVICE: service.name, ADMIN_PASSWORD: "admin-password-for-tests-0123" },
    });
    try {
      const routes = stateChangingRoutes(env.app);
      // The route table is really read: the account and admin forms, the APIs and MCP are there.
      const paths = new Set(routes.map((r) => r.path));
      for (const p of ["/api/scan", "/mcp", "/account/signup", "/account/keys", "/admin/login"]) {
        assert.ok(paths.has(p), `${p} is mounted`);
      }
      const served = await servedCrossSite(
        (path, init) => Promise.resolve(env.handler(new Request(`http://localhost${path}`, init))),
        routes,
      );
      assert.deepEqual(served, []);
    } finally {
      await env.close();
    }
  });
}
