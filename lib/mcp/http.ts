/**
 * The HTTP edge of POST /mcp: JSON-RPC error bodies (the protocol's shape, not our `{error}`), and
 * a size-capped, validated read of the request body before the SDK transport sees it. Malformed
 * input always ends in a 4xx with a JSON-RPC error, never a 5xx.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { HttpError, PayloadTooLargeError } from "../errors.ts";
import { readCappedBody, strictUtf8 } from "../http_body.ts";

/** JSON-RPC 2.0 error codes used at the HTTP edge. */
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  /** The SDK's (and the Streamable HTTP examples') code for transport-level refusals. */
  serverError: -32000,
} as const;

/**
 * An HTTP error whose body is a JSON-RPC error response with `id: null`. Thrown by the /mcp route
 * and rendered by lib/app.ts `onError` like every other {@link HttpError}.
 */
export class JsonRpcHttpError extends HttpError {
  override name = "JsonRpcHttpError";
  constructor(
    status: number,
    readonly code: number,
    message: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {
    super(status, message);
  }
  override body(): Record<string, unknown> {
    return { jsonrpc: "2.0", error: { code: this.code, message: this.message }, id: null };
  }
  override headers(): Record<string, string> {
    return this.extraHeaders;
  }
}

/** 405 for any method but POST: the server is stateless, so it offers no GET stream or DELETE. */
export function methodNotAllowed(): JsonRpcHttpError {
  return new JsonRpcHttpError(405, JSONRPC.serverError, "Method not allowed.", { Allow: "POST" });
}

/**
 * Reads a JSON-RPC message from a POST body of at most `maxBytes` (counted while streaming, so a
 * missing or lying Content-Length cannot make us buffer more), and checks it is one JSON-RPC
 * request, notification or response.
 *
 * Batches are refused: the current protocol revision (2025-06-18 and later) removed JSON-RPC
 * batching, and the SDK's clients never send one; refusing them also means one HTTP request runs
 * at most one tool call.
 *
 * @throws JsonRpcHttpError 413 (too large), 400 -32700 (not JSON), 400 -32600 (not JSON-RPC).
 */
export async function readJsonRpcBody(request: Request, maxBytes: number): Promise<unknown> {
  let bytes: Uint8Array;
  try {
    bytes = (await readCappedBody(request, maxBytes)) ?? new Uint8Array();
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw tooLarge(maxBytes);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(bytes));
  } catch {
    throw new JsonRpcHttpError(400, JSONRPC.parseError, "Parse error: the body is not valid JSON");
  }
  if (Array.isArray(value)) {
    throw new JsonRpcHttpError(
      400,
      JSONRPC.invalidRequest,
      "Invalid Request: JSON-RPC batches are not supported; send one message per request",
    );
  }
  if (!JSONRPCMessageSchema.safeParse(value).success) {
    throw new JsonRpcHttpError(
      400,
      JSONRPC.invalidRequest,
      "Invalid Request: the body is not a JSON-RPC 2.0 request, notification or response",
    );
  }
  return value;
}

function tooLarge(maxBytes: number): JsonRpcHttpError {
  return new JsonRpcHttpError(
    413,
    JSONRPC.serverError,
    `Request body too large (limit ${maxBytes} bytes)`,
  );
}
