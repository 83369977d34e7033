/**
 * Reading HTML form posts safely (size-capped while streaming, form encodings only) and telling a
 * browser's form post from an island's `fetch` that wants JSON.
 */
import type { Context } from "hono";
import { BadRequestError, UnsupportedMediaTypeError } from "../errors.ts";
import { readCappedBody, strictUtf8 } from "./http_body.ts";

/** Largest form body the account and admin pages accept (a Turnstile token is at most ~2 KB). */
export const MAX_FORM_BYTES = 16 * 1024;

/**
 * Reads an `application/x-www-form-urlencoded` body of at most `maxBytes` (counted as it streams,
 * so a lying Content-Length cannot make us buffer more).
 * @throws PayloadTooLargeError (413), UnsupportedMediaTypeError (415), BadRequestError (400).
 */
export async function readFormBody(
  request: Request,
  maxBytes = MAX_FORM_BYTES,
): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new UnsupportedMediaTypeError(
      "Content-Type must be application/x-www-form-urlencoded (an HTML form post)",
    );
  }
  const bytes = await readCappedBody(request, maxBytes);
  if (!bytes) return new URLSearchParams();
  try {
    return new URLSearchParams(strictUtf8.decode(bytes));
  } catch {
    throw new BadRequestError("Form body is not valid UTF-8");
  }
}

/** A single text field: absent, repeated or non-string values become "" (never an array). */
export function field(form: URLSearchParams, name: string): string {
  const values = form.getAll(name);
  return values.length === 1 ? values[0] : "";
}

/**
 * True when the caller asked for JSON (an island's fetch sends `Accept: application/json`);
 * false for a browser's form post or page load, which get HTML.
 */
export function wantsJson(c: Context): boolean {
  const accept = c.req.header("accept") ?? "";
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}
