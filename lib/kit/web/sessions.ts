/**
 * Sessions of client accounts and of the administrator: a random 256-bit token in an HttpOnly
 * cookie (SameSite=Lax for clients, Strict for the administrator; Secure and `__Host-` prefixed when
 * served over https), stored in KV only as its SHA-256 with an expiry. A new token is issued at
 * every sign-in (the one the browser had is deleted: no session fixation), and logout deletes it.
 *
 * Expiry is checked against the injected clock (`deps.now`), so tests move time instead of waiting;
 * KV's `expireIn` only cleans up.
 *
 * @example
 * ```ts
 * const session = await openSession(c, deps, "client", account.id); // sets the cookie
 * const same = await readSession(c, deps, "client");                // on a later request
 * await closeSession(c, deps, "client");                            // logout
 * ```
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { ActiveSession, AppDeps, AppEnv } from "./context.ts";
import { randomToken, sha256Hex } from "../auth/crypto.ts";
import type { SessionKind } from "../storage/store_accounts.ts";

/** How long a client session lasts. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
/** How long an administrator session lasts. */
export const ADMIN_SESSION_TTL_MS = 12 * 3600_000;
/** How long a one-time message waits for the page it was meant for. */
export const FLASH_TTL_MS = 10 * 60_000;

export type { ActiveSession };

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** True when the request reached us over https (directly, or through a trusted proxy). */
export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (!trustProxy) return false;
  // Like X-Forwarded-For, only the entry our own proxy wrote (the last) counts.
  const proto = c.req.header("x-forwarded-proto")?.split(",").pop()?.trim().toLowerCase();
  return proto === "https";
}

/** The cookie of a session kind: `__Host-` prefixed (Secure, Path=/, no Domain) over https. */
export function sessionCookieName(kind: SessionKind, https: boolean): string {
  const base = kind === "admin" ? "admin_sid" : "sid";
  return https ? `__Host-${base}` : base;
}

function ttlOf(kind: SessionKind): number {
  return kind === "admin" ? ADMIN_SESSION_TTL_MS : SESSION_TTL_MS;
}

function cookieToken(c: Context, deps: AppDeps, kind: SessionKind): string | null {
  const https = isHttps(c, deps.config.trustProxy);
  const token = getCookie(c, sessionCookieName(kind, https));
  return token && TOKEN_SHAPE.test(token) ? token : null;
}

/** The valid session the request's cookie names, or null (absent, unknown, expired). */
export async function readSession(
  c: Context,
  deps: AppDeps,
  kind: SessionKind,
): Promise<ActiveSession | null> {
  const token = cookieToken(c, deps, kind);
  if (!token) return null;
  const hash = sha256Hex(token);
  const entry = await deps.accounts.getSession(kind, hash);
  if (!entry || entry.expiresAt <= deps.now()) return null;
  if ((kind === "client") !== (entry.accountId !== null)) return null;
  return {
    kind,
    token,
    hash,
    accountId: entry.accountId,
    csrf: entry.csrf,
    expiresAt: entry.expiresAt,
  };
}

/**
 * Starts a session and sets its cookie. The session the browser held before (if any) is deleted
 * first: a sign-in always rotates the token.
 */
export async function openSession(
  c: Context,
  deps: AppDeps,
  kind: SessionKind,
  accountId: string | null,
): Promise<ActiveSession> {
  const accounts = deps.accounts;
  const previous = cookieToken(c, deps, kind);
  if (previous) await accounts.deleteSession(kind, sha256Hex(previous));
  const now = deps.now();
  const ttl = ttlOf(kind);
  const token = randomToken(32);
  const hash = sha256Hex(token);
  const csrf = randomToken(32);
  const expiresAt = now + ttl;
  await accounts.putSession(kind, hash, { accountId, createdAt: now, expiresAt, csrf }, ttl);
  setSessionCookie(c, deps, kind, token, Math.floor(ttl / 1000));
  return { kind, token, hash, accountId, csrf, expiresAt };
}

/** Ends the request's session (if any): deletes it from KV and clears the cookie. */
export async function closeSession(c: Context, deps: AppDeps, kind: SessionKind): Promise<void> {
  const token = cookieToken(c, deps, kind);
  if (token) await deps.accounts.deleteSession(kind, sha256Hex(token));
  setSessionCookie(c, deps, kind, "", 0);
}

function setSessionCookie(
  c: Context,
  deps: AppDeps,
  kind: SessionKind,
  value: string,
  maxAge: number,
): void {
  const https = isHttps(c, deps.config.trustProxy);
  setCookie(c, sessionCookieName(kind, https), value, {
    httpOnly: true,
    secure: https,
    // The administrator's cookie never rides along on a navigation from another site.
    sameSite: kind === "admin" ? "Strict" : "Lax",
    path: "/",
    maxAge,
  });
}

/**
 * Middleware: for page requests that carry a valid client session cookie, sets `signedIn` (the
 * navigation shows "Your keys") and `session`. API, MCP and static requests skip the lookup.
 */
export function sessionMiddleware(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!/^\/(static|api|mcp)(\/|$)/.test(c.req.path)) {
      const session = await readSession(c, deps, "client");
      if (session) {
        c.set("signedIn", true);
        c.set("session", session);
      }
    }
    await next();
  };
}

/**
 * Leaves a one-time message for the session's next page (e.g. a new key after a form post and
 * its 303 redirect, so the key never appears in a URL). It is encrypted with a key derived from
 * the session token, which only the browser holds: KV never has the message in clear.
 */
export async function putFlash(
  deps: AppDeps,
  session: ActiveSession,
  message: unknown,
): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await flashKey(session.token),
    new TextEncoder().encode(JSON.stringify(message)),
  );
  await deps.accounts.putFlash(session.hash, {
    iv: toBase64(iv),
    data: toBase64(new Uint8Array(data)),
  }, FLASH_TTL_MS);
}

/** Takes (reads and deletes) the session's one-time message, or null. */
export async function takeFlash<T>(deps: AppDeps, session: ActiveSession): Promise<T | null> {
  const entry = await deps.accounts.takeFlash(session.hash);
  if (!entry) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(entry.iv) },
      await flashKey(session.token),
      fromBase64(entry.data),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as T;
  } catch {
    return null;
  }
}

async function flashKey(token: string): Promise<CryptoKey> {
  const raw = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`flash\0${token}`));
  return await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}
