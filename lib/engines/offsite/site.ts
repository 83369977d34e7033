/**
 * Host comparison and URL building shared by the off-site lookups.
 *
 * Everything that goes into an outbound URL is either configuration, the domain we were asked
 * about (validated by {@link assertDomain}), or a value from a response that passed a strict
 * pattern (crawl id, Q-id) or is percent-encoded as a page title.
 * @module
 */

/** A normalised host name: lowercase LDH labels with dots, punycode for IDNs. */
const DOMAIN_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** A Wikidata item id. */
export const QID_PATTERN = /^Q[1-9]\d{0,11}$/;

/**
 * Returns the domain lowercased without a trailing dot, or throws when it is not a plain host
 * name: the caller promised a normalised domain, so anything else is a bug upstream.
 */
export function assertDomain(domain: string): string {
  const host = domain.trim().toLowerCase().replace(/\.$/, "");
  if (!DOMAIN_PATTERN.test(host)) throw new TypeError(`not a normalised domain: ${domain}`);
  return host;
}

/** A host name reduced for comparison: lowercase, no trailing dot, no leading "www.". */
export function siteHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, "").replace(/^www\./, "");
}

/** True when `url` is an http(s) URL on `domain` itself or its www host. */
export function sameSite(url: string, domain: string): boolean {
  let parsed: URL;
  try {
    // Wikidata sometimes stores a bare host ("example.com"); read it as a URL too.
    parsed = new URL(/^[a-z][a-z0-9+.-]*:/i.test(url.trim()) ? url.trim() : `http://${url.trim()}`);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  return siteHost(parsed.hostname) === siteHost(domain);
}

/**
 * The spellings an official website (P856) of `domain` is commonly stored under: http and https,
 * with and without "www.", with and without the trailing slash.
 */
export function websiteVariants(domain: string): string[] {
  const variants: string[] = [];
  for (const scheme of ["https", "http"]) {
    for (const host of [domain, `www.${domain}`]) {
      variants.push(`${scheme}://${host}/`, `${scheme}://${host}`);
    }
  }
  return variants;
}

/** Builds a MediaWiki API URL from the configured endpoint and query parameters. */
export function apiUrl(endpoint: string, params: Record<string, string>): string {
  const url = new URL(endpoint);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

/**
 * The public page URL of `title` on the wiki whose API is `endpoint`
 * (https://en.wikipedia.org/w/api.php -> https://en.wikipedia.org/wiki/Title).
 */
export function wikiPageUrl(endpoint: string, title: string): string {
  const url = new URL(endpoint);
  const base = url.pathname.endsWith("/w/api.php")
    ? url.pathname.slice(0, -"w/api.php".length)
    : "/";
  return `${url.origin}${base}wiki/${encodeTitle(title)}`;
}

/** Percent-encodes a page title the way MediaWiki links do (spaces as underscores). */
export function encodeTitle(title: string): string {
  return encodeURIComponent(title.replace(/ /g, "_"))
    .replace(/%3A/gi, ":")
    .replace(/%2F/gi, "/");
}

/**
 * A page title from a response, if it looks like one: MediaWiki titles are at most 255 bytes and
 * never contain control characters or the characters below, and "|" would split a titles list.
 */
export function safeTitle(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const title = value.trim();
  if (!title || new TextEncoder().encode(title).length > 255) return null;
  if (/[\p{Cc}#<>\[\]{}|]/u.test(title)) return null;
  return title;
}

/** Shortens untrusted text quoted in a detail string. */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}
