/**
 * `deno task scan <url>`: scans a site from the command line and prints a readable report.
 *
 *   --json          print the ScanRecord as JSON instead (same as --format json)
 *   --format F      print the record as json, md (Markdown), html (self-contained) or sarif
 *                   (SARIF 2.1.0 for code scanning: lib/engines/export/sarif.ts) instead
 *   --out FILE      write the record to FILE (format from its extension .json/.md/.html/.sarif, or
 *                   --format); repeatable; stdout keeps the readable report (lib/engines/export/cli_output.ts)
 *   --fail-under N  exit 1 when the score is below N (or the scan failed): for CI pipelines
 *   --all           list every signal, not only those that need attention
 *   --baseline FILE compare with a saved record (JSON); exit 1 on a regression (a lower score or a
 *                   new critical issue): lib/engines/history/baseline.ts
 *   --pages N       pages the site audit samples, home page included (1-50; default AUDIT_PAGES)
 *   --sarif-path-prefix P  the folder the site's files live in, before SARIF results' paths
 *   --render        render the pages in a browser too: the AI's-eye view (docs/rendering.md)
 *
 * Progress goes to stderr so `--json` output can be piped.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../kit/config.ts";
import { InvalidTargetError, normaliseTarget } from "../kit/net/target.ts";
import { renderViewText } from "../features/visibility/render_view_text.ts";
import { scanSite } from "../engines/visibility/scan.ts";
import { formatReport } from "../engines/visibility/format.ts";
import { BaselineError, compareWithBaseline, readBaseline } from "../engines/history/baseline.ts";
import type { BaseRecord } from "../service.ts";
import { renderExport } from "../engines/export/export.ts";
// The CLI is the visibility service's command line: it takes that service's words and export
// bodies (not its whole definition, which would load the pages and the MCP server too).
import { VISIBILITY_WORDS } from "../features/visibility/words.ts";
import { visibilityMarkdown } from "../features/visibility/export_markdown.ts";
import { visibilityHtml } from "../features/visibility/export_html.tsx";
import { visibilitySarif } from "../features/visibility/sarif.ts";
import { exportPlan, writeExports } from "../engines/export/cli_output.ts";
import { formatPagesTable, sampledPages } from "../engines/visibility/audit/format_pages.ts";

const USAGE = `Usage: deno task scan <domain-or-url> [--format json|md|html|sarif] [--out FILE]
                       [--json] [--fail-under N] [--all] [--baseline FILE]
                       [--pages N] [--sarif-path-prefix P] [--render]

Scans a site for AI visibility and prints its score, grade, pillars and top issues.
  --format F      print the record as json (the API's ScanRecord), md (a Markdown report),
                  html (a self-contained HTML report) or sarif (SARIF 2.1.0, for code
                  scanning) instead of the readable report
  --out FILE      write the record to FILE, in the format its extension names (.json, .md,
                  .html, .sarif) or in --format; repeat it for several files; the readable
                  report is still printed
  --json          the same as --format json
  --fail-under N  exit with status 1 when the score is below N or the scan fails
  --all           show every signal, not only those that need attention
  --baseline FILE compare with a saved record (from --json or GET /api/report/<domain>.json) and
                  exit with status 1 on a regression: a lower score or a new critical issue
  --pages N       pages the site audit samples, home page included (1-50; default 10)
  --sarif-path-prefix P
                  the folder the site's files live in (e.g. public/): SARIF results point to
                  P + the URL's path (/robots.txt -> public/robots.txt)
  --render        also render the pages in a browser (local Chromium, or RENDER_BROWSER_URL)
                  and show what crawlers that do not run JavaScript miss (docs/rendering.md)`;

/** Runs the CLI; returns the process exit code. */
export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        format: { type: "string" },
        out: { type: "string", multiple: true },
        "fail-under": { type: "string" },
        all: { type: "boolean", default: false },
        baseline: { type: "string" },
        pages: { type: "string" },
        "sarif-path-prefix": { type: "string" },
        render: { type: "boolean", default: false },
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
  const output = exportPlan(values.format, values.json, values.out ?? []);
  if (typeof output === "string") {
    console.error(output);
    return 2;
  }
  let baseline: BaseRecord | null = null;
  if (values.baseline !== undefined) {
    try {
      baseline = await readBaseline(values.baseline);
    } catch (e) {
      if (e instanceof BaselineError) {
        console.error(e.message);
        return 2;
      }
      throw e;
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
  const color = !output.stdout && Deno.stdout.isTerminal() && !Deno.noColor;
  const started = performance.now();
  const progress = (_step: string, text: string) => {
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`[${s.padStart(5)}s] ${text}`);
  };
  let outcome;
  try {
    const target = normaliseTarget(positionals[0]);
    outcome = await scanSite(values.render ? { ...target, render: true } : target, {
      config,
      onProgress: progress,
      pages,
    });
  } catch (e) {
    if (e instanceof InvalidTargetError) {
      console.error(`Cannot scan "${positionals[0]}": ${e.message}`);
      return 2;
    }
    throw e;
  }
  progress("done", "done");
  const input = {
    service: {
      name: "visibility",
      words: VISIBILITY_WORDS,
      exports: { markdown: visibilityMarkdown, html: visibilityHtml, sarif: visibilitySarif },
    },
    record: outcome.record,
    failure: outcome.failure,
    sarif: { learnBase: config.publicUrl, pathPrefix: values["sarif-path-prefix"] },
  };
  const unwritten = await writeExports(output, input);
  if (unwritten) {
    console.error(unwritten);
    return 2;
  }
  if (output.stdout) {
    console.log(renderExport(input, output.stdout).replace(/\n$/, ""));
  } else {
    console.log(formatReport(outcome.record, {
      color,
      all: values.all,
      failure: outcome.failure,
      learnBase: config.publicUrl,
    }));
    const sample = sampledPages(outcome.record);
    if (sample && sample.length > 1) console.log(`\nSampled pages\n${formatPagesTable(sample)}`);
    const view = renderViewText(outcome.record.render);
    if (view.length) console.log(`\n${view.join("\n")}`);
  }
  const score = outcome.record.result?.score ?? null;
  // The comparison goes to stderr, so `--json` output stays one record.
  const regressed = baseline ? compareWithBaseline(baseline, outcome.record) : null;
  if (regressed) { for (const line of regressed.lines) console.error(line); }
  if (failUnder !== null && (score === null || score < failUnder)) {
    console.error(
      score === null
        ? `Scan failed: ${outcome.failure}`
        : `Score ${score} is below --fail-under ${failUnder}`,
    );
    return 1;
  }
  return regressed?.regression ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
