/**
 * A signed-in user's own vendor keys, where the operator allows them (ANSWERS_USER_KEYS=1): sealed
 * at rest with the instance's box (AES-256-GCM, lib/kit/auth/secret_box.ts), each bound to its
 * account and vendor so a sealed key copied elsewhere does not open; opened only to make a call;
 * never logged, never returned: the API says only whether a key is set and since when.
 */
import { BadRequestError, HttpError } from "../../kit/errors.ts";
import type { AnswersDeps } from "./context.ts";
import type { ProviderId } from "./provider.ts";
import { providerOf, PROVIDERS } from "./providers.ts";

/** A key's length bounds (printable ASCII, no spaces), as the forms and the API accept it. */
export const USER_KEY_CHARS = { min: 8, max: 512 } as const;
/** Printable ASCII without spaces, as vendors' keys are (the length is checked on its own). */
const KEY_CHARS = /^[\x21-\x7e]+$/;

/** 403: the operator does not let users bring their own keys. */
export class UserKeysOffError extends HttpError {
  override name = "UserKeysOffError";
  constructor() {
    super(
      403,
      "This instance does not accept users' own vendor keys (ANSWERS_USER_KEYS, sealed with WATCH_SECRET_KEY).",
    );
  }
}

/** What is shown of a user's keys. */
export interface UserKeyView {
  provider: ProviderId;
  set: boolean;
  addedAt: string | null;
}

function context(accountId: string, provider: ProviderId): string {
  return `answers-key:${accountId}:${provider}`;
}

/** Stores (or replaces) a user's key. @throws UserKeysOffError, BadRequestError. */
export async function setUserKey(
  deps: AnswersDeps,
  accountId: string,
  provider: ProviderId,
  apiKey: unknown,
): Promise<UserKeyView> {
  if (!deps.config.answers.userKeys) throw new UserKeysOffError();
  const key = typeof apiKey === "string" ? apiKey.trim() : "";
  if (key.length < USER_KEY_CHARS.min || key.length > USER_KEY_CHARS.max || !KEY_CHARS.test(key)) {
    throw new BadRequestError(
      `apiKey must be the vendor's key: ${USER_KEY_CHARS.min} to ${USER_KEY_CHARS.max} ` +
        "printable characters",
    );
  }
  const sealed = await (await deps.box()).seal(key, context(accountId, provider));
  const addedAt = deps.now();
  await deps.answers.putKey(accountId, provider, { sealed, addedAt });
  deps.log({ event: "answers.key_set", accountId, provider });
  return { provider, set: true, addedAt: new Date(addedAt).toISOString() };
}

/** Removes a user's key; false when none was set. */
export async function deleteUserKey(
  deps: AnswersDeps,
  accountId: string,
  provider: ProviderId,
): Promise<boolean> {
  const had = await deps.answers.deleteKey(accountId, provider);
  if (had) deps.log({ event: "answers.key_removed", accountId, provider });
  return had;
}

/** Which of a user's keys are set. */
export async function userKeyViews(deps: AnswersDeps, accountId: string): Promise<UserKeyView[]> {
  return await Promise.all(PROVIDERS.map(async (p) => {
    const k = await deps.answers.getKey(accountId, p.id);
    return {
      provider: p.id,
      set: !!k,
      addedAt: k ? new Date(k.addedAt).toISOString() : null,
    };
  }));
}

/** What the account page shows of a user's keys (lib/features/answers/views/answer_keys_section.tsx renders it). */
export interface UserKeyPanel {
  /** Every provider, in the order reports list them, with its name. */
  keys: (UserKeyView & { label: string })[];
  /** A refused key form: its provider and why (what was typed is never shown again). */
  form?: { provider: ProviderId; error: string };
}

/** The panel of an account, or null when the operator does not let users bring keys. */
export async function userKeyPanel(
  deps: AnswersDeps,
  accountId: string,
  form?: UserKeyPanel["form"],
): Promise<UserKeyPanel | null> {
  if (!deps.config.answers.userKeys) return null;
  const keys = (await userKeyViews(deps, accountId))
    .map((k) => ({ ...k, label: providerOf(k.provider).label }));
  return { keys, ...(form ? { form } : {}) };
}

/**
 * A user's key in clear, to make a call; null when none is set, users' keys are off, or it no
 * longer opens (the sealing key changed).
 */
export async function openUserKey(
  deps: AnswersDeps,
  accountId: string,
  provider: ProviderId,
): Promise<string | null> {
  if (!deps.config.answers.userKeys) return null;
  const k = await deps.answers.getKey(accountId, provider);
  if (!k) return null;
  const box = await deps.box();
  const opened = await box.openWith(k.sealed, context(accountId, provider));
  if (opened && !opened.current) {
    // Sealed with the key WATCH_SECRET_KEY replaced: sealed again with the new one, so the old
    // key can be dropped once every key has been used (docs/security.md, rotation).
    const sealed = await box.seal(opened.plain, context(accountId, provider));
    await deps.answers.putKey(accountId, provider, { sealed, addedAt: k.addedAt });
  }
  return opened?.plain ?? null;
}

/** What {@link sealKeysAgain} did. */
export interface KeysResealed {
  resealed: number;
  unopened: number;
  busy: number;
}

/**
 * Seals again, with the current key, every user's vendor key that opens only with an older one
 * (WATCH_SECRET_KEY_PREVIOUS, or the key once kept in KV): the start-up sweep the app runs beside
 * the watch feature's (lib/features/watch/sealing.ts sealAgain), so the kept key is deleted only
 * when nothing it sealed is left.
 */
export async function sealKeysAgain(deps: Pick<AnswersDeps, "answers" | "box">): Promise<
  KeysResealed
> {
  const done: KeysResealed = { resealed: 0, unopened: 0, busy: 0 };
  const box = await deps.box();
  for await (const entry of deps.answers.everyKey()) {
    const [accountId, provider] = entry.key.slice(-2) as [string, ProviderId];
    const opened = await box.openWith(entry.value.sealed, context(accountId, provider));
    if (!opened) done.unopened++;
    else if (!opened.current) {
      const sealed = await box.seal(opened.plain, context(accountId, provider));
      if (await deps.answers.replaceKey(entry, { ...entry.value, sealed })) done.resealed++;
      else done.busy++;
    }
  }
  return done;
}
