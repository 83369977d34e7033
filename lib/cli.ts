/**
 * `deno task scan <url>`: scans a site from the command line and prints a readable report.
 *
 *   --json          print the ScanRecord as JSON instead
 *   --fail-under N  exit 1 when the score is below N (or the scan failed): for CI pipelines
 *   --all           list every signal, not only those that need attention
 *   --pages N       pages the site audit samples, home page included (1-50; default AUDIT_PAGES)
 *
 * Progress goes to stderr so `--json` output can be piped.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "./config.ts";
import { InvalidTargetError } from "./scan/domain.ts";
import { scanSite } from "./visibility/scan.ts";
import { formatReport } from "./visibility/format.ts";
import { formatPagesTable, sampledPages } from "./visibility/audit/format_pages.ts";

const USAGE = `Usage: deno task scan <domain-or-url> [--json] [--fail-under N] [--all] [--pages N]

Scans a site for AI visibility and prints its score, grade, pillars and top issues.
  --json          print the ScanRecord (the API's JSON) instead of the report
  --fail-under N  exit with status 1 when the score is below N or the scan fails
  --all           show every signal, not only those that need attention
  --pages N       pages the site audit samples, home page included (1-50; default 10)`;

/** Runs the CLI; returns the process exit code. */
export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        "fail-under": { type: "string" },
        all: { type: "boolean", default: false },
        pages: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  let failUnder: number | null = null;
  if (values["fail-under"] !== undefined) {
    failUnder = Number(values["fail-under"]);
    if (!Number.isFinite(failUnder) || failUnder < 0 || failUnder > 100) {
      console.error("--fail-under takes a number from 0 to 100");
      return 2;
    }
  }
  let pages: number | undefined;
  if (values.pages !== undefined) {
    pages = Number(values.pages);
    if (!Number.isInteger(pages) || pages < 1 || pages > 50) {
      console.error("--pages takes a whole number from 1 to 50");
      return 2;
    }
  }
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
  const color = !values.json && Deno.stdout.isTerminal() && !Deno.noColor;
  const started = performance.now();
  const progress = (step: string) => {
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`[${s.padStart(5)}s] ${step}`);
  };
  let outcome;
  try {
    outcome = await scanSite(positionals[0], { config, onProgress: progress, pages });
  } catch (e) {
    if (e instanceof InvalidTargetError) {
      console.error(`Cannot scan "${positionals[0]}": ${e.message}`);
      return 2;
    }
    throw e;
  }
  progress("done");
  if (values.json) {
    console.log(JSON.stringify(outcome.record, null, 2));
  } else {
    console.log(formatReport(outcome.record, { color, all: values.all, failure: outcome.failure }));
    const sample = sampledPages(outcome.record);
    if (sample && sample.length > 1) console.log(`\nSampled pages\n${formatPagesTable(sample)}`);
  }
  const score = outcome.record.result?.score ?? null;
  if (failUnder !== null && (score === null || score < failUnder)) {
    console.error(
      score === null
        ? `Scan failed: ${outcome.failure}`
        : `Score ${score} is below --fail-under ${failUnder}`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
