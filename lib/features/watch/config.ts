/**
 * The watch feature's settings (docs/watch.md), read from the environment by lib/kit/config.ts
 * (the only reader of the environment): {@link WATCH_ENV} is its part of the configuration's
 * schema (so the defaults the docs print are these: `deno task facts`), {@link watchSettings}
 * builds the typed slice from the parsed values. The key that seals webhooks is the instance's
 * secret box's (WATCH_SECRET_KEY: lib/kit/config.ts, lib/kit/auth/secret_box.ts).
 */
import { z } from "zod";

/** Where a host of a resolve map connects (the shape of config_types.ts's ResolveTarget). */
type ResolveTarget = { host: string; port: number };

/** The watch settings' variables, as the configuration's schema reads them. */
export const WATCH_ENV = {
  WATCH_SCHEDULES: z.string().trim().default("daily,weekly").pipe(
    z.string().regex(/^(daily|weekly)(\s*,\s*(daily|weekly))*$/, {
      error: 'must list "daily" and/or "weekly", comma-separated',
    }),
  ),
  WATCH_MAX_PER_ACCOUNT: z.coerce.number().int().min(0).max(1000).default(10),
  WEBHOOK_RESOLVE: z.string().optional(),
  SMTP_URL: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.string().regex(/^smtps?:\/\/[^\s]+$/, {
      error: "must be smtp://user:password@host:port or smtps://... (the operator's mail server)",
    }).optional(),
  ),
  SMTP_FROM: z.string().trim().optional().transform((v) => v || undefined).pipe(
    z.string().max(300).refine((v) => {
      // One line with an @ inside (a linear test: no pattern over the whole value).
      const at = v.indexOf("@");
      return at > 0 && at < v.length - 1 && !v.includes("\r") && !v.includes("\n");
    }, { error: "must be an e-mail address" }).optional(),
  ),
};

/** The variables' values, parsed. */
export type WatchEnv = z.infer<z.ZodObject<typeof WATCH_ENV>>;

/**
 * Watches: the schedules users may pick (WATCH_SCHEDULES, default "daily,weekly"), the most watches
 * per account (WATCH_MAX_PER_ACCOUNT, default 10; 0 turns watches off), WEBHOOK_RESOLVE (tests
 * only: webhook hosts reached at a loopback address), and the operator's mail server.
 */
export interface WatchSettings {
  schedules: ("daily" | "weekly")[];
  maxPerAccount: number;
  webhookResolve: Map<string, ResolveTarget>;
  /**
   * The operator's mail server for e-mail alerts (SMTP_URL, SMTP_FROM): null, no e-mail
   * alerts (lib/features/watch/email.ts).
   */
  smtp: { url: string; from: string } | null;
}

/**
 * The slice from the parsed variables. `parseResolve` is lib/kit/config.ts's parser of
 * `host=ip:port` lists (its errors name the setting).
 */
export function watchSettings(
  e: WatchEnv,
  parseResolve: (name: string, value: string | undefined) => Map<string, ResolveTarget>,
): WatchSettings {
  const schedules = e.WATCH_SCHEDULES.split(",").map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return {
    schedules: [...new Set(schedules)] as ("daily" | "weekly")[],
    maxPerAccount: e.WATCH_MAX_PER_ACCOUNT,
    webhookResolve: parseResolve("WEBHOOK_RESOLVE", e.WEBHOOK_RESOLVE),
    smtp: e.SMTP_URL
      ? { url: e.SMTP_URL, from: e.SMTP_FROM ?? `alerts@${new URL(e.SMTP_URL).hostname}` }
      : null,
  };
}
