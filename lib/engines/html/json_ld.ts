/** Recognizing and parsing `<script type="application/ld+json">` blocks. */
import { JSON_LD_TEXT_KEPT, type JsonLdBlock } from "./types.ts";

/**
 * Whether a script `type` attribute names JSON-LD. MIME types are case-insensitive and some
 * CMSs append parameters ("application/ld+json; charset=utf-8").
 */
export function isJsonLdType(type: string | undefined): boolean {
  if (type === undefined) return false;
  return mimeEssence(type) === "application/ld+json";
}

/** The MIME type without parameters, trimmed and lowercased. */
export function mimeEssence(type: string): string {
  const semi = type.indexOf(";");
  return (semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase();
}

/**
 * Wrappers that templates put around JSON-LD for old browsers' sake: a BOM, `<!-- ... -->`
 * and CDATA guards written as JS comments. JSON.parse rejects all of them, while search engines
 * read through them, so strip them before judging the JSON. (Loops rather than an anchored
 * regex so a block of a megabyte of blanks cannot trigger quadratic backtracking.)
 */
const LEADING = ["<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["];
const TRAILING = ["-->", "//]]>", "/*]]>*/", "]]>"];

function stripWrappers(raw: string): string {
  // String#trim also removes U+FEFF, the BOM.
  let text = raw.trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const open of LEADING) {
      if (text.startsWith(open)) {
        text = text.slice(open.length).trim();
        changed = true;
      }
    }
    for (const close of TRAILING) {
      if (text.endsWith(close)) {
        text = text.slice(0, text.length - close.length).trim();
        changed = true;
      }
    }
  }
  return text;
}

/** Parses one JSON-LD script's raw text; never throws. */
export function parseJsonLd(raw: string): JsonLdBlock {
  const cleaned = stripWrappers(raw);
  const text = raw.length <= JSON_LD_TEXT_KEPT ? { text: raw } : {};
  try {
    return { value: JSON.parse(cleaned), error: null, length: raw.length, ...text };
  } catch (err) {
    return {
      value: null,
      error: err instanceof Error ? err.message : String(err),
      length: raw.length,
      ...text,
    };
  }
}
