/**
 * CPU and wall time of the schema analysis of the 2 MB bench page, for comparing two versions
 * on a busy machine: run it for this checkout and for an old one extracted next to it, in turn.
 *
 *   git archive <commit> lib tests/bench | tar -x -C /tmp/old
 *   deno run -A --config deno.json tests/bench/schema_cpu.ts            # this checkout
 *   deno run -A --config deno.json tests/bench/schema_cpu.ts /tmp/old   # the old one
 */
import process from "node:process";
import { pathToFileURL } from "node:url";

const root = Deno.args[0]
  ? pathToFileURL(`${Deno.args[0].replace(/\/$/, "")}/`).href
  : new URL("../../", import.meta.url).href;
const { analysePage } = await import(new URL("lib/engines/schema/scan.ts", root).href);
const { generatePage } = await import(new URL("tests/bench/parse_bench.ts", root).href);

const html: string = generatePage();
const url = "https://www.example.com/";
const page = {
  requestedUrl: url,
  finalUrl: url,
  status: 200,
  contentType: "text/html",
  redirects: 0,
  bytes: html.length,
  truncated: false,
  fetchMs: 0,
};
const cpu: number[] = [];
const wall: number[] = [];
for (let i = 0; i < 10; i++) {
  const c = process.cpuUsage();
  const w = performance.now();
  analysePage(html, page, "example.com");
  wall.push(performance.now() - w);
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1000);
}
const min = (xs: number[]) => Math.round(Math.min(...xs));
console.log(`${Deno.args[0] ?? "this checkout"}: CPU min ${min(cpu)} ms, wall min ${min(wall)} ms`);
