/**
 * Security headers on every response, from one precomputed list (Hono's secureHeaders rebuilds its
 * list per request, which halved the throughput of report reads). Pages replace the default
 * Content-Security-Policy with their own (lib/kit/ui/csp.ts); everything else, JSON and SVG, may load
 * nothing.
 */
import type { MiddlewareHandler } from "hono";

/**
 * Headers every response gets unless the route set them itself (the OWASP REST set: a response
 * that is not a document needs no more, and each header costs on the hottest paths).
 */
export const SECURITY_HEADERS: readonly [string, string][] = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["X-Frame-Options", "DENY"],
  ["X-Content-Type-Options", "nosniff"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["Cross-Origin-Resource-Policy", "cross-origin"],
];

/** Headers that only matter for documents (HTML pages), added to those. */
export const DOCUMENT_HEADERS: readonly [string, string][] = [
  ["Referrer-Policy", "no-referrer"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()"],
];

/** Adds the security headers a response lacks. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    for (const [name, value] of SECURITY_HEADERS) if (!h.has(name)) h.set(name, value);
    if (h.get("content-type")?.startsWith("text/html")) {
      for (const [name, value] of DOCUMENT_HEADERS) if (!h.has(name)) h.set(name, value);
    }
  };
}
