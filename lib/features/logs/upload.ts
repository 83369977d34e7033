/**
 * What the upload paths share (POST /api/logs/:domain with an API key, POST /account/logs/:domain
 * from the account's page): the site a path names, the format a query names, the body stopped at
 * its stated size, and the read of an upload into the account's site with the report after it.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../kit/web/context.ts";
import { BadRequestError, HttpError, PayloadTooLargeError } from "../../kit/errors.ts";
import { InvalidTargetError, normaliseTarget } from "../../kit/net/target.ts";
import { logsOf } from "./site_logs.ts";
import { FORMAT_IDS, type LogFormatId } from "./formats.ts";

/** The site a path names (400 when it is not a domain). */
export function siteOf(raw: string): string {
  try {
    return normaliseTarget(raw).domain;
  } catch (e) {
    if (e instanceof InvalidTargetError) throw new BadRequestError(e.message);
    throw e;
  }
}

/** The format a query names (400 for an unknown one). */
export function formatOf(raw: string | undefined): LogFormatId | undefined {
  if (!raw) return undefined;
  if (!FORMAT_IDS.includes(raw as LogFormatId)) {
    throw new BadRequestError(`Unknown format "${raw}". Formats: ${FORMAT_IDS.join(", ")}`);
  }
  return raw as LogFormatId;
}

/**
 * The upload's body, stopped at `limit` bytes (a body longer than its Content-Length said is cut
 * there, and `over` says so): the stated size is the one checked.
 */
export function cappedBody(body: ReadableStream<Uint8Array>, limit: number) {
  const state = { over: false, seen: 0 };
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        if (state.over) return;
        if (state.seen + chunk.length > limit) {
          state.over = true;
          c.enqueue(chunk.subarray(0, limit - state.seen));
          state.seen = limit;
          c.terminate();
          return;
        }
        state.seen += chunk.length;
        c.enqueue(chunk);
      },
    }),
  );
  return { stream, state };
}

/** How far an upload is: bytes received of the body, bytes read after decompression, lines. */
export interface UploadProgress {
  received: number;
  bytes: number;
  lines: number;
}

/**
 * Reads an upload (POST) and answers with the read and the site's report. A read that cannot be
 * done throws its HTTP error (read_errors.ts: busy 503, stopped 422 or 408, too many counters 422),
 * with nothing stored.
 */
export async function ingestUpload(
  deps: AppDeps,
  c: Context<AppEnv>,
  accountId: string,
  domain: string,
  format: LogFormatId | undefined,
  onProgress?: (progress: UploadProgress) => void,
) {
  const stated = Number(c.req.header("content-length"));
  if (!c.req.header("content-length") || !Number.isInteger(stated) || stated < 0) {
    throw new HttpError(411, "State the log's size: Content-Length is required");
  }
  const limit = deps.config.logs.maxUploadBytes;
  if (stated > limit) throw new PayloadTooLargeError(limit);
  const body = c.req.raw.body;
  if (!body || stated === 0) throw new BadRequestError("The body is empty: send the log itself");
  const { stream, state } = cappedBody(body, stated);
  const logs = logsOf(deps);
  const read = await logs.ingest(accountId, domain, stream, {
    format,
    statedBytes: stated,
    onProgress: onProgress && ((p) => onProgress({ received: state.seen, ...p })),
    received: () => state.seen,
  });
  if (state.over) {
    read.messages.push(
      `The body was longer than its stated ${stated} bytes; the rest was not read.`,
    );
  }
  return { domain, read, report: await logs.report(accountId, domain) };
}
