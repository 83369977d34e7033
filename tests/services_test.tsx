/**
 * A service is one folder (lib/service.ts ServiceDef): a third service, defined whole in this file
 * and handed to the normal composition (lib/app/server.ts createServer, through the test env) with
 * nothing else edited, gets its home page, its 405s, its OpenAPI document, its scans run by the
 * worker with its typed progress steps on the status URL and the progress card, its report page,
 * its exports, its badge and its MCP server; the routes it does not serve (compare, validate) are
 * not mounted. And the two real services keep every progress step on exactly one row of their card.
 */
import assert from "node:assert/strict";
import { z } from "zod";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServiceDef, WorkerStepId } from "../lib/service.ts";
import type { VisibilityStep } from "../lib/engines/visibility/snapshot.ts";
import type { SchemaStep } from "../lib/features/schema/scanner.ts";
import { COLOURS } from "../lib/kit/ui/badge.ts";
import { SERVICES } from "../lib/app/server.ts";
import { PIPELINE, startAppEnv } from "./helpers/app_env.ts";

const WordsRecordSchema = z.object({
  domain: z.string(),
  status: z.enum(["ok", "failed"]),
  scannedAt: z.string(),
  result: z.object({ words: z.number().int() }).nullable(),
});
type WordsRecord = z.infer<typeof WordsRecordSchema>;

/** What the scan waits on, so the test sees it running on its typed step. */
let release: () => void = () => {};
const gate = new Promise<void>((r) => release = r);

/** The Word Counter: counts a site's words (the same number for every site: it is a test). */
const wordsService: ServiceDef<WordsRecord, "counting"> = {
  name: "words",
  title: "Word Counter",
  words: {
    title: "Word Counter",
    reportKind: "Word count",
    fileKind: "word-count",
    badgeLabel: "words",
    badgeAlt: "Word count",
    homeDescription: "Count the words of a site.",
    sisterPitch: "how many words a site has",
    sister: "visibility",
    exampleTarget: "example.com",
    resultJq: ".result.words",
    mcpName: "word-counter",
    targetWords: "a domain",
    recordWords: "The record holds the number of words.",
    form: { label: "Site", hint: "A domain", placeholder: "example.com", button: "Count" },
  },
  watchTarget: "site",
  keyPrefix: "uwk_",
  recordSchema: WordsRecordSchema,
  run: async (target, { now, onProgress }) => {
    onProgress?.({ id: "counting", text: "counting the words" });
    await gate;
    return {
      record: {
        domain: target.domain,
        status: "ok",
        scannedAt: now().toISOString(),
        result: { words: 42 },
      },
      failure: null,
    };
  },
  // Scan threads would load this module; the test env runs scans in this isolate.
  scanner: new URL(import.meta.url),
  progress: [
    { label: "Waiting for a free scanner", steps: [] },
    { label: "Counting every word", steps: ["starting", "counting"] },
    { label: "Writing the count down", steps: ["saving"] },
  ],
  home: (props) => (
    <section>
      <h1>Count the words of a site</h1>
      <p>{props.sister ? `Sister: ${props.sister.name}` : "No sister"}</p>
    </section>
  ),
  report: (stored) => {
    const record = stored.record as WordsRecord;
    return {
      title: `Words of ${record.domain}`,
      description: "A word count.",
      body: <p class="words-report">{record.result?.words ?? 0} words counted</p>,
    };
  },
  exports: {
    markdown: (input) => [
      `# ${input.service.words.reportKind}: ${input.record.domain}`,
      `${(input.record as WordsRecord).result?.words ?? 0} words counted`,
    ],
    html: (input) => <p>{(input.record as WordsRecord).result?.words ?? 0} words counted</p>,
    sarif: () => ({ rules: [], results: [] }),
  },
  badge: (record) => ({ message: `${record.result?.words ?? 0} words`, colour: COLOURS.A }),
  mcp: {
    serverName: "word-counter",
    summarise: (record) => `Words of ${record.domain}`,
    instructions: "Counts the words of a site.",
    tools: [{
      name: "count_words",
      register: (server: McpServer) => {
        server.registerTool("count_words", {
          title: "Count the words of a site",
          description: "Answers the count (it is a test: always 42).",
        }, () => ({ content: [{ type: "text", text: "42" }] }));
      },
    }],
  },
};

const json = { accept: "application/json" };

Deno.test("services - a third service defined in one place is served whole by the normal composition", async () => {
  const env = await startAppEnv({ service: wordsService as ServiceDef, worker: true });
  try {
    // Its home page, with the sister's words from the registry; 405s like every route.
    const home = await env.app.request("/");
    assert.equal(home.status, 200);
    const html = await home.text();
    assert.match(html, /<h1>Count the words of a site<\/h1>/);
    assert.match(html, /Sister: AI Visibility Checker/);
    assert.match(html, /<title>Word Counter<\/title>/);
    const put = await env.app.request("/", { method: "PUT", headers: json });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, HEAD");
    // Its OpenAPI document: its title, key prefix and record schema; no compare, no validate.
    const doc = await (await env.app.request("/openapi.json")).json();
    assert.equal(doc.info.title, "Word Counter API");
    assert.deepEqual(Object.keys(doc.components.schemas.ScanRecord.properties), [
      "domain",
      "status",
      "scannedAt",
      "result",
    ]);
    assert.match(doc.components.securitySchemes.bearerAuth.description, /"uwk_"/);
    assert.equal(doc.paths["/api/compare.json"], undefined);
    assert.equal(doc.paths["/api/validate"], undefined);
    for (const path of ["/compare", "/validate", "/api/compare.json?d=a.com"]) {
      const res = await env.app.request(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }

    // A scan: the worker runs its scanner and the status URL shows its typed step.
    const started = await env.scan({ url: "words.example" }, { auth: `Bearer ${PIPELINE}` });
    assert.equal(started.status, 202);
    const { statusUrl } = await started.json();
    let status: { status: string; step: string | null; stepId: string | null } | null = null;
    for (let i = 0; i < 200 && status?.stepId !== "counting"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      status = await (await env.app.request(statusUrl)).json();
    }
    assert.deepEqual(
      { status: status?.status, step: status?.step, stepId: status?.stepId },
      { status: "running", step: "counting the words", stepId: "counting" },
    );
    // The progress card of its report page shows its own rows.
    const progress = await (await env.app.request("/report/words.example")).text();
    assert.match(progress, /Counting every word/);
    assert.match(progress, /Writing the count down/);

    release();
    for (let i = 0; i < 200 && status?.status !== "done"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      status = await (await env.app.request(statusUrl)).json();
    }
    assert.equal(status?.status, "done");

    // Its report page, its exports and its badge.
    const page = await (await env.app.request("/report/words.example")).text();
    assert.match(page, /<title>Words of words\.example/);
    assert.match(page, /<p class="words-report">42 words counted<\/p>/);
    const md = await env.app.request("/api/report/words.example.md");
    assert.equal(md.status, 200);
    assert.match(md.headers.get("content-disposition") ?? "", /words\.example-word-count-/);
    assert.match(await md.text(), /^# Word count: words\.example\n\n42 words counted/);
    const exported = await (await env.app.request("/api/report/words.example.html")).text();
    assert.match(exported, /<p>42 words counted<\/p>/);
    const badge = await (await env.app.request("/badge/words.example.svg")).text();
    assert.match(badge, /<title>words: 42 words<\/title>/);

    // Its MCP server: its name, the common tools and its own.
    const rpc = async (body: unknown) =>
      await (await env.app.request("/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "localhost",
        },
        body: JSON.stringify(body),
      })).json();
    const init = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "test", version: "1" },
      },
    });
    assert.equal(init.result.serverInfo.name, "word-counter");
    assert.match(init.result.instructions, /Counts the words of a site\./);
    const tools = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const names = tools.result.tools.map((t: { name: string }) => t.name);
    for (const name of ["scan_site", "get_report", "count_words"]) assert.ok(names.includes(name));
  } finally {
    release();
    await env.close();
  }
});

Deno.test("services - every step a real service reports is on exactly one row of its progress card", () => {
  // Every member of each step type (a type error here when a step is added and not listed).
  const visibility: Record<VisibilityStep, true> = {
    fetching: true,
    parsing: true,
    sitemaps: true,
    offsite: true,
    sampling: true,
    rendering: true,
    scoring: true,
  };
  const schema: Record<SchemaStep, true> = { fetching: true, rendering: true, validating: true };
  const worker: Record<WorkerStepId, true> = { starting: true, saving: true };
  const reported: Record<string, string[]> = {
    visibility: Object.keys(visibility),
    schema: Object.keys(schema),
  };
  for (const [name, steps] of Object.entries(reported)) {
    const rows = SERVICES[name].progress;
    assert.deepEqual(rows[0].steps, [], `${name}: the first row is the queue`);
    for (const step of [...steps, ...Object.keys(worker)]) {
      assert.equal(rows.filter((r) => r.steps.includes(step)).length, 1, `${name}: ${step}`);
    }
  }
});
