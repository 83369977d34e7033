/**
 * Errors of the account and administrator pages as HTML: a browser's form post that is refused
 * (CSRF 403, 405, 413, 415, 429...) gets a readable page (lib/kit/ui/error_page.tsx), not a JSON body.
 * An island's fetch (`Accept: application/json`) still gets the JSON of lib/app/app.ts's single error
 * mapping: this handler re-throws to it.
 */
import type { Context, ErrorHandler } from "hono";
import type { AppDeps, AppEnv } from "./context.ts";
import { HttpError, RateLimitedError } from "../errors.ts";
import { wantsJson } from "./http_form.ts";
import { renderPage } from "./render.tsx";
import { shellFor } from "./shell.ts";
import { ACCOUNT_STYLES, ErrorPage, errorTitle } from "../ui/error_page.tsx";
import { PATHS } from "../report_urls.ts";

type PageStatus = Parameters<typeof renderPage>[4];
const PAGE_STATUSES = new Set([200, 400, 401, 403, 404, 409, 413, 429, 500]);

/** Renders a page with any status (renderPage knows the common ones; others are re-wrapped). */
export function pageWithStatus(
  status: number,
  render: (status: PageStatus) => Response,
): Response {
  if (PAGE_STATUSES.has(status)) return render(status as PageStatus);
  const res = render(400);
  return new Response(res.body, { status, headers: res.headers });
}

/** An HTML error page for an HttpError, with its headers (Retry-After, Allow). */
export function renderErrorPage(c: Context, deps: AppDeps, error: HttpError): Response {
  for (const [k, v] of Object.entries(error.headers())) c.header(k, v);
  const title = errorTitle(error.status);
  const back = c.req.path.startsWith(PATHS.admin) ? PATHS.admin : PATHS.account;
  return pageWithStatus(error.status, (status) =>
    renderPage(
      c,
      { title, description: title, noindex: true },
      shellFor(c, deps, { styles: ACCOUNT_STYLES }),
      <ErrorPage
        title={title}
        message={error.message}
        retryAfterSeconds={error instanceof RateLimitedError ? error.retryAfterSeconds : undefined}
        back={back}
      />,
      status,
    ));
}

/**
 * A sub-app error handler: HTML error pages for browsers, JSON (re-thrown to the app's handler)
 * for fetches that asked for it and for anything that is not an HttpError.
 */
export function pageErrors(deps: AppDeps): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (!(error instanceof HttpError) || wantsJson(c)) throw error;
    return renderErrorPage(c, deps, error);
  };
}
