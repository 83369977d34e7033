/**
 * Who calls the watch API and the MCP watch tools: a client API key of an account, sent as
 * `Authorization: Bearer <key>` (a watch belongs to an account, so the pipeline token and keys
 * without an account cannot hold one). A missing, unknown or revoked key is the spec's 401
 * `Unauthorized`; a key without an account is 403.
 */
import { findActiveKeyByHash, touchKey } from "./keys.ts";
import { sha256Hex } from "./crypto.ts";
import { HttpError, UnauthorizedError } from "../errors.ts";
import type { ApiKeyEntry, Store } from "../storage/store.ts";

/** 403: the key is valid but belongs to no account. */
export class KeyWithoutAccountError extends HttpError {
  override name = "KeyWithoutAccountError";
  constructor() {
    super(
      403,
      "Watches belong to an account: use a key created in your account's dashboard (/account).",
    );
  }
}

/** The account (and key) behind an Authorization header. @throws UnauthorizedError (401), KeyWithoutAccountError (403). */
export async function accountOfBearer(
  authorization: string | null | undefined,
  deps: { store: Store; keyPrefix: string; now: () => number },
): Promise<{ accountId: string; key: ApiKeyEntry }> {
  const match = authorization?.match(/^Bearer[ ]+([\x21-\x7e]{1,512})\s*$/i);
  if (!match || !match[1].startsWith(deps.keyPrefix)) throw new UnauthorizedError();
  const key = await findActiveKeyByHash(deps.store, sha256Hex(match[1]));
  if (!key) throw new UnauthorizedError();
  if (!key.accountId) throw new KeyWithoutAccountError();
  await touchKey(deps.store, key, deps.now());
  return { accountId: key.accountId, key };
}
