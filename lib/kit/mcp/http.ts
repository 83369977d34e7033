/**
 * The HTTP edge of POST /mcp: JSON-RPC error bodies (the protocol's shape, not our `{error}`), and
 * a size-capped, validated read of the request body before the SDK transport sees it. Malformed
 * input always ends in a 4xx with a JSON-RPC error, never a 5xx.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { isIP } from "node:net";
import { HttpError, PayloadTooLargeError } from "../errors.ts";
import { readCappedBody, strictUtf8 } from "../web/http_body.ts";

/** JSON-RPC 2.0 error codes used at the HTTP edge. */
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  /** The SDK's (and the Streamable HTTP examples') code for transport-level refusals. */
  serverError: -32000,
} as const;

/**
 * An HTTP error whose body is a JSON-RPC error response with `id: null`. Thrown by the /mcp route
 * and rendered by lib/app/app.ts `onError` like every other {@link HttpError}.
 */
export class JsonRpcHttpError extends HttpError {
  override name = "JsonRpcHttpError";
  constructor(
    status: number,
    readonly code: number,
    message: string,
    private extraHeaders: Record<string, string> = {},
  ) {
    super(status, message);
  }
  /** Adds response headers (e.g. CORS) to the error's answer. */
  addHeaders(headers: Record<string, string>): void {
    this.extraHeaders = { ...this.extraHeaders, ...headers };
  }
  override body(): Record<string, unknown> {
    return { jsonrpc: "2.0", error: { code: this.code, message: this.message }, id: null };
  }
  override headers(): Record<string, string> {
    return this.extraHeaders;
  }
}

/**
 * Who may call /mcp from where: the Host names this deployment answers to (DNS-rebinding
 * protection) and the browser origins besides its own (CORS). Built from the configuration by
 * {@link originPolicyFor}.
 */
export interface McpOriginPolicy {
  /** Accepted Host names (no port, lower case); null accepts any Host. */
  allowedHosts: readonly string[] | null;
  /** IP addresses are accepted as Host too (see {@link checkOrigin}). */
  ipHosts: boolean;
  /** Accepted origins besides the request's own; "*" accepts every origin. */
  allowedOrigins: readonly string[] | "*";
}

/** The policy of a configuration (see docs/mcp.md). */
export function originPolicyFor(
  config: {
    mcpAllowedHosts?: string[] | null;
    mcpAllowIpHosts?: boolean;
    mcpAllowedOrigins?: string[] | "*";
  },
): McpOriginPolicy {
  return {
    allowedHosts: config.mcpAllowedHosts ?? null,
    ipHosts: config.mcpAllowIpHosts ?? false,
    allowedOrigins: config.mcpAllowedOrigins ?? [],
  };
}

/** The host name of a Host header value ("[::1]:8000" -> "::1"), lower case; null if malformed. */
export function hostNameOf(hostHeader: string): string | null {
  const m = hostHeader.trim().toLowerCase().match(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/);
  return m ? m[1].replace(/^\[|\]$/g, "").replace(/\.$/, "") : null;
}

/**
 * Checks Host and Origin as the MCP Streamable HTTP transport requires ("Servers MUST validate
 * the Origin header on all incoming connections to prevent DNS rebinding attacks"; an invalid
 * Origin is 403). A request passes when its Host names this deployment (when names are known)
 * and its Origin, if any, is its own origin or one the operator allowed.
 *
 * A server bound to every interface that knows none of its names accepts loopback names and IP
 * addresses as Host, and refuses every other name: DNS rebinding needs a name (the attacker's,
 * resolved to this server), while a browser sends an IP address as Host only for a page loaded
 * from that very address, whose origin is then the server's own.
 *
 * @returns the request's Origin when a browser sent one and it is allowed (for CORS headers),
 *   null when there is none.
 * @throws JsonRpcHttpError 403 for a foreign Host or Origin.
 */
export function checkOrigin(request: Request, policy: McpOriginPolicy): string | null {
  const hostHeader = request.headers.get("host") ?? new URL(request.url).host;
  const host = hostNameOf(hostHeader);
  const ipHost = policy.ipHosts && host !== null && isIP(host) !== 0;
  if (
    policy.allowedHosts !== null && !ipHost &&
    (host === null || !policy.allowedHosts.includes(host))
  ) {
    throw forbidden("Forbidden: this server does not answer to that Host name");
  }
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  if (policy.allowedOrigins === "*") return origin;
  let parsed: URL | null = null;
  try {
    parsed = new URL(origin);
  } catch {
    // "null" (sandboxed frames, file:) and garbage are foreign.
  }
  if (parsed && (parsed.protocol === "http:" || parsed.protocol === "https:")) {
    if (policy.allowedOrigins.includes(parsed.origin)) return origin;
    // Same origin: the page was served by this very deployment under an accepted Host.
    if (parsed.host === hostHeader.trim().toLowerCase()) return origin;
  }
  throw forbidden("Forbidden: requests from this Origin are not allowed");
}

/** Request headers a browser MCP client sends (the transport's and the SDK's). */
const CORS_ALLOW_HEADERS =
  "Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID";
/** Response headers a browser MCP client must be able to read. */
const CORS_EXPOSE_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After";

/** The CORS headers of every /mcp response to an allowed browser origin. */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS,
    Vary: "Origin",
  };
}

/**
 * The answer to an OPTIONS preflight from an allowed origin (204). GET and DELETE are listed so a
 * browser client sees their real 405 rather than a failed preflight.
 */
export function preflightResponse(origin: string | null): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(origin),
      Allow: "GET, POST, DELETE, OPTIONS",
      "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
      "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS,
      "Access-Control-Max-Age": "86400",
      "Cache-Control": "no-store",
    },
  });
}

function forbidden(message: string): JsonRpcHttpError {
  return new JsonRpcHttpError(403, JSONRPC.serverError, message);
}

/** Protocol revisions that allow JSON-RPC batches (2025-06-18 removed them). */
const BATCH_VERSIONS = new Set(["2024-11-05", "2025-03-26"]);

/** Most messages one batch may hold (each tools/call also counts against the per-IP cap). */
export const MAX_BATCH_MESSAGES = 10;

/**
 * True when the client negotiated a protocol revision with batches. The MCP-Protocol-Version
 * header names it; without the header the server must assume 2025-03-26 (the transport spec).
 */
export function batchesAllowed(request: Request): boolean {
  const version = request.headers.get("mcp-protocol-version");
  return version === null || BATCH_VERSIONS.has(version.trim());
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
 * Batches (a JSON array of messages) are accepted only with `options.allowBatch`, for clients
 * that negotiated a revision that had them (2024-11-05, 2025-03-26; see {@link batchesAllowed}),
 * and hold at most {@link MAX_BATCH_MESSAGES} messages; later revisions removed batching.
 *
 * @throws JsonRpcHttpError 413 (too large), 400 -32700 (not JSON), 400 -32600 (not JSON-RPC).
 */
export async function readJsonRpcBody(
  request: Request,
  maxBytes: number,
  options: { allowBatch?: boolean } = {},
): Promise<unknown> {
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
    if (!options.allowBatch) {
      throw new JsonRpcHttpError(
        400,
        JSONRPC.invalidRequest,
        "Invalid Request: JSON-RPC batches were removed in protocol revision 2025-06-18; send " +
          "one message per request",
      );
    }
    if (value.length === 0 || value.length > MAX_BATCH_MESSAGES) {
      throw new JsonRpcHttpError(
        400,
        JSONRPC.invalidRequest,
        `Invalid Request: a batch holds 1 to ${MAX_BATCH_MESSAGES} messages`,
      );
    }
    if (!value.every((m) => JSONRPCMessageSchema.safeParse(m).success)) {
      throw new JsonRpcHttpError(
        400,
        JSONRPC.invalidRequest,
        "Invalid Request: a batch member is not a JSON-RPC 2.0 request, notification or response",
      );
    }
    return value;
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
