/**
 * The shell options of a page for the current request: the site name, the challenge widget when
 * the page has a form that needs it, and whether the visitor is signed in (for the navigation).
 */
import type { Context } from "hono";
import type { AppDeps } from "./context.ts";
import type { ShellOptions } from "../ui/layout.tsx";
import { PATHS } from "../report_urls.ts";

/** Shell options for this request; `extra` adds islands, the challenge, extra stylesheets. */
export function shellFor(
  c: Context,
  deps: AppDeps,
  extra: Partial<ShellOptions> = {},
): ShellOptions {
  return {
    siteName: deps.service.title,
    path: c.req.path,
    signedIn: c.get("signedIn") === true,
    ...(c.req.path === PATHS.admin || c.req.path.startsWith(`${PATHS.admin}/`)
      ? { admin: c.get("adminSession") ? "signed-in" as const : "signed-out" as const }
      : {}),
    ...extra,
  };
}
