/**
 * `deno task logs`, end to end: a fixture log read from a file and from standard input (gzip), with
 * the vendors' lists pinned by LOG_IP_RANGES_DIR; the printed figures equal the scenario's.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { rangeDir, RENDER, ROBOTS, SCENARIO } from "./log_fixtures.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
const dir = await rangeDir();

async function run(args: string[], stdin?: Uint8Array<ArrayBuffer>) {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "logs", ...args],
    cwd: ROOT,
    env: { LOG_IP_RANGES_DIR: dir },
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (stdin) {
    const w = child.stdin.getWriter();
    await w.write(stdin);
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("[logs/cli] a file: the report's figures equal the scenario's", async () => {
  const log = await Deno.makeTempFile({ suffix: ".log" });
  const robots = await Deno.makeTempFile();
  await Deno.writeTextFile(log, RENDER.combined(SCENARIO));
  await Deno.writeTextFile(robots, ROBOTS);
  const r = await run([log, `--robots=${robots}`, "--offline"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Format: combined \(detected\)/);
  assert.match(r.stdout, /Lines: 16 read, 12 from crawlers, 4 others dropped, 0 unreadable/);
  assert.match(
    r.stdout,
    /GPTBot: 4 verified \(2xx 4\), 3 spoofed, 0 unverifiable; 3 pages, 5300 bytes/,
  );
  assert.match(r.stdout, /OAI-SearchBot: 1 verified \(3xx 1\), 0 spoofed/);
  assert.match(r.stdout, /ClaudeBot: 1 verified \(5xx 1\)/);
  // --offline asks no DNS: Googlebot's hits cannot be decided and say so.
  assert.match(r.stdout, /Googlebot: 0 verified, 0 spoofed, 2 unverifiable/);
  assert.match(
    r.stdout,
    /GPTBot \/private\/x: 1 hit\(s\); robots.txt line 2: Disallow: \/private\//,
  );
  assert.match(r.stdout, /GPTBot: 3 from 203\.0\.113\.0\/24 \(3\)/);
  for (const ip of ["198.51.100.77", "198.51.100.78", "2001:db8:beef::1"]) {
    assert.ok(!r.stdout.includes(ip));
  }
});

Deno.test("[logs/cli] standard input, gzip, a chosen format, JSON out", async () => {
  const r = await run(
    ["-", "--format=caddy", "--json", "--offline"],
    new Uint8Array(gzipSync(RENDER.caddy(SCENARIO))),
  );
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.summary.format, "caddy");
  assert.equal(json.summary.gzip, true);
  assert.equal(json.report.totals.verified, 6);
  assert.equal(json.report.totals.spoofed, 3);
  assert.equal(json.report.totals.unverifiable, 3);
});

Deno.test("[logs/cli] an unknown format is refused with the list; binary input exits 1 with a message", async () => {
  const bad = await run(["-", "--format=apache2"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown format "apache2". Formats: combined, common/);
  const bin = await run(["-", "--offline"], new Uint8Array([0, 1, 2, 3, 0, 255, 254, 10, 0, 0]));
  assert.equal(bin.code, 1);
  assert.match(bin.stdout, /not a text log/);
});
