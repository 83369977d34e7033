/**
 * Which key seals webhook URLs and signing secrets (and users' vendor keys), and the move off a
 * key kept in the store.
 *
 * With WATCH_SECRET_KEY set, that key seals, and it is kept outside the store: a copy of the KV
 * file opens nothing. Without it, webhooks keep working with a key generated once and kept in KV
 * beside what it seals (`["secrets", "watch-secret-box"]`): that keeps secrets out of records,
 * logs and exports, but a copy of the KV file opens them, and with a signing secret anyone can
 * forge alerts that the receiver trusts. The start-up line says which (main.ts describeConfig).
 *
 * Turning it off: set WATCH_SECRET_KEY and restart. The kept key then only opens (like
 * WATCH_SECRET_KEY_PREVIOUS), and at start-up {@link sealAgain} seals every webhook value that
 * opens only with an older key again with the new one, then deletes the kept key, so no copy of
 * the store made after that start opens any of them.
 */
import { KEPT_KEY_NAME, type SecretBox, type SecretBoxKeys } from "../../kit/auth/secret_box.ts";
import { secretKey } from "../../kit/storage/store_secrets.ts";
import { WatchStore } from "./store.ts";
import type { Watch } from "./store_types.ts";

/**
 * Another feature's values sealed with the same box (users' vendor keys), swept by the app at the
 * same start, before the kept key may go: its counts join {@link Resealed}'s.
 */
export type OtherSweep = () => Promise<{ resealed: number; unopened: number; busy: number }>;

/** What {@link sealAgain} did. */
export interface Resealed {
  /** Watches whose webhook was sealed again with the current key. */
  resealed: number;
  /** Watches whose webhook opens with no key given (left as they are: their attempts say so). */
  unopened: number;
  /** Watches that changed while being sealed again, three times (left for the next start). */
  busy: number;
  /** True when the key kept in KV was deleted (nothing it sealed is left). */
  keptKeyDeleted: boolean;
}

/**
 * With WATCH_SECRET_KEY set: seals again, with it, every sealed value of every watch of `services`
 * (their names: the store's every service, as the kept key is the whole store's): webhook URL and
 * signing secret, e-mail address and unsubscribe token; and what `others` sweep (users' vendor
 * keys), when they open only with an older key (the kept one, WATCH_SECRET_KEY_PREVIOUS); then
 * deletes the kept key if nothing is left that needs it. Without WATCH_SECRET_KEY it does nothing; with neither a kept key nor
 * WATCH_SECRET_KEY_PREVIOUS it reads one KV entry. Called once at start-up (lib/app/server.ts),
 * before anything is delivered.
 */
export async function sealAgain(
  kv: Deno.Kv,
  watch: SecretBoxKeys,
  openBox: () => Promise<SecretBox>,
  services: readonly string[],
  others: readonly OtherSweep[] = [],
): Promise<Resealed> {
  const done: Resealed = { resealed: 0, unopened: 0, busy: 0, keptKeyDeleted: false };
  if (!watch.secretKey) return done;
  const kept = await kv.get<string>(secretKey(KEPT_KEY_NAME));
  if (!kept.value && watch.previousSecretKeys.length === 0) return done;
  const box = await openBox();
  for (const service of services) {
    const store = new WatchStore(kv, service);
    for await (const first of store.everyWatch()) {
      let entry: Deno.KvEntryMaybe<Watch> = first;
      let outcome: "current" | "resealed" | "unopened" | "busy" = "busy";
      for (let attempt = 0; attempt < 3; attempt++) {
        // Removed meanwhile: nothing left to seal.
        const opened = entry.value ? await openSealed(box, entry.value) : null;
        if (!opened || opened.state === "current") outcome = "current";
        else if (opened.state === "unopened") outcome = "unopened";
        else if (await store.save(entry as Deno.KvEntry<Watch>, opened.next)) outcome = "resealed";
        else {
          entry = await store.get(first.value.accountId, first.value.id);
          continue;
        }
        break;
      }
      if (outcome === "resealed") done.resealed++;
      else if (outcome === "unopened") done.unopened++;
      else if (outcome === "busy") done.busy++;
    }
  }
  for (const sweep of others) {
    const more = await sweep();
    done.resealed += more.resealed;
    done.unopened += more.unopened;
    done.busy += more.busy;
  }
  if (kept.value && done.busy === 0) {
    // Only if no process made it again meanwhile (the versionstamp read above).
    done.keptKeyDeleted = (await kv.atomic().check(kept).delete(kept.key).commit()).ok;
  }
  return done;
}

/**
 * A watch's webhook URL and signing secret in clear, to send a delivery; null when there is none
 * or they open with no key given. Values an older key sealed (WATCH_SECRET_KEY_PREVIOUS, the kept
 * key) are sealed again with the current key and saved, as users' vendor keys are when used; when
 * the watch changed meanwhile the next use does it.
 */
export async function openWebhook(
  store: WatchStore,
  box: SecretBox,
  entry: Deno.KvEntry<Watch>,
): Promise<{ url: string; secret: string } | null> {
  if (!entry.value.webhook) return null;
  const opened = await openSealed(box, entry.value);
  if (!opened || opened.state === "unopened" || !opened.url || !opened.secret) return null;
  if (opened.state === "stale") await store.save(entry, opened.next);
  return { url: opened.url, secret: opened.secret };
}

/** A watch's sealed values opened: all with the current key, or some with an older one. */
type Opened =
  | { state: "current"; url: string | null; secret: string | null }
  | { state: "stale"; url: string | null; secret: string | null; next: Watch }
  | { state: "unopened" };

/**
 * Opens every sealed value of a watch (webhook URL and secret, e-mail address and unsubscribe
 * token); null when it has none. `next` has every value an older key sealed sealed again.
 */
async function openSealed(box: SecretBox, w: Watch): Promise<Opened | null> {
  const values: { plain: string; current: boolean }[] = [];
  const open = async (sealed: string) => {
    const opened = await box.openWith(sealed, w.id);
    if (opened) values.push(opened);
    return opened;
  };
  if (!w.webhook && !w.email) return null;
  const url = w.webhook ? await open(w.webhook.url) : null;
  const secret = w.webhook ? await open(w.webhook.secret) : null;
  const address = w.email ? await open(w.email.address) : null;
  const unsubscribe = w.email ? await open(w.email.unsubscribe) : null;
  if ((w.webhook && (!url || !secret)) || (w.email && (!address || !unsubscribe))) {
    return { state: "unopened" };
  }
  const plain = { url: url?.plain ?? null, secret: secret?.plain ?? null };
  if (values.every((v) => v.current)) return { state: "current", ...plain };
  const next: Watch = {
    ...w,
    ...(w.webhook && url && secret
      ? {
        webhook: {
          ...w.webhook,
          url: await box.seal(url.plain, w.id),
          secret: await box.seal(secret.plain, w.id),
        },
      }
      : {}),
    ...(w.email && address && unsubscribe
      ? {
        email: {
          ...w.email,
          address: await box.seal(address.plain, w.id),
          unsubscribe: await box.seal(unsubscribe.plain, w.id),
        },
      }
      : {}),
  };
  return { state: "stale", ...plain, next };
}
