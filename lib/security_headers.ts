/**
 * Security headers on every response, from one precomputed list (Hono's secureHeaders rebuilds its
 * list per request, which halved the throughput of report reads). Pages replace the default
 * Content-Security-Policy with their own (lib/ui/csp.ts); everything else, JSON and SVG, may load
 * nothing.
 */
import type { MiddlewareHandler } from "hono";

/** Headers set on every response unless the route set them itself. */
export const SECURITY_HEADERS: readonly [string, string][] = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["X-Frame-Options", "DENY"],
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "cross-origin"],
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
  };
}
