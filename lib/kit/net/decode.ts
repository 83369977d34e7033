/**
 * Decoding a response body the way browsers and crawlers do (WHATWG Encoding and HTML "determining
 * the character encoding"): a byte order mark first, then the Content-Type charset, then for HTML
 * a prescan of the first 1024 bytes for `<meta charset>` or `<meta http-equiv="Content-Type">`,
 * then a default: UTF-8 when the bytes are valid UTF-8, else windows-1252 (the web's legacy
 * default, which the WHATWG label "iso-8859-1" also maps to). Labels are resolved by
 * TextDecoder's WHATWG label table, so GBK, Shift_JIS, windows-1251, EUC-KR ... all decode.
 *
 * A gzip file served as such (a sitemap `.xml.gz` with `Content-Type: application/gzip`, not
 * `Content-Encoding: gzip`, which the fetcher already undoes) is decompressed first, bounded.
 */
import { constants as zlibConstants, gunzipSync } from "node:zlib";

/** Where the encoding was taken from. */
export type EncodingSource = "bom" | "content-type" | "meta" | "default";

/** A decoded body. */
export interface DecodedBody {
  text: string;
  /** The WHATWG name of the encoding used, e.g. "utf-8", "gbk", "shift_jis". */
  encoding: string;
  source: EncodingSource;
  /** True when the body was a gzip file that was decompressed. */
  gunzipped: boolean;
  /** True when the decompressed file was cut at the size bound. */
  cut: boolean;
}

/** A TextDecoder for a label, or null when the label is unknown (or names "replacement"). */
function decoderFor(label: string | null | undefined): TextDecoder | null {
  if (!label) return null;
  try {
    const d = new TextDecoder(label.trim());
    // UTF-16 labels in a <meta> are read as UTF-8 (HTML spec); "replacement" is never used.
    return d.encoding === "replacement" ? null : d;
  } catch {
    return null;
  }
}

/** The charset parameter of a Content-Type value, if any. */
export function charsetOf(contentType: string | null | undefined): string | null {
  return contentType?.match(/;\s*charset\s*=\s*["']?([^"';,\s]+)/i)?.[1] ?? null;
}

function bomEncoding(data: Uint8Array): { label: string; skip: number } | null {
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return { label: "utf-8", skip: 3 };
  if (data[0] === 0xfe && data[1] === 0xff) return { label: "utf-16be", skip: 2 };
  if (data[0] === 0xff && data[1] === 0xfe) return { label: "utf-16le", skip: 2 };
  return null;
}

/**
 * The encoding label a `<meta>` in the first 1024 bytes declares (a simplified form of the HTML
 * prescan: comments are skipped, `<meta charset=...>` and `<meta http-equiv="content-type"
 * content="...; charset=...">` are read, whichever comes first).
 */
export function prescanMetaCharset(data: Uint8Array): string | null {
  const head = new TextDecoder("windows-1252").decode(data.subarray(0, 1024));
  const noComments = head.replace(/<!--[\s\S]*?(-->|$)/g, "");
  for (const m of noComments.matchAll(/<meta\b([^>]*)>?/gi)) {
    const attrs = m[1];
    const charset = attrs.match(/\bcharset\s*=\s*(?:["']\s*)?([^"'\s/>;]+)/i)?.[1];
    const equiv = /\bhttp-equiv\s*=\s*(?:["']\s*)?content-type/i.test(attrs);
    const content = attrs.match(/\bcontent\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i);
    if (equiv && content) {
      const value = content[2] ?? content[3] ?? content[4] ?? "";
      const fromContent = value.match(/charset\s*=\s*["']?([^"';\s]+)/i)?.[1];
      if (fromContent) return normaliseMetaLabel(fromContent);
    }
    if (charset && !/\bcontent\s*=/i.test(attrs.split(/charset/i)[0] ?? "")) {
      return normaliseMetaLabel(charset);
    }
  }
  return null;
}

/** The HTML spec reads a UTF-16 label found in a <meta> as UTF-8 (the bytes were ASCII-readable). */
function normaliseMetaLabel(label: string): string {
  return /^utf-?16/i.test(label) ? "utf-8" : label;
}

const GZIP_LIMIT = 50 * 1024 * 1024;

function isGzipFile(data: Uint8Array, contentType: string | null, url: string): boolean {
  if (data[0] !== 0x1f || data[1] !== 0x8b) return false;
  let path = "";
  try {
    path = new URL(url).pathname;
  } catch { /* not a URL: rely on the type */ }
  return /gzip/i.test(contentType ?? "") || /\.gz$/i.test(path) ||
    /octet-stream/i.test(contentType ?? "");
}

/**
 * Decodes a response body; never throws. `url` lets a `.gz` file be recognised; `maxBytes` bounds
 * a decompressed gzip file (its output is cut there); `truncated` says the body was cut at a size
 * cap, so a character cut at the end does not make UTF-8 invalid.
 */
export function decodeBody(
  data: Uint8Array,
  contentType: string | null,
  url = "",
  maxBytes = GZIP_LIMIT,
  truncated = false,
): DecodedBody {
  let bytes = data;
  let gunzipped = false;
  let cut = false;
  if (isGzipFile(data, contentType, url)) {
    const out = gunzipBounded(data, Math.min(maxBytes, GZIP_LIMIT));
    if (out) {
      bytes = out.bytes;
      gunzipped = true;
      cut = out.cut;
    }
  }
  return { ...decodeText(bytes, contentType, gunzipped, truncated || cut), gunzipped, cut };
}

/**
 * Decompresses a gzip file up to `limit` bytes of output. Past the limit, the longest prefix that
 * fits is kept (`cut`); a corrupt file gives null.
 */
function gunzipBounded(
  data: Uint8Array,
  limit: number,
): { bytes: Uint8Array; cut: boolean } | null {
  try {
    return { bytes: new Uint8Array(gunzipSync(data, { maxOutputLength: limit })), cut: false };
  } catch (error) {
    if (
      !(error instanceof RangeError) && !/buffer|too large|maxOutputLength/i.test(String(error))
    ) {
      return null;
    }
  }
  // Too large: inflate ever shorter prefixes of the input (a sync flush keeps what they hold).
  for (let n = data.length >> 1; n >= 32; n >>= 1) {
    try {
      const out = gunzipSync(data.subarray(0, n), {
        maxOutputLength: limit,
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
      });
      return { bytes: new Uint8Array(out), cut: true };
    } catch {
      // Still over the limit (or unreadable): halve again.
    }
  }
  return null;
}

function decodeText(
  bytes: Uint8Array,
  contentType: string | null,
  gunzipped: boolean,
  truncated: boolean,
): Omit<DecodedBody, "gunzipped" | "cut"> {
  const bom = bomEncoding(bytes);
  if (bom) {
    const d = decoderFor(bom.label)!;
    return {
      text: d.decode(bytes.subarray(bom.skip)),
      encoding: d.encoding,
      source: "bom",
    };
  }
  const fromHeader = gunzipped ? null : decoderFor(charsetOf(contentType));
  if (fromHeader) {
    return {
      text: fromHeader.decode(bytes),
      encoding: fromHeader.encoding,
      source: "content-type",
    };
  }
  const htmlLike = !contentType || /html|xml|text\/plain|octet-stream/i.test(contentType) ||
    gunzipped;
  if (htmlLike) {
    const meta = decoderFor(prescanMetaCharset(bytes));
    if (meta) {
      return { text: meta.decode(bytes), encoding: meta.encoding, source: "meta" };
    }
    // An XML declaration's encoding (sitemaps, XHTML served as XML).
    const xml = new TextDecoder("windows-1252").decode(bytes.subarray(0, 200))
      .match(/^<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i)?.[1];
    const xmlDecoder = decoderFor(xml && /^utf-?16/i.test(xml) ? "utf-8" : xml);
    if (xmlDecoder) {
      return {
        text: xmlDecoder.decode(bytes),
        encoding: xmlDecoder.encoding,
        source: "meta",
      };
    }
  }
  // stream: a body cut at the size cap may end inside a character; that is not an error. (The
  // replacing decoder is used and checked, as a fatal one is many times slower on large pages.)
  const text = new TextDecoder("utf-8").decode(bytes, { stream: truncated });
  if (!text.includes("\uFFFD") || countFffd(text) <= countFffdBytes(bytes)) {
    return { text, encoding: "utf-8", source: "default" };
  }
  const d = new TextDecoder("windows-1252");
  return { text: d.decode(bytes), encoding: d.encoding, source: "default" };
}

/** U+FFFD characters in a decoded text. */
function countFffd(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\uFFFD"); i >= 0; i = text.indexOf("\uFFFD", i + 1)) n++;
  return n;
}

/** U+FFFD characters written as such in UTF-8 bytes (EF BF BD): those are not decoding errors. */
function countFffdBytes(bytes: Uint8Array): number {
  let n = 0;
  for (
    let i = bytes.indexOf(0xef);
    i >= 0 && i + 2 < bytes.length;
    i = bytes.indexOf(0xef, i + 1)
  ) {
    if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) n++;
  }
  return n;
}

/** HTML by Content-Type, or by sniffing when the header is missing or generic. */
export function looksLikeHtml(contentType: string | undefined, body: string): boolean {
  if (contentType && /html|xml\+xhtml/i.test(contentType)) return true;
  if (contentType && !/text\/plain|octet-stream/i.test(contentType)) return false;
  return /^\s*(<!doctype html|<html|<head|<body|<!--)/i.test(body.slice(0, 1024));
}
