/**
 * First-party exports over the API (lib/features/answers/pages.ts), for an account's key (its
 * watched sites) or the operator's PIPELINE_TOKEN:
 *   POST /api/answers/:domain/imports?source=bing-ai|gsc|gsc-ai   the CSV as the body (text/csv,
 *        at most 2 MiB): 201 {import}; a file that is not one of those tables is 400 with why
 *   GET  /api/answers/:domain/pages     per page: answers citing it, the imports, the logs
 * The file is read in a scan thread; nothing of it is parsed on the server's thread.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { BadRequestError, UnsupportedMediaTypeError } from "../../../../kit/errors.ts";
import { readCappedBody } from "../../../../kit/web/http_body.ts";
import { errorResponse } from "../../../../kit/web/openapi.ts";
import { type AnswersAppDeps, answersOf } from "../../context.ts";
import { PATHS } from "../../../../kit/report_urls.ts";
import { ownerOfBearer } from "../../access.ts";
import { MAX_IMPORT_BYTES } from "../../first_party.ts";
import { importExport, sitePages } from "../../pages.ts";

/**
 * CSV in, JSON out, never cached. Only `text/csv` (or `application/octet-stream`): a type no
 * cross-site HTML form can send, so no other site's page can post an import.
 */
const csvApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (c.req.method === "POST" && !/^(text\/csv|application\/octet-stream)\b/i.test(type)) {
    throw new UnsupportedMediaTypeError();
  }
  c.header("Cache-Control", "no-store");
  await next();
};

/** POST /api/answers/:domain/imports. */
export const answerImportsRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerImports,
  use: [csvApi],
  handlers: (deps) => ({
    POST: async (c) => {
      const a = answersOf(deps);
      const owner = await ownerOfBearer(c.req.header("authorization"), a);
      const bytes = await readCappedBody(c.req.raw, MAX_IMPORT_BYTES);
      if (!bytes) throw new BadRequestError("The body must be the exported CSV file.");
      // Decoding is not parsing: the text goes to a thread as it is.
      const text = new TextDecoder().decode(bytes);
      const meta = await importExport(
        a,
        owner,
        param(c, "domain"),
        c.req.query("source") ?? "",
        text,
      );
      return c.json(
        { import: { ...meta, importedAt: new Date(meta.importedAt).toISOString() } },
        201,
      );
    },
  }),
  openapi: () => ({
    post: {
      tags: ["answers"],
      security: [{ bearerAuth: [] }],
      operationId: "importFirstPartyExport",
      summary: "Import a Bing AI Performance or Search Console export (CSV) for the site",
      parameters: [
        {
          name: "domain",
          in: "path",
          required: true,
          description: "A watched domain.",
          schema: { type: "string" },
        },
        {
          name: "source",
          in: "query",
          required: true,
          description: "bing-ai (AI Performance), gsc (Performance) or gsc-ai (Generative AI).",
          schema: { type: "string", enum: ["bing-ai", "gsc", "gsc-ai"] },
        },
      ],
      requestBody: {
        required: true,
        content: { "text/csv": { schema: { type: "string" } } },
      },
      responses: {
        "201": {
          description: "Imported: {import: {source, table, columns, unknownColumns, rows, dates}}.",
          content: { "application/json": { schema: { type: "object" } } },
        },
        "400": errorResponse("Not one of the tables of that source, with the line and why."),
        "401": errorResponse("No key or token."),
        "403": errorResponse("A site the account does not watch."),
        "413": errorResponse("Over 2 MiB."),
        "415": errorResponse("Not text/csv."),
      },
    },
  }),
};

/** A read of the API: never cached. */
const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header("Cache-Control", "no-store");
  await next();
};

/** GET /api/answers/:domain/pages. */
export const answerPagesRoute: RouteDef<AnswersAppDeps> = {
  path: PATHS.answerPages,
  use: [noStore],
  handlers: (deps) => ({
    GET: async (c) => {
      const a = answersOf(deps);
      const owner = await ownerOfBearer(c.req.header("authorization"), a);
      return c.json(await sitePages(a, owner, param(c, "domain")));
    },
  }),
  openapi: () => ({
    get: {
      tags: ["answers"],
      security: [{ bearerAuth: [] }],
      operationId: "getAnswerPages",
      summary: "Per page: answers citing it, the first-party exports, verified crawler hits",
      parameters: [{
        name: "domain",
        in: "path",
        required: true,
        description: "A watched domain.",
        schema: { type: "string" },
      }],
      responses: {
        "200": {
          description: "{domain, imports, pages, queries}.",
          content: { "application/json": { schema: { type: "object" } } },
        },
        "401": errorResponse("No key or token."),
        "403": errorResponse("A site the account does not watch."),
      },
    },
  }),
};
