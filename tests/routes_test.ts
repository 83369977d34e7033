/**
 * A route owns its URL (lib/kit/web/route.ts): a route defined here, in the test, and added to the
 * route list alone (nothing else edited) is mounted, answers 405 with the right Allow to the other
 * methods, is in /openapi.json with its operation and component schema, builds its URL from its own
 * path template, and is left out by the services it says it is not for. And the list the app is
 * built from is the one source of the URLs the builders of lib/kit/report_urls.ts fill.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { startAppEnv } from "./helpers/app_env.ts";
import { ROUTES } from "../lib/app/routes.ts";
import { param, type RouteDef } from "../lib/kit/web/route.ts";
import { fillPath, PATHS } from "../lib/kit/report_urls.ts";
import { errorResponse, json } from "../lib/kit/web/openapi.ts";
import { schemaService } from "../lib/features/schema/service.ts";

/** A throwaway route: GET /api/echo/{word}.json answers the word, documented in OpenAPI. */
const echoRoute: RouteDef = {
  path: "/api/echo/{word}.json",
  handlers: () => ({
    GET: (c) => c.json({ word: param(c, "word").slice(0, -".json".length) }),
  }),
  schemas: () => ({ Echo: { schema: z.object({ word: z.string() }), io: "output" } }),
  openapi: () => ({
    get: {
      operationId: "echo",
      summary: "The word, back",
      responses: {
        "200": { description: "The word.", content: json("Echo") },
        "404": errorResponse(""),
      },
    },
  }),
  // Not for the schema service: its app must not mount it.
  servedBy: (service) => service.name !== "schema",
};

Deno.test("routes - a route added to the list alone is mounted, 405s the other methods and is in OpenAPI", async () => {
  const env = await startAppEnv({ routes: [...ROUTES, echoRoute] });
  try {
    const url = fillPath(echoRoute.path, { word: "hello" });
    assert.equal(url, "/api/echo/hello.json");
    const got = await env.app.request(url);
    assert.equal(got.status, 200);
    assert.deepEqual(await got.json(), { word: "hello" });
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await env.app.request(url, { method, headers: { accept: "application/json" } });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get("allow"), "GET, HEAD");
      assert.match((await res.json()).error, /Method not allowed/);
    }
    const doc = await (await env.app.request("/openapi.json")).json();
    assert.equal(doc.paths["/api/echo/{word}.json"].get.operationId, "echo");
    assert.deepEqual(doc.components.schemas.Echo.required, ["word"]);
    // The routes of the list are all still there.
    assert.equal(doc.paths["/api/scan"].post.operationId, "scan");
  } finally {
    await env.close();
  }
  // Without it in the list, the same URL is a plain 404.
  const plain = await startAppEnv();
  try {
    const res = await plain.app.request("/api/echo/hello.json", { method: "PUT" });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const doc = await (await plain.app.request("/openapi.json")).json();
    assert.equal(doc.paths["/api/echo/{word}.json"], undefined);
  } finally {
    await plain.close();
  }
});

Deno.test("routes - a route a service does not serve is neither mounted nor documented there", async () => {
  const env = await startAppEnv({
    service: schemaService,
    env: { SERVICE: "schema" },
    routes: [...ROUTES, echoRoute],
  });
  try {
    const res = await env.app.request("/api/echo/hello.json");
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const doc = await (await env.app.request("/openapi.json")).json();
    assert.equal(doc.paths["/api/echo/{word}.json"], undefined);
    assert.equal(doc.components.schemas.Echo, undefined);
  } finally {
    await env.close();
  }
});

Deno.test("routes - every URL template of lib/kit/report_urls.ts is the path of exactly one route of the list", () => {
  const paths = ROUTES.map((r) => r.path);
  for (const [name, template] of Object.entries(PATHS)) {
    assert.equal(paths.filter((p) => p === template).length, 1, `${name}: ${template}`);
  }
  assert.equal(new Set(paths).size, paths.length, "no path is defined twice");
});

Deno.test("routes - a route that views records waits in the app's one fair queue of record views; others never do", async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((r) => release = r);
  const slow = (path: string, viewsRecords: boolean): RouteDef => ({
    path,
    viewsRecords,
    handlers: () => ({
      GET: async (c) => {
        await held;
        return c.json({ ok: true });
      },
    }),
  });
  const env = await startAppEnv({
    routes: [...ROUTES, slow("/api/slow-view", true), slow("/api/slow-other", false)],
  });
  try {
    const from = (path: string, ip: string) =>
      env.app.request(path, { headers: { "x-forwarded-for": ip } });
    // One caller: 2 views at once, 6 waiting, the next refused at once (lib/kit/web/record_views.ts).
    const views = Array.from({ length: 9 }, () => from("/api/slow-view", "192.0.2.7"));
    const refused = await Promise.race([
      Promise.any(views.map(async (p) => {
        const r = await p;
        if (r.status !== 429) throw new Error(String(r.status));
        return r;
      })),
      new Promise<null>((r) => setTimeout(() => r(null), 2000)),
    ]);
    assert.ok(refused, "the ninth view is refused while eight are held");
    assert.match((await refused.json()).error, /report views/);
    // The same caller's other routes are not queued, nor is another caller's view refused.
    const other = Array.from({ length: 9 }, () => from("/api/slow-other", "192.0.2.7"));
    const another = from("/api/slow-view", "192.0.2.8");
    release();
    const statuses = (await Promise.all([...views, ...other, another])).map((r) => r.status);
    assert.deepEqual(statuses.filter((s) => s === 429).length, 1);
    assert.deepEqual(statuses.slice(9), Array(10).fill(200));
  } finally {
    release();
    await env.close();
  }
});
