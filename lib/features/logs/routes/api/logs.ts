/**
 * Server logs over the API (docs/logs.md), for an account's API key; never anonymous:
 *   POST /api/logs/:domain[?format=ID]   the body is the log itself (plain or gzip; its
 *                                        Content-Length stated and at most LOG_UPLOAD_MAX_MB),
 *                                        streamed into a worker that reads it; its aggregates are
 *                                        added to the account's site. 200 {domain, read, report}
 *   GET  /api/logs/:domain               the site's report and its last reads
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { BadRequestError, HttpError, PayloadTooLargeError } from "../../../../kit/errors.ts";
import { errorResponse } from "../../../../kit/web/openapi.ts";
import { accountOfBearer } from "../../../../kit/auth/caller.ts";
import { InvalidTargetError, normaliseTarget } from "../../../../kit/net/target.ts";
import { logsOf } from "../../site_logs.ts";
import { FORMAT_IDS, type LogFormatId } from "../../formats.ts";
import { ReadersBusyError, ReadTimeoutError } from "../../worker_reader.ts";

import { PATHS } from "../../../../kit/report_urls.ts";
/** The account behind the request's API key (401 otherwise). */
async function accountOf(deps: AppDeps, c: Context<AppEnv>): Promise<string> {
  const { accountId } = await accountOfBearer(c.req.header("authorization"), {
    store: deps.store,
    keyPrefix: deps.service.keyPrefix,
    now: deps.now,
  });
  return accountId;
}

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
  let seen = 0;
  const state = { over: false };
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        if (state.over) return;
        if (seen + chunk.length > limit) {
          state.over = true;
          c.enqueue(chunk.subarray(0, limit - seen));
          seen = limit;
          c.terminate();
          return;
        }
        seen += chunk.length;
        c.enqueue(chunk);
      },
    }),
  );
  return { stream, state };
}

/** Reads an upload (POST) and answers with the read and the site's report. */
export async function ingestUpload(
  deps: AppDeps,
  c: Context<AppEnv>,
  accountId: string,
  domain: string,
  format: LogFormatId | undefined,
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
  try {
    const read = await logs.ingest(accountId, domain, stream, { format, statedBytes: stated });
    if (state.over) {
      read.messages.push(
        `The body was longer than its stated ${stated} bytes; the rest was not read.`,
      );
    }
    return { domain, read, report: await logs.report(accountId, domain) };
  } catch (e) {
    if (e instanceof ReadersBusyError) {
      throw new HttpError(503, "Other logs are being read; retry in a minute");
    }
    if (e instanceof ReadTimeoutError) throw new HttpError(408, "The log took too long to read");
    throw e;
  }
}

/** POST and GET /api/logs/:domain. */
export const logsRoute: RouteDef = {
  path: PATHS.logs,
  handlers: (deps) => ({
    POST: async (c) => {
      const accountId = await accountOf(deps, c);
      const domain = siteOf(param(c, "domain"));
      const format = formatOf(c.req.query("format"));
      c.header("Cache-Control", "no-store");
      return c.json(await ingestUpload(deps, c, accountId, domain, format));
    },
    GET: async (c) => {
      const accountId = await accountOf(deps, c);
      const domain = siteOf(param(c, "domain"));
      const logs = logsOf(deps);
      c.header("Cache-Control", "no-store");
      return c.json({
        domain,
        report: await logs.report(accountId, domain),
        reads: await logs.store.reads(accountId, domain),
      });
    },
  }),
  openapi: () => ({
    post: {
      operationId: "uploadLog",
      summary:
        "Read a server access log of a site (the account's): only crawler aggregates are kept",
      security: [{ bearer: [] }],
      parameters: [
        { name: "domain", in: "path", required: true, schema: { type: "string" } },
        {
          name: "format",
          in: "query",
          required: false,
          schema: { type: "string", enum: FORMAT_IDS },
        },
      ],
      requestBody: {
        required: true,
        content: {
          "text/plain": { schema: { type: "string" } },
          "application/gzip": { schema: { type: "string", format: "binary" } },
          "application/octet-stream": { schema: { type: "string", format: "binary" } },
        },
      },
      responses: {
        "200": { description: "{domain, read: the read's summary, report}" },
        "400": errorResponse("Not a domain, an unknown format or an empty body."),
        "401": errorResponse("No account API key."),
        "408": errorResponse("The log took too long to read."),
        "411": errorResponse("No Content-Length."),
        "413": errorResponse("Larger than LOG_UPLOAD_MAX_MB."),
        "503": errorResponse("The log readers are busy."),
      },
    },
    get: {
      operationId: "getLogReport",
      summary: "The report of a site's uploaded logs (the account's) and its last reads",
      security: [{ bearer: [] }],
      parameters: [{ name: "domain", in: "path", required: true, schema: { type: "string" } }],
      responses: {
        "200": { description: "{domain, report, reads}" },
        "400": errorResponse("Not a domain."),
        "401": errorResponse("No account API key."),
      },
    },
  }),
};
