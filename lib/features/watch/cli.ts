/**
 * `deno task watch run <watch-id>`: the operator starts a watch's scan now, from the server's
 * machine, through the running server's API (`POST /api/watches/<id>/run` with PIPELINE_TOKEN), so
 * the scan runs in the server's own worker and the watch's comparison and alert follow as usual.
 * The request leaves through the guarded fetcher: to this machine's server by the loopback
 * mapping of its port (as SCAN_RESOLVE maps a test site), or to PUBLIC_URL (--url) as any public
 * address.
 *
 *   --url <origin>   the server (default: http://localhost:<PORT>)
 *
 * Exit codes: 0 started, 1 refused (no such watch, too soon, a full pool), 2 bad use or settings,
 * 3 the server could not be reached.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../../kit/config.ts";
import { createGuardedFetcher } from "../../kit/net/guarded_fetch.ts";
import { FetchError } from "../../kit/net/types.ts";

import { fillPath, PATHS } from "../../kit/report_urls.ts";
const USAGE = `Usage: deno task watch run <watch-id> [--url http://localhost:8000]

Starts the watch's scan now on the running server (PIPELINE_TOKEN must be set, as for the server).`;

/** A watch id as the API gives them: 1-100 letters, digits, `_` and `-` (checked a character at a time). */
function isWatchId(id: string): boolean {
  return id.length <= 100 && [...id].every((ch) => /[\w-]/.test(ch));
}

/** Where the CLI writes. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the CLI; returns the exit code. */
export async function main(
  args: string[],
  env?: Record<string, string | undefined>,
  io: CliIo = { out: (t) => console.log(t), err: (t) => console.error(t) },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { url: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    });
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [verb, id] = parsed.positionals;
  if (parsed.values.help || verb !== "run" || !id || !isWatchId(id)) {
    io.err(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
  if (!config.pipelineToken) {
    io.err("PIPELINE_TOKEN is not set: the operator's run goes through the API with it.");
    return 2;
  }
  const base = new URL(parsed.values.url ?? `http://localhost:${config.port || 8000}`);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(base.hostname);
  const fetcher = createGuardedFetcher({
    userAgent: config.userAgent,
    // This machine's own server: the one loopback host the fetcher may reach, over plain HTTP.
    resolve: local
      ? new Map([[base.hostname, { host: "127.0.0.1", port: Number(base.port || 80) }]])
      : undefined,
    requestTimeoutMs: 30_000,
    maxRedirects: 0,
  });
  try {
    const res = await fetcher.fetch(
      new URL(fillPath(PATHS.watchRun, { id }), base).href,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${config.pipelineToken}`,
          "content-type": "application/json",
        },
        body: "{}",
        maxBytes: 64 * 1024,
      },
    );
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(res.body);
    } catch { /* said below */ }
    if (res.status === 202) {
      io.out(
        `Started the scan of ${(body.watch as { target?: string })?.target ?? id}` +
          `${body.joined ? " (joined the scan in progress)" : ""}: ${body.scanId}. Follow ${
            new URL(String(body.statusUrl), base).href
          }`,
      );
      return 0;
    }
    io.err(`Refused (${res.status}): ${String(body.error ?? res.body.slice(0, 300))}`);
    return 1;
  } catch (e) {
    if (!(e instanceof FetchError)) throw e;
    io.err(`The server at ${base.origin} could not be reached: ${e.message}`);
    return 3;
  } finally {
    await fetcher.close();
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args, Deno.env.toObject()));
