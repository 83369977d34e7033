/**
 * `deno task logs <file|-> [--format=ID] [--robots=FILE] [--pages=FILE] [--days=N] [--json]
 * [--offline]`: reads an access log (plain or gzip) from a file or standard input and prints the
 * crawler report (docs/logs.md). Address lists come from LOG_IP_RANGES_DIR, else are fetched
 * through the guarded fetcher, else from the shipped snapshot; `--offline` fetches nothing and
 * asks no DNS. Exit status: 0 read, 1 nothing could be read, 2 bad arguments.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../../kit/config.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import { createCrawlerDns } from "../../kit/net/crawler_dns.ts";
import { analyseLog } from "./analyse.ts";
import { FORMAT_IDS, type LogFormatId } from "./formats.ts";
import { loadRanges } from "./ip_ranges.ts";
import { reportText } from "./report_text.ts";
import { keyDirectory } from "./key_directory.ts";

/** Runs the command with `args`; returns the exit status. */
export async function main(args: string[], out = (s: string) => console.log(s)): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: "string" },
        robots: { type: "string" },
        pages: { type: "string" },
        days: { type: "string" },
        json: { type: "boolean" },
        offline: { type: "boolean" },
      },
    });
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const { values, positionals } = parsed;
  const source = positionals[0] ?? "-";
  const format = values.format as LogFormatId | undefined;
  if (format && !FORMAT_IDS.includes(format)) {
    console.error(`Unknown format "${format}". Formats: ${FORMAT_IDS.join(", ")}`);
    return 2;
  }
  const config = loadConfig();
  const fetcher = values.offline ? undefined : createGuardedFetcher({
    userAgent: config.userAgent,
    resolve: config.scanResolve,
  });
  try {
    const ranges = await loadRanges({ directory: config.logs.ipRangesDir, fetcher });
    const input = source === "-" ? Deno.stdin.readable : (await Deno.open(source)).readable;
    const pages = values.pages
      ? (await Deno.readTextFile(values.pages)).split(/\r?\n/).filter(Boolean)
      : [];
    const result = await analyseLog(input, {
      format,
      ranges,
      dns: values.offline ? null : createCrawlerDns(),
      keys: fetcher ? keyDirectory(fetcher) : null,
      robotsTxt: values.robots ? await Deno.readTextFile(values.robots) : null,
      importantPages: pages.map((p) => p.startsWith("/") ? p : new URL(p).pathname),
      days: values.days ? Number(values.days) : undefined,
      maxBytes: config.logs.maxReadBytes,
    });
    out(
      values.json
        ? JSON.stringify(result, null, 2)
        : reportText(result.summary, result.report, result.ranges),
    );
    return result.summary.format && result.summary.lines > result.summary.unreadable ? 0 : 1;
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  } finally {
    await fetcher?.close();
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
