/**
 * Who may use answer presence, and for which sites: the operator (`Authorization: Bearer
 * <PIPELINE_TOKEN>`, or the CLI on the server itself) for any site, and an account (its API key,
 * or its signed-in session on the pages) for the sites it watches. Never the anonymous form: a
 * request with neither is 401, and a challenge token is not a credential here.
 */
import { digestsEqual, sha256Digest } from "../../kit/auth/crypto.ts";
import { UnauthorizedError } from "../../kit/errors.ts";
import { accountOfBearer } from "../../kit/auth/caller.ts";
import type { AnswersDeps } from "./context.ts";
import { NotWatchedError } from "./errors.ts";
import type { Owner } from "./run_types.ts";

/**
 * The owner behind an Authorization header. @throws UnauthorizedError (401), or
 * KeyWithoutAccountError (403) for a key that belongs to no account.
 */
export async function ownerOfBearer(
  authorization: string | null | undefined,
  deps: Pick<AnswersDeps, "config" | "store" | "service" | "now">,
): Promise<Owner> {
  const token = authorization?.match(/^Bearer[ ]+([\x21-\x7e]{1,512})\s*$/i)?.[1];
  if (!token) throw new UnauthorizedError();
  const pipeline = deps.config.pipelineToken;
  if (pipeline && digestsEqual(sha256Digest(token).bytes, sha256Digest(pipeline).bytes)) {
    return { kind: "operator" };
  }
  const { accountId } = await accountOfBearer(authorization, {
    store: deps.store,
    keyPrefix: deps.service.keyPrefix,
    now: deps.now,
  });
  return { kind: "account", accountId };
}

/** The watch of `domain` by the account, or null. */
export async function watchOfDomain(deps: AnswersDeps, accountId: string, domain: string) {
  return (await deps.watches.list(accountId)).find((w) => w.domain === domain) ?? null;
}

/** @throws NotWatchedError unless the owner may run answer presence for `domain`. */
export async function assertMayRun(deps: AnswersDeps, owner: Owner, domain: string): Promise<void> {
  if (owner.kind === "operator") return;
  if (!(await watchOfDomain(deps, owner.accountId, domain))) throw new NotWatchedError(domain);
}
