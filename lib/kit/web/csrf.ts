/**
 * Cross-site request forgery protection for every state-changing form, in two independent layers:
 *
 * 1. {@link crossSiteGuard}, a middleware: a POST whose `Sec-Fetch-Site` is present and not
 *    `same-origin`/`none`, or (without Sec-Fetch-Site) whose `Origin` is another origin, is
 *    refused with 403. Every current browser sends Sec-Fetch-Site on a form post or fetch.
 * 2. A synchronizer token in a hidden `csrf` field (or an `X-CSRF-Token` header from an island):
 *    the session's own token for signed-in forms, and for the sign-up and login forms (no session
 *    yet) a double-submit token: a random value in an HttpOnly cookie that the form must repeat.
 *    This covers clients that send neither header.
 *
 * A refusal is a {@link CsrfError} (403): JSON for a fetch, an HTML page for a form post.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { ActiveSession, AppDeps, AppEnv } from "./context.ts";
import { readFormBody } from "./http_form.ts";
import { constantTimeEqual, randomToken } from "../auth/crypto.ts";
import { HttpError } from "../errors.ts";
import { isHttps } from "./sessions.ts";

/** 403: the request was not sent by one of our own pages. */
export class CsrfError extends HttpError {
  override name = "CsrfError";
  constructor(message = EXPIRED) {
    super(403, message);
  }
}

const EXPIRED =
  "This form has expired or was not sent from this site. Reload the page and try again.";
const CROSS_SITE = "Cross-site form posts are refused. Use the form on this site.";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
/** How long a sign-up or login page's form token stays valid. */
const ANON_TOKEN_MAX_AGE_S = 12 * 3600;

/** Our origin as the browser sees it (scheme from {@link isHttps}, host from the request). */
export function expectedOrigin(c: Context, trustProxy: boolean): string {
  return `${isHttps(c, trustProxy) ? "https" : "http"}://${new URL(c.req.url).host}`;
}

/**
 * Why a state-changing request looks cross-site, or null when nothing says so. Sec-Fetch-Site,
 * when sent, decides: our pages send `Referrer-Policy: no-referrer`, under which a browser's
 * same-origin form post carries `Origin: null` (Fetch standard), so Origin is only consulted
 * without it, and `null` is left to the token check (layer 2).
 */
export function crossSiteReason(c: Context, trustProxy: boolean): string | null {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) {
    return site === "same-origin" || site === "none" ? null : `Sec-Fetch-Site: ${site}`;
  }
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== "null" && origin !== expectedOrigin(c, trustProxy)) {
    return `Origin: ${origin}`;
  }
  return null;
}

/** Middleware: refuses cross-site state-changing requests (layer 1). */
export function crossSiteGuard(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!SAFE.has(c.req.method) && crossSiteReason(c, deps.config.trustProxy)) {
      throw new CsrfError(CROSS_SITE);
    }
    await next();
  };
}

/** The token a form presented: its `csrf` field, else the `X-CSRF-Token` header. */
export function presentedToken(c: Context, form: URLSearchParams): string {
  return form.get("csrf") || c.req.header("x-csrf-token") || "";
}

/**
 * Checks a presented synchronizer token against the expected one in constant time (layer 2).
 * @throws CsrfError when either is missing or they differ.
 */
export async function assertFormToken(
  expected: string | null | undefined,
  presented: string,
): Promise<void> {
  if (!expected || !presented || presented.length > 128) throw new CsrfError();
  if (!(await constantTimeEqual(expected, presented))) throw new CsrfError();
}

/**
 * The form of a signed-in client's POST, its token checked: the session comes from the account
 * group, which requires it (lib/app/app.ts, lib/kit/web/groups.ts).
 * @throws CsrfError when the form's token is not the session's.
 */
export async function signedInForm(
  c: Context<AppEnv>,
): Promise<{ session: ActiveSession; form: URLSearchParams }> {
  const form = await readFormBody(c.req.raw);
  const session = c.get("session")!;
  await assertFormToken(session.csrf, presentedToken(c, form));
  return { session, form };
}

function anonCookieName(c: Context, deps: AppDeps): string {
  return isHttps(c, deps.config.trustProxy) ? "__Host-csrf" : "csrf";
}

/**
 * The form token of a page without a session (sign-up, login, administrator login): the value of
 * the visitor's form-token cookie, set now if it is missing. Put it in the form's `csrf` field.
 */
export function anonymousFormToken(c: Context, deps: AppDeps): string {
  const name = anonCookieName(c, deps);
  const existing = getCookie(c, name);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken(32);
  setCookie(c, name, token, {
    httpOnly: true,
    secure: isHttps(c, deps.config.trustProxy),
    sameSite: "Lax",
    path: "/",
    maxAge: ANON_TOKEN_MAX_AGE_S,
  });
  return token;
}

/** Checks a session-less form's token against its cookie (double submit). */
export async function assertAnonymousFormToken(
  c: Context,
  deps: AppDeps,
  presented: string,
): Promise<void> {
  await assertFormToken(getCookie(c, anonCookieName(c, deps)), presented);
}
