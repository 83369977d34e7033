/**
 * Who is calling POST /api/scan, by the spec's three methods:
 * 1. `Authorization: Bearer <PIPELINE_TOKEN>` (compared in constant time);
 * 2. `Authorization: Bearer <uvk_...>` a client key, looked up by its SHA-256;
 * 3. no Authorization header: a `turnstileToken` that the challenge verifier accepts.
 * An Authorization header that is present but not accepted is 401 `Unauthorized` (never a fall
 * back to the challenge); no header and no valid challenge is 403.
 */
import type { ChallengeVerifier } from "./challenge.ts";
import { digestsEqual, randomToken, sha256Digest } from "./crypto.ts";
import { UnauthorizedError, VerificationFailedError } from "../errors.ts";
import { findActiveKeyByHash } from "./keys.ts";
import type { ApiKeyEntry, Store } from "../storage/store.ts";

/** An authenticated caller of a scan. */
export type Caller =
  | { kind: "pipeline"; ip: string }
  | { kind: "key"; ip: string; key: ApiKeyEntry }
  | { kind: "challenge"; ip: string }
  | { kind: "mcp"; ip: string };

/** What authentication needs. */
export interface AuthDeps {
  store: Store;
  keyPrefix: string;
  pipelineToken: string | undefined;
  verifyChallenge: ChallengeVerifier;
}

// Compared against when no PIPELINE_TOKEN is set, so both paths cost the same.
const UNGUESSABLE = randomToken(32);
let pipelineMemo: { token: string | undefined; bytes: Uint8Array } | undefined;

/** The digest of the configured pipeline token, computed once per token. */
function pipelineDigest(token: string | undefined): Uint8Array {
  if (!pipelineMemo || pipelineMemo.token !== token) {
    pipelineMemo = { token, bytes: sha256Digest(token ?? UNGUESSABLE).bytes };
  }
  return pipelineMemo.bytes;
}
const MAX_BEARER = 512;

/**
 * Authenticates a scan request.
 * @throws UnauthorizedError (401) or VerificationFailedError (403).
 */
export async function authenticate(
  request: {
    authorization: string | null | undefined;
    turnstileToken: string | undefined;
    ip: string;
  },
  deps: AuthDeps,
): Promise<Caller> {
  const { authorization, ip } = request;
  if (authorization !== null && authorization !== undefined) {
    const match = authorization.match(/^Bearer[ ]+([\x21-\x7e]{1,512})\s*$/i);
    if (!match || match[1].length > MAX_BEARER) throw new UnauthorizedError();
    const token = match[1];
    // The token is hashed once: its digest is compared with the pipeline token's in constant time
    // (always, even when no PIPELINE_TOKEN is set) and its hex is how a client key is looked up.
    const digest = sha256Digest(token);
    const isPipeline = digestsEqual(digest.bytes, pipelineDigest(deps.pipelineToken));
    if (isPipeline && deps.pipelineToken) return { kind: "pipeline", ip };
    const key = token.startsWith(deps.keyPrefix)
      ? await findActiveKeyByHash(deps.store, digest.hex)
      : null;
    if (key) return { kind: "key", ip, key };
    throw new UnauthorizedError();
  }
  const token = request.turnstileToken;
  if (!token || !(await deps.verifyChallenge(token, ip))) throw new VerificationFailedError();
  return { kind: "challenge", ip };
}
