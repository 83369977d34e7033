/**
 * Facts written once: the home page's pillar weights and grade bands are the scorer's
 * (lib/engines/visibility/score.ts), and the pages' "new scans per hour" is LIMITS (lib/kit/limits/limits.ts).
 */
import assert from "node:assert/strict";
import { startAppEnv } from "./helpers/app_env.ts";
import { GRADES, PILLARS } from "../lib/engines/visibility/score.ts";
import { LIMITS } from "../lib/kit/limits/limits.ts";
import { gradeOf } from "../lib/features/visibility/views/visibility_report.tsx";
import { mcpTools } from "../lib/app/mcp_server.ts";
import { schemaService } from "../lib/features/schema/service.ts";
import { visibilityService } from "../lib/features/visibility/service.ts";

Deno.test("one source - the home page shows the scorer's pillar weights and grade bands", async () => {
  const env = await startAppEnv();
  try {
    const html = await (await env.app.request("/")).text();
    for (const p of PILLARS) {
      assert.match(html, new RegExp(`${p.title}\\s*<span class="muted weight">${p.weight}%`));
    }
    for (const [i, g] of GRADES.entries()) {
      const top = i === 0 ? 100 : GRADES[i - 1].min - 1;
      assert.ok(html.includes(`${g.min}-${top}`), `grade ${g.grade} range`);
    }
    assert.ok(html.includes(`Up to ${LIMITS.ip} new scans per hour`));
    const signup = await (await env.app.request("/account/signup")).text();
    assert.ok(signup.includes(`each key has its own ${LIMITS.key} new scans per hour`));
  } finally {
    await env.close();
  }
});

Deno.test("one source - a pillar score's colour is the grade band of that score", () => {
  for (const g of GRADES) {
    assert.equal(gradeOf(g.min), g.grade);
    if (g.min > 0) assert.notEqual(gradeOf(g.min - 0.5), g.grade);
  }
});

Deno.test("one source - /docs and /openapi.json list exactly the tools /mcp registers", async () => {
  for (const service of [visibilityService, schemaService]) {
    const env = await startAppEnv({ service, env: { SERVICE: service.name } });
    try {
      const tools = mcpTools(env.deps).map((t) => t.name);
      assert.ok(tools.includes("scan_site") && tools.includes("get_report"));
      const listed = await (await env.app.request("/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "localhost",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      })).json();
      assert.deepEqual(
        listed.result.tools.map((t: { name: string }) => t.name).sort(),
        [...tools].sort(),
      );
      const docs = await (await env.app.request("/docs")).text();
      const docsTools = [...docs.matchAll(/<td><code>([a-z_]+)<\/code><\/td>/g)].map((m) => m[1]);
      assert.deepEqual(docsTools, tools);
      const openapi = await (await env.app.request("/openapi.json")).json();
      assert.ok(
        openapi.paths["/mcp"].post.description.includes(`Tools: ${tools.join(", ")}.`),
        service.name,
      );
    } finally {
      await env.close();
    }
  }
});
