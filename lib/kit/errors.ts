/**
 * Typed errors thrown in lib and mapped to HTTP in one place (lib/app/app.ts `onError`). Every one
 * becomes a JSON body `{ "error": message }`, plus `retryAfterSeconds` for 429.
 */

/** An error with an HTTP status and a message safe to show to the client. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(public readonly status: number, message: string) {
    super(message);
  }
  /** The JSON body of the response. */
  body(): Record<string, unknown> {
    return { error: this.message };
  }
  /** Extra response headers. */
  headers(): Record<string, string> {
    return {};
  }
}

/** 400: the request is malformed or names something that cannot be scanned. */
export class BadRequestError extends HttpError {
  override name = "BadRequestError";
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: a bearer token was sent and it is not accepted. The message is fixed by the spec. */
export class UnauthorizedError extends HttpError {
  override name = "UnauthorizedError";
  constructor() {
    super(401, "Unauthorized");
  }
  override headers(): Record<string, string> {
    return { "WWW-Authenticate": 'Bearer realm="api"' };
  }
}

/** 403: no bearer token and the challenge did not verify. The message is fixed by the spec. */
export class VerificationFailedError extends HttpError {
  override name = "VerificationFailedError";
  constructor() {
    super(403, "Verification failed. Please retry.");
  }
}

/** 404 with the spec's body. */
export class NotFoundError extends HttpError {
  override name = "NotFoundError";
  constructor(message = "Not found") {
    super(404, message);
  }
}

/** 405: the URL exists but not with this method. */
export class MethodNotAllowedError extends HttpError {
  override name = "MethodNotAllowedError";
  constructor(public readonly allow: string[]) {
    super(405, `Method not allowed; use ${allow.join(" or ")}`);
  }
  override headers(): Record<string, string> {
    return { Allow: this.allow.join(", ") };
  }
}

/** 408: the request body did not arrive in time. */
export class RequestTimeoutError extends HttpError {
  override name = "RequestTimeoutError";
  constructor(seconds: number) {
    super(408, `Request body not received within ${seconds} seconds`);
  }
  /** The rest of a late body would be read as the next request: the connection is closed. */
  override headers(): Record<string, string> {
    return { Connection: "close" };
  }
}

/** 413: the request body is larger than the endpoint accepts. */
export class PayloadTooLargeError extends HttpError {
  override name = "PayloadTooLargeError";
  constructor(limitBytes: number) {
    super(413, `Request body too large (limit ${limitBytes} bytes)`);
  }
}

/** 415: the body is not JSON. */
export class UnsupportedMediaTypeError extends HttpError {
  override name = "UnsupportedMediaTypeError";
  constructor(message = "Content-Type must be application/json") {
    super(415, message);
  }
}

/** 429: a rate limit is exhausted. */
export class RateLimitedError extends HttpError {
  override name = "RateLimitedError";
  constructor(message: string, public readonly retryAfterSeconds: number) {
    super(429, message);
  }
  override body(): Record<string, unknown> {
    return { error: this.message, retryAfterSeconds: this.retryAfterSeconds };
  }
  override headers(): Record<string, string> {
    return { "Retry-After": String(this.retryAfterSeconds) };
  }
}
