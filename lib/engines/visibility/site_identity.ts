/**
 * Who the scanned site is, as fix texts name it: its home address and the name it states for
 * itself (see same_as.ts for the names and profiles the page gives evidence for).
 */
import type { ScanContext } from "./check.ts";
import { ownName } from "./same_as.ts";

/** The site's origin with a trailing slash, e.g. "https://example.com/". */
export function homeUrl(ctx: ScanContext): string {
  return new URL("/", ctx.pageUrl).href;
}

/**
 * A display name for the site in fixes: the name it states for itself (its own Organization
 * markup, og:site_name, WebSite), else the scan's reading of its name, else its domain.
 */
export function displayName(ctx: ScanContext): string {
  return ownName(ctx) ?? ctx.snapshot.target.domain;
}
