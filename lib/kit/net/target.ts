/**
 * Turning what a user typed into the domain a record is stored under and the URL a scan starts at.
 * One function, so the same site always lands on the same record.
 */
import { domainToASCII } from "node:url";
import { charsOf, trimEnd } from "../text/trim.ts";

/** A user's input that cannot name a public web site. */
export class InvalidTargetError extends Error {
  override name = "InvalidTargetError";
}

/** The result of {@link normaliseTarget}. */
export interface Target {
  /** The record key: lowercase ASCII (punycode) host, no trailing dot, no port, no leading "www.". */
  domain: string;
  /** The host to connect to: as given (so "www." is kept), lowercase ASCII. */
  host: string;
  /** Where a scan starts: the site's home page, https unless the input said http. */
  url: string;
  /**
   * The page the input named: `url` plus the input's path and query (fragment dropped). The
   * Schema Markup Generator scans this page; the visibility checker ignores it. Optional so
   * targets built by hand (and jobs queued before it existed) stay valid.
   */
  pageUrl?: string;
  /**
   * Render the pages in a browser too (the AI's-eye view, lib/engines/render/): asked for per scan
   * (POST /api/scan `render`, MCP, `--render`); absent means the server HTML alone.
   */
  render?: boolean;
}

const IPV4_LITERAL = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Normalises a domain or URL:
 * - scheme optional (https assumed); only http and https accepted;
 * - case folded, IDN converted to punycode, trailing dot, port, path, query, fragment and
 *   userinfo dropped (userinfo is refused: it is a classic way to disguise the real host);
 * - a leading "www." is removed from the domain (but kept in the URL scanned);
 * - IP literals, single-label names ("localhost") and names over 253 characters are refused.
 *
 * @example
 * ```ts
 * normaliseTarget("HTTPS://WWW.Bücher.example:443/shop?x=1");
 * // { domain: "xn--bcher-kva.example", host: "www.xn--bcher-kva.example",
 * //   url: "https://www.xn--bcher-kva.example/",
 * //   pageUrl: "https://www.xn--bcher-kva.example/shop?x=1" }
 * ```
 */
export function normaliseTarget(input: string): Target {
  const raw = input.trim();
  if (!raw) throw new InvalidTargetError("url is empty");
  if (raw.length > 2048) throw new InvalidTargetError("url is longer than 2048 characters");
  const schemeMatch = raw.match(/^([a-z][a-z0-9+.-]*):/i);
  let withScheme = raw;
  if (schemeMatch && !/^\d+$/.test(raw.slice(schemeMatch[0].length).split("/")[0])) {
    const scheme = schemeMatch[1].toLowerCase();
    if (scheme !== "http" && scheme !== "https") {
      throw new InvalidTargetError(`only http and https URLs can be scanned, not ${scheme}:`);
    }
    if (!raw.slice(schemeMatch[0].length).startsWith("//")) {
      throw new InvalidTargetError("url is not a valid URL");
    }
  } else {
    withScheme = `https://${raw.replace(/^\/\/+/, "")}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw new InvalidTargetError("url is not a valid domain or URL");
  }
  if (parsed.username || parsed.password) {
    throw new InvalidTargetError("url must not contain a user name or password");
  }
  let host = parsed.hostname.toLowerCase();
  if (host.startsWith("[") || host.includes(":")) {
    throw new InvalidTargetError("IP addresses cannot be scanned; use the site's domain name");
  }
  host = trimEnd(host, charsOf("."));
  const ascii = domainToASCII(host);
  if (!ascii) throw new InvalidTargetError(`"${host}" is not a valid domain name`);
  host = ascii;
  if (IPV4_LITERAL.test(host) || /^[0-9.]+$/.test(host) || /^0x/i.test(host)) {
    throw new InvalidTargetError("IP addresses cannot be scanned; use the site's domain name");
  }
  if (!host.includes(".")) {
    throw new InvalidTargetError(`"${host}" is not a public domain name (it has no dot)`);
  }
  if (host.length > 253 || host.split(".").some((l) => l.length === 0 || l.length > 63)) {
    throw new InvalidTargetError(`"${host}" is not a valid domain name`);
  }
  if (!/^[a-z0-9.-]+$/.test(host) || host.split(".").some((l) => /^-|-$/.test(l))) {
    throw new InvalidTargetError(`"${host}" is not a valid domain name`);
  }
  const domain = host.startsWith("www.") && host.split(".").length > 2 ? host.slice(4) : host;
  return {
    domain,
    host,
    url: `${parsed.protocol}//${host}/`,
    pageUrl: `${parsed.protocol}//${host}${parsed.pathname}${parsed.search}`,
  };
}
