/**
 * Accounts: sign-up, log-in, log-out, API keys and the account page; the administrator's log-in,
 * log-out, key revocation and overview. lib/app/routes.ts lists it.
 */
import type { RouteDef } from "../../kit/web/route.ts";
import { signupRoute } from "./routes/account/signup.tsx";
import { loginRoute } from "./routes/account/login.tsx";
import { logoutRoute } from "./routes/account/logout.ts";
import { accountKeyRevokeRoute, accountKeysRoute } from "./routes/account/keys.ts";
import { accountRoute } from "./routes/account/index.tsx";
import { adminLoginRoute } from "./routes/admin/login.tsx";
import { adminLogoutRoute } from "./routes/admin/logout.ts";
import { adminKeyRevokeRoute } from "./routes/admin/keys.ts";
import { adminRoute } from "./routes/admin/index.tsx";

/** The accounts feature's routes. */
export const ACCOUNTS_ROUTES: readonly RouteDef[] = [
  signupRoute,
  loginRoute,
  logoutRoute,
  accountKeysRoute,
  accountKeyRevokeRoute,
  accountRoute,
  adminLoginRoute,
  adminLogoutRoute,
  adminKeyRevokeRoute,
  adminRoute,
];
