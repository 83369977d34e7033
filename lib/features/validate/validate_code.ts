/**
 * "Validate code", like the Rich Results Test's Code tab: HTML or JSON-LD pasted by a visitor is
 * analysed exactly as a fetched page would be (extraction, findings, eligibility, generated
 * graph), with no fetch at all. The code is read as if served at `url` (default
 * https://example.com/), which relative URLs and site-name rules use.
 *
 * @example
 * ```ts
 * const r = validateCode({ jsonld: '{"@context":"https://schema.org","@type":"Product"}' });
 * r.eligibility; // [{ feature: "Product snippets", status: "not eligible", ... }]
 * ```
 */
import { analysePage } from "../../engines/schema/scan.ts";
import type { Result } from "../../engines/structured/record.ts";

/** The largest code accepted, in UTF-8 bytes (the API answers 413 above it). */
export const MAX_CODE_BYTES = 1024 * 1024;

/** Where pasted code is read as served when the visitor names no URL. */
export const DEFAULT_CODE_URL = "https://example.com/";

/** What a visitor pastes: a page's HTML, or JSON-LD (a string or the parsed value). */
export interface CodeInput {
  html?: string;
  jsonld?: unknown;
  /** The URL the code stands for (absolute http(s)); relative URLs resolve against it. */
  url?: string;
}

/** Input that cannot be validated (a 400, or a 413 when `tooLarge`). */
export class CodeInputError extends Error {
  override name = "CodeInputError";
  constructor(message: string, readonly tooLarge = false) {
    super(message);
  }
}

/**
 * The page HTML that stands for the input: the HTML itself, or the JSON-LD inside a script
 * element (with `<` escaped, so the code cannot end the element early).
 */
export function codeToHtml(input: CodeInput): string {
  const hasHtml = typeof input.html === "string";
  const hasJson = input.jsonld !== undefined && input.jsonld !== null;
  if (hasHtml === hasJson) throw new CodeInputError("Send exactly one of html or jsonld.");
  let html: string;
  if (hasHtml) {
    html = input.html!;
  } else {
    const text = typeof input.jsonld === "string" ? input.jsonld : JSON.stringify(input.jsonld);
    html = `<!doctype html><html><head><script type="application/ld+json">${
      text.replace(/<\/(script)/gi, "<\\/$1")
    }</script></head><body></body></html>`;
  }
  if (!html.trim()) throw new CodeInputError("The code is empty.");
  if (new TextEncoder().encode(html).length > MAX_CODE_BYTES) {
    throw new CodeInputError(`The code is larger than ${MAX_CODE_BYTES} bytes.`, true);
  }
  return html;
}

/** The URL pasted code is read at: `url` when it is an absolute http(s) URL. */
export function codeUrl(url: string | undefined): URL {
  if (url === undefined || url.trim() === "") return new URL(DEFAULT_CODE_URL);
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new CodeInputError("url must be an absolute http(s) URL.");
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    throw new CodeInputError("url must be an absolute http(s) URL.");
  }
  u.hash = "";
  return u;
}

/** Analyses pasted code offline: the same result a scan of a page with that code gives. */
export function validateCode(input: CodeInput): Result {
  const html = codeToHtml(input);
  const url = codeUrl(input.url);
  return analysePage(html, {
    requestedUrl: url.href,
    finalUrl: url.href,
    status: 200,
    contentType: "text/html; charset=utf-8",
    redirects: 0,
    bytes: new TextEncoder().encode(html).length,
    truncated: false,
    fetchMs: 0,
  }, url.hostname.replace(/^www\./, ""));
}
