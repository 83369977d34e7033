/**
 * An uploaded server log is read where it can be stopped for certain (issues 39 and 43): against
 * the server as `deno task start` runs it (its exact flags and permissions:
 * tests/helpers/start_task_server.ts) in 512 MB (one worker), an upload whose reading never ends
 * has its worker process killed at the read's time limit and replaced; the upload gets a 422 that
 * says the log was too slow to read and how far it got, and stores nothing; /healthz answers 200
 * throughout with no slot lost; the next upload is read and stored.
 *
 * The reader is the real one but for one thing: a piece of the upload naming `never-ends.test`
 * sends it into code that never returns (tests/fixtures/stuck_log_reader.ts, served by
 * tests/helpers/stuck_log_server.ts), standing for whatever a hostile log might make a reader do.
 * Before this change such a read ran in a Web Worker thread, which Deno 2.9.6 cannot stop.
 */
import assert from "node:assert/strict";
import { createStore } from "../../lib/app/server.ts";
import { createApiKey } from "../../lib/kit/auth/keys.ts";
import { startLikeStartTask } from "../helpers/start_task_server.ts";
import { probeHealth } from "./helpers/health_probe.ts";

/** The slowest /healthz probe allowed (as tests/security/cpu_isolation_test.ts: a stall, not noise). */
const HEALTH_BOUND_MS = 2000;

/** A Combined Log Format line of an hour ago (the server's retention counts from its own clock). */
function line(ip: string, path: string, referer: string, agent: string): string {
  const t = new Date(Date.now() - 3_600_000);
  const months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");
  const two = (n: number) => String(n).padStart(2, "0");
  const time = `${two(t.getUTCDate())}/${months[t.getUTCMonth()]}/${t.getUTCFullYear()}:` +
    `${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} +0000`;
  return `${ip} - - [${time}] "GET ${path} HTTP/1.1" 200 512 "${referer}" "${agent}"`;
}

const GPTBOT =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A log of `crawlers` GPTBot lines and as many people's, referred from `referer`. */
function log(crawlers: number, referer: string): Uint8Array<ArrayBuffer> {
  const lines: string[] = [];
  for (let i = 0; i < crawlers; i++) {
    lines.push(line("20.171.206.9", `/page-${i}`, referer, GPTBOT));
    lines.push(line(`198.51.100.${i + 1}`, `/page-${i}`, referer, FIREFOX));
  }
  return new TextEncoder().encode(lines.join("\n") + "\n");
}

Deno.test("[security/logs] an upload whose reading never ends, as the start task runs it in 512 MB: its worker killed at the read's limit and replaced, a 422 that stores nothing, /healthz 200 with no slot lost, the next upload read", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const kv = await Deno.openKv(kvPath);
  const { key } = await createApiKey(createStore(kv, "visibility"), "uvk_", {
    name: "logs",
    accountId: "account-of-the-log-isolation-test",
  });
  kv.close();
  const server = await startLikeStartTask({
    SERVICE: "visibility",
    MEMORY_MB: "512",
    KV_PATH: kvPath,
    // A read's limit: 3 s, plus 2 s per stated MB (the logs here are under one).
    LOG_READ_TIMEOUT_MS: "3000",
    LOG_IP_RANGES_FETCH: "off",
    LOG_REVERSE_DNS: "off",
    LOG_REQUESTS: "0",
  }, { entry: "tests/helpers/stuck_log_server.ts" });
  const health = probeHealth(server.base);
  const upload = (domain: string, body: Uint8Array<ArrayBuffer>) =>
    fetch(`${server.base}/api/logs/${domain}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "text/plain",
        "content-length": String(body.length),
      },
      body,
      signal: AbortSignal.timeout(60_000),
    });
  const logsOf = async (domain: string) => {
    const res = await fetch(`${server.base}/api/logs/${domain}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.status, 200);
    return await res.json();
  };
  const whole = async () => {
    const res = await fetch(`${server.base}/healthz`);
    assert.equal(res.status, 200);
    const h = await res.json();
    assert.deepEqual(
      { kind: h.threads.kind, max: h.threads.max, lost: h.threads.lost },
      { kind: "process", max: 1, lost: 0 },
    );
    return h;
  };
  try {
    assert.match(server.output(), /Scan isolation: each scan and job in a worker process/);
    await whole();

    const stuck = await upload("never-ends.test", log(20, "https://never-ends.test/"));
    assert.equal(stuck.status, 422, await stuck.clone().text());
    assert.match(stuck.headers.get("content-type") ?? "", /json/);
    const body = await stuck.json();
    assert.match(body.error, /^The log was too slow to read: it was stopped after 5 s/);
    assert.match(body.error, /nothing of this upload was stored/);
    assert.equal(body.stored, false);
    assert.equal(typeof body.read.lines, "number");

    // Its worker was killed at the limit (the server's log says so once written), and its
    // process is gone.
    const killedEvents = () => server.events().filter((e) => e.event === "scan.worker_killed");
    for (let i = 0; i < 200 && !killedEvents().length; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const killed = killedEvents();
    assert.deepEqual(killed.map((e) => `${e.work}:${e.cause}`), ["job:time"]);
    const pid = Number(killed[0].pid);
    const gone = () => Deno.stat(`/proc/${pid}`).then(() => false, () => true);
    for (let i = 0; i < 200 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(await gone(), `the killed worker ${pid} is gone`);
    // /healthz counts it (its answer is kept a second).
    let h = await whole();
    for (let i = 0; i < 100 && h.threads.killed === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      h = await whole();
    }
    assert.equal(h.threads.killed, 1);
    // Nothing of the stopped read was stored.
    const none = await logsOf("never-ends.test");
    assert.deepEqual(none.report.totals, { verified: 0, spoofed: 0, unverifiable: 0 });
    assert.deepEqual(none.reads, []);

    // The next upload is read in a new worker and stored.
    const next = await upload("shop.test", log(3, "https://shop.test/"));
    assert.equal(next.status, 200, await next.clone().text());
    const read = await next.json();
    assert.equal(read.read.crawlerLines, 3);
    assert.equal(read.read.otherLines, 3);
    const gpt = read.report.crawlers.find((c: { token: string }) => c.token === "GPTBot");
    const hits = gpt.hits.verified + gpt.hits.spoofed + gpt.hits.unverifiable;
    assert.equal(hits, 3);
    assert.equal((await logsOf("shop.test")).reads.length, 1);
    await whole();

    const probes = await health.stop();
    console.log(`logs: /healthz ${JSON.stringify(probes)}`);
    assert.deepEqual(probes.failures, []);
    assert.ok(probes.max < HEALTH_BOUND_MS, `the slowest /healthz took ${probes.max} ms`);
    assert.equal(server.exited(), false);
  } finally {
    await health.stop();
    await server.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
