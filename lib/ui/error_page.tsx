/**
 * Errors of the account and administrator pages as HTML: a browser's form post that is refused
 * (CSRF 403, 405, 413, 415, 429...) gets a readable page, not a JSON body. An island's fetch
 * (`Accept: application/json`) still gets the JSON of lib/app.ts's single error mapping: this
 * handler re-throws to it.
 */
import type { Context, ErrorHandler } from "hono";
import type { AppDeps, AppEnv } from "../web/context.ts";
import { HttpError, RateLimitedError } from "../errors.ts";
import { wantsJson } from "../web/http_form.ts";
import { renderPage } from "./render.tsx";
import { shellFor } from "./shell.ts";

const TITLES: Record<number, string> = {
  400: "That did not work",
  401: "Please sign in",
  403: "Request refused",
  404: "Not found",
  405: "Method not allowed",
  409: "That did not work",
  413: "Form too large",
  415: "Unsupported form",
  429: "Too many attempts",
};

type PageStatus = Parameters<typeof renderPage>[4];
const PAGE_STATUSES = new Set([200, 400, 401, 403, 404, 409, 413, 429, 500]);

/** The stylesheet of the account and administrator pages. */
export const ACCOUNT_STYLES = ["/static/accounts.css"];

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
  const title = TITLES[error.status] ?? "Something went wrong";
  const back = c.req.path.startsWith("/admin") ? "/admin" : "/account";
  return pageWithStatus(error.status, (status) =>
    renderPage(
      c,
      { title, description: title, noindex: true },
      shellFor(c, deps, { styles: ACCOUNT_STYLES }),
      <div class="narrow">
        <h1>{title}</h1>
        <p class="notice error" role="alert">{error.message}</p>
        {error instanceof RateLimitedError && (
          <p data-retry-after={String(error.retryAfterSeconds)}>
            You can try again in {error.retryAfterSeconds} seconds.
          </p>
        )}
        <p>
          <a href={back}>Back</a>
        </p>
      </div>,
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
