/**
 * Issue 39's attacks on CPU time, against the server as `deno task start` runs it (its exact
 * flags and permissions: tests/helpers/start_task_server.ts) with MEMORY_MB=512 (one worker
 * process): input that keeps the code that reads it busy for hours costs one piece of work, never
 * a slot and never the server's thread.
 *
 * - **Site names that make the old legal-form rule backtrack** (lib/engines/structured/site_name.ts
 *   before issue 39: 23 groups of "   co" ran for hours): a scan of such a page (both services),
 *   two anonymous validations of such markup (schema), and answer presence's plan built from such
 *   a home page (visibility).
 * - **A robots.txt whose rule the old fix matcher compiled to a backtracking regex** (10 stars
 *   over the sampled pages' 40-character paths: 7 stars took 32 s here).
 * - **A vendor answer of 900,000 nested arrays** (parsed on the server's thread before).
 *
 * Whatever the parsers do with such input by the time this runs (issue 39 item 2 makes them
 * linear), each piece of work ends: stored `ok`, or killed at its time limit and stored failed
 * "too large or too complex" (a 422 for a validation). After each: /healthz 200 with no slot lost,
 * and the next ordinary scan and validation are served. /healthz is probed every 50 ms throughout:
 * no probe fails, and the slowest stays under {@link HEALTH_BOUND_MS}.
 *
 * Since issue 39 made those parsers linear, these scans end `ok`; the first test keeps old code
 * running: the same server and flags with a scanner that applies the site-name rule as it was
 * (tests/helpers/old_code_server.ts, tests/fixtures/old_site_name_scanner.ts), so a scan holds its
 * worker's CPU for hours and is killed at its time limit. A job in `for (;;) {}` on the real worker
 * process is killed the same way (tests/process_pool_test.ts).
 */
import assert from "node:assert/strict";
import { TOO_COMPLEX } from "../../lib/kit/isolate/runner.ts";
import { type StartedServer, startLikeStartTask } from "../helpers/start_task_server.ts";
import { probeHealth } from "./helpers/health_probe.ts";

const PIPELINE = "pipeline-token-for-cpu-isolation-tests-0123456789";

/**
 * The slowest /healthz probe allowed over a run. The issue asks for under 200 ms; a single probe
 * on this shared 2-core machine has taken up to 857 ms with nothing stalled (docs/reliability.md),
 * so the bound is generous: what it rules out is a stall, which the old code made 43 s to hours
 * long (every request of every user waited on the parse).
 */
const HEALTH_BOUND_MS = 2000;

/** A name the old legal-form rule took hours over: 23 groups of "   co", and not a legal form. */
const HOSTILE_NAME = `Acme${"   co".repeat(23)}!`;

/** The page whose site name is {@link HOSTILE_NAME}, stated as og:site_name and in JSON-LD. */
const NAME_PAGE = page(
  "Acme",
  `<meta property="og:site_name" content="${HOSTILE_NAME}">` + jsonLd(HOSTILE_NAME),
);

/** A long path the sampled pages have, and a rule whose old regex backtracks over it. */
const LONG_PATH = `/${"a".repeat(40)}`;
const HOSTILE_ROBOTS = `User-agent: *\nDisallow: /${"*a".repeat(10)}*b\nDisallow: ${LONG_PATH}\n`;

function page(title: string, head = "", links = ""): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title>` +
    `<meta name="description" content="A page of ${title} for the CPU isolation tests.">${head}` +
    `</head><body><main><h1>${title}</h1><p>${
      "Plain words about what this site does. ".repeat(40)
    }` +
    `</p>${links}</main></body></html>`;
}

function jsonLd(name: string): string {
  return `<script type="application/ld+json">${
    JSON.stringify({ "@context": "https://schema.org", "@type": "Organization", name })
  }</script>`;
}

/** The hostile and ordinary sites, by host name, on one loopback port. */
function startSites(): { port: number; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const host = (req.headers.get("host") ?? "").split(":")[0];
    const path = new URL(req.url).pathname;
    const html = (body: string) =>
      new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
    if (host === "robots.test") {
      if (path === "/robots.txt") return new Response(HOSTILE_ROBOTS);
      const links = [0, 1, 2, 3, 4].map((i) => `<a href="${LONG_PATH}${i}">page ${i}</a>`).join("");
      return html(page("Robots", "", links));
    }
    if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
    if (path !== "/") return new Response("not found", { status: 404 });
    return html(host === "name.test" ? NAME_PAGE : page(host));
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

/** A vendor (OpenAI's API, reached through ANSWERS_RESOLVE) answering 900,000 nested arrays. */
function startDeepVendor(): { port: number; close(): Promise<void> } {
  const deep = "[".repeat(900_000) + "]".repeat(900_000);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    return new Response(deep, { headers: { "content-type": "application/json" } });
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

const HOSTS = ["name.test", "robots.test", "plain.test", "after.test", "next.test"];

async function startServer(
  service: "visibility" | "schema",
  sites: number,
  vendor?: number,
  entry?: string,
) {
  const dir = await Deno.makeTempDir();
  const server = await startLikeStartTask({
    SERVICE: service,
    MEMORY_MB: "512",
    KV_PATH: `${dir}/kv.sqlite3`,
    PIPELINE_TOKEN: PIPELINE,
    SCAN_RESOLVE: [...HOSTS.map((h) => `${h}=127.0.0.1:${sites}`), "offsite.test=127.0.0.1:9"]
      .join(","),
    WIKIDATA_API_URL: "http://offsite.test/w/api.php",
    WIKIPEDIA_API_URL: "http://offsite.test/w/api.php",
    COMMONCRAWL_INDEX_URL: "http://offsite.test",
    OFFSITE_TIMEOUT_MS: "300",
    // A stuck scan is killed after 6 s (and tried twice): the test's time, not the server's.
    SCAN_TIMEOUT_MS: "5000",
    SCAN_THREAD_TIMEOUT_MS: "6000",
    AUDIT_PAGES: "6",
    LOG_REQUESTS: "0",
    ...(vendor
      ? {
        ANSWERS_RESOLVE: `api.openai.com=127.0.0.1:${vendor}`,
        OPENAI_API_KEY: "sk-cpu-isolation-test-0001",
        ANSWERS_SAMPLES: "1",
        ANSWERS_MAX_QUESTIONS: "1",
      }
      : {}),
  }, { entry });
  return {
    server,
    close: async () => {
      await server.kill();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

function call(
  server: StartedServer,
  method: string,
  path: string,
  body?: unknown,
  auth: string | null = PIPELINE,
) {
  return fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(auth ? { authorization: `Bearer ${auth}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
}

/** Scans `host` and waits for its stored record (at most 2 minutes). */
async function scan(server: StartedServer, host: string): Promise<Record<string, unknown>> {
  const res = await call(server, "POST", "/api/scan", { url: `http://${host}/` });
  await res.body?.cancel();
  assert.equal(res.status, 202, host);
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (server.exited()) throw new Error(`the server died:\n${server.output().slice(-3000)}`);
    const r = await fetch(`${server.base}/api/report/${host}.json`);
    if (r.status === 200) return await r.json();
    await r.body?.cancel();
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${host} was never stored`);
}

/** The scan ended as a scan may: stored ok, or stored failed for its bounds. */
async function assertEnded(server: StartedServer, host: string, record: Record<string, unknown>) {
  if (record.status === "ok") return;
  assert.equal(record.status, "failed", host);
  // Logged after the record is stored: read once printed.
  const finished = await server.waitForEvents((e) =>
    e.event === "scan.finished" && e.domain === host
  );
  assert.ok(
    finished.some((e) => String(e.failure).startsWith(TOO_COMPLEX)),
    `${host}: ${JSON.stringify(finished)}`,
  );
}

/** A decent site's scan is stored ok (a failure says why, from the server's log). */
async function assertServed(server: StartedServer, host: string) {
  const record = await scan(server, host);
  if (record.status === "ok") return;
  const finished = await server.waitForEvents((e) =>
    e.event === "scan.finished" && e.domain === host
  );
  assert.fail(`${host} was stored ${record.status}: ${JSON.stringify(finished)}`);
}

/** What the server's log says of workers killed at a limit (printed: which work hit one). */
function killedSummary(server: StartedServer): string {
  const killed = server.events().filter((e) => e.event === "scan.worker_killed");
  return `workers killed: ${killed.map((e) => `${e.work} (${e.cause})`).join(", ") || "none"}`;
}

/** /healthz answers 200 with every slot there: nothing was lost to the input. */
async function assertWhole(server: StartedServer) {
  const res = await fetch(`${server.base}/healthz`);
  assert.equal(res.status, 200);
  const health = await res.json();
  assert.equal(health.ok, true);
  assert.deepEqual(
    { kind: health.threads.kind, max: health.threads.max, lost: health.threads.lost },
    { kind: "process", max: 1, lost: 0 },
  );
}

Deno.test("[security/cpu] old code that holds a scan's CPU for hours (the site-name rule before issue 39), as the start task runs it in 512 MB: its worker is killed at its time limit and replaced, the scan stored failed, no slot lost, the next scan served", async () => {
  const sites = startSites();
  const old = "tests/helpers/old_code_server.ts";
  const { server, close } = await startServer("visibility", sites.port, undefined, old);
  const health = probeHealth(server.base);
  try {
    assert.match(server.output(), /Scan isolation: each scan and job in a worker process/);
    const record = await scan(server, "name.test");
    assert.equal(record.status, "failed");
    await assertEnded(server, "name.test", record);
    // Tried twice (lib/engines/scan/worker.ts), each attempt's worker killed at its 6 s limit.
    const killed = server.events().filter((e) => e.event === "scan.worker_killed");
    assert.deepEqual(killed.map((e) => `${e.work}:${e.cause}`), ["scan:time", "scan:time"]);
    await assertWhole(server);
    await assertServed(server, "after.test");
    const h = await health.stop();
    console.log(`old code: /healthz ${JSON.stringify(h)}; ${killedSummary(server)}`);
    assert.deepEqual(h.failures, []);
    assert.ok(h.max < HEALTH_BOUND_MS, `the slowest /healthz took ${h.max} ms`);
  } finally {
    await health.stop();
    await close();
    await sites.close();
  }
});

Deno.test("[security/cpu] visibility, as the start task runs it in 512 MB: a hostile site name, a hostile robots.txt, answer presence's plan from a hostile home page and a vendor's 900,000-deep answer each cost their own work only", async () => {
  const sites = startSites();
  const vendor = startDeepVendor();
  const { server, close } = await startServer("visibility", sites.port, vendor.port);
  const health = probeHealth(server.base);
  try {
    await assertWhole(server);
    for (const host of ["name.test", "robots.test"]) {
      await assertEnded(server, host, await scan(server, host));
      await assertWhole(server);
    }
    // The plan's default questions come from the watched site's home page: its facts are read in
    // a worker now; past its limit the plan still answers, with the domain as the brand.
    const plan = await call(server, "GET", "/api/answers/name.test");
    assert.equal(plan.status, 200, await plan.clone().text());
    await plan.body?.cancel();
    await assertWhole(server);
    // A vendor answering 900,000 nested arrays: read in a worker, an invalid response.
    const started = await call(server, "POST", "/api/answers/plain.test/runs", {});
    assert.equal(started.status, 202, await started.clone().text());
    const { run } = await started.json();
    let finished: { run: { status: string } } | null = null;
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const r = await call(server, "GET", `/api/answers/plain.test/runs/${run.id}`);
      const body = await r.json();
      if (body.run.status !== "running" && body.run.status !== "queued") {
        finished = body;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(finished, "the run ended");
    assert.match(JSON.stringify(finished), /invalid_response/);
    await assertWhole(server);
    // The next ordinary scan is served.
    await assertServed(server, "after.test");
    const h = await health.stop();
    console.log(`visibility: /healthz ${JSON.stringify(h)}; ${killedSummary(server)}`);
    assert.deepEqual(h.failures, []);
    assert.ok(h.max < HEALTH_BOUND_MS, `the slowest /healthz took ${h.max} ms`);
    assert.equal(server.exited(), false);
  } finally {
    await health.stop();
    await close();
    await vendor.close();
    await sites.close();
  }
});

Deno.test("[security/cpu] schema, as the start task runs it in 512 MB: a scan of a hostile site name and two anonymous validations of it cost their own work only; the next scan and validation are served", async () => {
  const sites = startSites();
  const { server, close } = await startServer("schema", sites.port);
  const health = probeHealth(server.base);
  try {
    await assertEnded(server, "name.test", await scan(server, "name.test"));
    await assertWhole(server);
    // Two anonymous requests of a few hundred bytes each (the issue's 223).
    const code = { html: NAME_PAGE };
    for (let i = 0; i < 2; i++) {
      const res = await call(server, "POST", "/api/validate", code, null);
      const body = await res.json();
      assert.ok(
        res.status === 200 ||
          (res.status === 422 && String(body.error).includes("too large or too complex")),
        `${res.status} ${JSON.stringify(body).slice(0, 300)}`,
      );
      await assertWhole(server);
    }
    const ordinary = await call(server, "POST", "/api/validate", {
      jsonld: JSON.stringify({ "@context": "https://schema.org", "@type": "Thing", name: "A" }),
    }, null);
    assert.equal(ordinary.status, 200);
    assert.equal((await ordinary.json()).result.summary.types[0], "Thing");
    await assertServed(server, "next.test");
    const h = await health.stop();
    console.log(`schema: /healthz ${JSON.stringify(h)}; ${killedSummary(server)}`);
    assert.deepEqual(h.failures, []);
    assert.ok(h.max < HEALTH_BOUND_MS, `the slowest /healthz took ${h.max} ms`);
  } finally {
    await health.stop();
    await close();
    await sites.close();
  }
});
