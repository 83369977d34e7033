/**
 * The Content-Security-Policy of HTML pages: only what the pages use. Scripts come from our own
 * origin (hashed bundles), plus Cloudflare's Turnstile script and frame when Turnstile is the
 * challenge. The one inline script (lib/kit/ui/comfort_script.ts: the theme before the first paint,
 * local times, print) is allowed by its hash, never by 'unsafe-inline'; no inline style is ever
 * needed; the ALTCHA widget solves in Web Workers it creates from blob: URLs.
 */
import { COMFORT_SCRIPT_HASH } from "./comfort_script.ts";

export function pageCsp(options: { turnstile: boolean }): string {
  const cf = options.turnstile ? " https://challenges.cloudflare.com" : "";
  return [
    "default-src 'self'",
    `script-src 'self' ${COMFORT_SCRIPT_HASH}${cf}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src${cf || " 'none'"}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
