/**
 * The accounts feature's settings: the administrator's password (docs/configuration.md), read from
 * the environment by lib/kit/config.ts (the only reader of the environment): {@link ACCOUNTS_ENV}
 * is its part of the configuration's schema, {@link accountsSettings} builds the typed slice.
 */
import { z } from "zod";

const optionalString = z.string().trim().min(1).optional().catch(undefined);

/** The accounts settings' variables, as the configuration's schema reads them. */
export const ACCOUNTS_ENV = {
  ADMIN_PASSWORD_HASH: optionalString,
  ADMIN_PASSWORD: optionalString,
};

/** The variables' values, parsed. */
export type AccountsEnv = z.infer<z.ZodObject<typeof ACCOUNTS_ENV>>;

/** The administrator's sign-in (lib/features/accounts/admin.ts). */
export interface AccountsSettings {
  /** The administrator's password as an argon2id PHC string. */
  adminPasswordHash: string | undefined;
  /** The administrator's password in clear, for local use only. */
  adminPassword: string | undefined;
}

/** The slice from the parsed variables. */
export function accountsSettings(e: AccountsEnv): AccountsSettings {
  return { adminPasswordHash: e.ADMIN_PASSWORD_HASH, adminPassword: e.ADMIN_PASSWORD };
}
