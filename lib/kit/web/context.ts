/**
 * The web layer's context: what every route is built with (AppDeps), Hono's context variables
 * (AppEnv), and the small helpers routes share. Routes import this module, never the server.
 */
import type { Context } from "hono";
import type { ScanRunner } from "../isolate/runner.ts";
import type { ChallengeProvider } from "../auth/challenge.ts";
import { clientIp } from "../net/client_ip.ts";
import type { ObservedColumn, ServiceDef } from "../../service.ts";
import type { AccountStore, SessionKind } from "../storage/store_accounts.ts";
import type { AccountSection } from "./account_sections.ts";
import type { ServiceDeps } from "../service_deps.ts";
import type { ReportSection } from "./report_sections.ts";

/** A valid session of the current request. */
export interface ActiveSession {
  kind: SessionKind;
  /** The token from the cookie (never stored). */
  token: string;
  /** Its SHA-256: the KV key. */
  hash: string;
  /** The client account; null for the administrator. */
  accountId: string | null;
  /** The synchronizer token forms of this session carry (lib/kit/web/csrf.ts). */
  csrf: string;
  expiresAt: number;
}

/**
 * Everything the routes need, injected so tests control time, DNS and the challenge. A feature's
 * own dependencies (its store, its fetchers) are its part of the app's: it types them in its
 * context.ts and its routes ask for them (`RouteDef<AppDeps & WithWatch>`); lib/app/deps.ts
 * assembles the whole.
 */
export interface AppDeps extends ServiceDeps {
  /** Accounts, sessions and sign-in attempts of the service (built once, in createServer). */
  accounts: AccountStore;
  /** Every service of this program, by name (the registry of lib/app/server.ts: the sister's words). */
  services: Record<string, ServiceDef>;
  /** The browser challenge (Turnstile or the self-hosted ALTCHA). */
  challenge: ChallengeProvider;
  /** Structured log sink (one JSON object per event). */
  log?: (entry: Record<string, unknown>) => void;
  /**
   * Where scans and jobs on untrusted text run (lib/kit/isolate/runner.ts: worker processes,
   * threads, or this isolate's inline runner), set by createServer: code validation and the
   * /validate result go through it (lib/features/validate/), server logs' reads too
   * (lib/features/logs/, `runStream`), and /healthz reads its stats.
   */
  threads?: (Pick<ScanRunner, "runJob" | "stats"> & Partial<Pick<ScanRunner, "runStream">>) | null;
  /** What other features add to the account page, in order (lib/app/sections.ts). */
  accountSections?: readonly AccountSection[];
  /** What other features add to the report pages, in order (lib/app/sections.ts). */
  reportSections?: readonly ReportSection[];
  /**
   * The crawler matrix's observed column of a site, from the account's stored server logs (null
   * without any): lib/features/logs/, handed in by createServer for the services that read logs.
   */
  observedOf?: (accountId: string, domain: string) => Promise<ObservedColumn | null>;
  /**
   * The pages each assistant cited in the account's latest answer-presence run of a site, with
   * its crawlers (lib/features/answers/ cited_pages.ts): what the logs report joins with the pages
   * those crawlers fetched. Handed in by createServer.
   */
  citedPagesOf?: (
    accountId: string,
    domain: string,
  ) => Promise<{ assistant: string; crawlers: string[]; paths: string[] }[]>;
}

/** Hono's context variables set by our middleware. */
export type AppEnv = {
  Variables: {
    clientIp: string;
    /** Set by the session middleware when a client account is signed in. */
    signedIn?: boolean;
    /** The signed-in client session (lib/kit/web/sessions.ts), set with `signedIn`. */
    session?: ActiveSession;
    /** The administrator session, set by the admin group's session requirement (lib/kit/web/groups.ts). */
    adminSession?: ActiveSession;
  };
};

export /**
 * The client IP of a request (lib/kit/net/client_ip.ts): the connection's address, or with TRUST_PROXY
 * the right-most X-Forwarded-For entry. Without a connection (app.request() in tests) only the
 * header can say, else "unknown".
 */
function requestIp(req: Request, info: unknown, trustProxy: boolean): string {
  const addr = (info as Partial<Deno.ServeHandlerInfo> | undefined)?.remoteAddr;
  const remote = addr && "hostname" in addr ? addr.hostname : undefined;
  return clientIp(remote, req.headers.get("x-forwarded-for") ?? undefined, trustProxy);
}

/**
 * The public origin of this site, for absolute URLs. Behind a proxy (TRUST_PROXY=1) the
 * forwarded scheme is honoured, so canonical links say https when TLS ends at the proxy.
 */
export function siteOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  if (trustProxy) {
    const proto = c.req.header("x-forwarded-proto")?.split(",")[0].trim();
    if (proto === "https" || proto === "http") url.protocol = `${proto}:`;
  }
  return url.origin;
}
