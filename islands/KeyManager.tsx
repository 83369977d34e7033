/**
 * The key manager of the account dashboard: the list of keys, a form to create a named key (the
 * full key is shown once, with a copy button) and a revoke button per key (with an inline
 * confirmation). The server renders the same markup with plain forms, so everything works without
 * JavaScript; once hydrated, create and revoke go through fetch without reloading the page.
 */
import { KeyCells, KeyTableHead } from "../lib/kit/ui/key_table.tsx";
import { useEffect, useRef, useState } from "preact/hooks";
import type { VNode } from "preact";
import { formatWhen, type KeyView, sortKeys } from "../lib/kit/ui/key_view.ts";
import { checkKeyName } from "../lib/kit/auth/account_rules.ts";
import { fillPath, PATHS } from "../lib/kit/report_urls.ts";

/** A key just created, the only moment its full text exists. */
export interface NewKey {
  key: string;
  id: string;
  name: string;
}

/** A message above the list. */
export interface Notice {
  kind: "success" | "error";
  text: string;
}

/** Props (JSON, from the server). */
export interface KeyManagerProps {
  keys: KeyView[];
  /** The session's form token (lib/kit/web/csrf.ts). */
  csrf: string;
  maxActiveKeys: number;
  maxNameLength: number;
  /** New scans per hour of each key (lib/kit/limits/limits.ts LIMITS.key). */
  scansPerKeyHour: number;
  /** Shown once: set by the server right after a no-JS create (from the encrypted flash). */
  created: NewKey | null;
  notice: Notice | null;
  /** The name typed into a form the server refused, and why. */
  nameValue: string;
  nameError: string | null;
}

type Confirming = { id: string; busy: boolean } | null;

/** The key manager. */
export function KeyManager(props: KeyManagerProps): VNode {
  const [keys, setKeys] = useState<KeyView[]>(props.keys);
  const [created, setCreated] = useState<NewKey | null>(props.created);
  const [notice, setNotice] = useState<Notice | null>(props.notice);
  const [name, setName] = useState(props.nameValue);
  const [nameError, setNameError] = useState<string | null>(props.nameError);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const keyInput = useRef<HTMLInputElement>(null);
  const newKeyBox = useRef<HTMLDivElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (created && hydrated) newKeyBox.current?.focus();
  }, [created?.id, hydrated]);
  // The inline confirmation takes the keyboard focus, so Enter confirms and Tab reaches Cancel.
  useEffect(() => {
    if (confirming && !confirming.busy) confirmButton.current?.focus();
  }, [confirming?.id]);

  const active = keys.filter((k) => k.revokedAt === null).length;

  async function post(url: string, body: Record<string, string>) {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ ...body, csrf: props.csrf }),
      credentials: "same-origin",
    });
    let data: Record<string, unknown> = {};
    try {
      data = await res.json();
    } catch {
      // A non-JSON answer (a proxy's error page) keeps the generic message below.
    }
    if (res.status === 401) {
      throw new Error("Your session has ended. Sign in again to manage your keys.");
    }
    if (!res.ok) {
      throw new Error(
        typeof data.error === "string" ? data.error : `The server answered ${res.status}.`,
      );
    }
    return data;
  }

  async function onCreate(event: Event) {
    event.preventDefault();
    const checked = checkKeyName(name, props.maxNameLength);
    if (!checked.ok) {
      setNameError(checked.reason);
      return;
    }
    setBusy(true);
    setNameError(null);
    setNotice(null);
    setCopyStatus(null);
    try {
      const data = await post(PATHS.accountKeys, { name: checked.name });
      const entry = data.entry as KeyView;
      setKeys((list) => [entry, ...list.filter((k) => k.id !== entry.id)]);
      setCreated({ key: data.key as string, id: entry.id, name: entry.name });
      setName("");
    } catch (e) {
      setNotice({ kind: "error", text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  }

  async function onRevoke(id: string) {
    setConfirming({ id, busy: true });
    setNotice(null);
    try {
      const data = await post(fillPath(PATHS.accountKeyRevoke, { id }), {});
      const entry = data.entry as KeyView;
      setKeys((list) => list.map((k) => (k.id === entry.id ? entry : k)));
      if (created?.id === entry.id) setCreated(null);
      setNotice({
        kind: "success",
        text: `Key “${entry.name}” revoked. Requests with it now get 401.`,
      });
    } catch (e) {
      setNotice({ kind: "error", text: (e as Error).message });
    } finally {
      setConfirming(null);
    }
  }

  async function onCopy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopyStatus("Copied to the clipboard.");
    } catch {
      // No clipboard permission (or an old browser): select the text for a manual copy.
      keyInput.current?.focus();
      keyInput.current?.select();
      let copied = false;
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
      setCopyStatus(
        copied ? "Copied to the clipboard." : "Selected: press Ctrl+C (or ⌘C) to copy it.",
      );
    }
  }

  return (
    <section class="key-manager" aria-labelledby="keys-heading">
      <div class="km-live" role="status" aria-live="polite">
        {notice && <p class={`notice ${notice.kind}`}>{notice.text}</p>}
      </div>

      {created && (
        <div class="card new-key" ref={newKeyBox} tabIndex={-1} aria-labelledby="new-key-heading">
          <h2 id="new-key-heading">Your new key “{created.name}”</h2>
          <p>
            <strong>Copy it now: it is shown only this once.</strong>{" "}
            We keep only a hash of it, so nobody (us included) can show it again. If you lose it,
            revoke it and create another.
          </p>
          <div class="key-copy">
            <label class="visually-hidden" for="new-key-value">Your new API key</label>
            <input
              id="new-key-value"
              class="key-value"
              type="text"
              readOnly
              value={created.key}
              ref={keyInput}
              onFocus={(e) =>
                (e.currentTarget as HTMLInputElement).select()}
            />
            {hydrated && (
              <button type="button" class="secondary copy-key" onClick={onCopy}>
                Copy
              </button>
            )}
          </div>
          <p class="hint copy-status" role="status" aria-live="polite">{copyStatus ?? ""}</p>
        </div>
      )}

      <form
        method="post"
        action={PATHS.accountKeys}
        class="card create-key"
        onSubmit={onCreate}
        noValidate={hydrated}
      >
        <input type="hidden" name="csrf" value={props.csrf} />
        <div class="field">
          <label for="key-name">
            Name of a new key
            <span class="hint">Where it will be used, e.g. “CI pipeline” or “laptop script”.</span>
          </label>
          <div class="create-row">
            <input
              id="key-name"
              name="name"
              type="text"
              required
              maxLength={props.maxNameLength}
              autoComplete="off"
              value={name}
              onInput={(e) => {
                setName((e.currentTarget as HTMLInputElement).value);
                if (nameError) setNameError(null);
              }}
              aria-invalid={nameError ? "true" : undefined}
              aria-describedby={nameError ? "key-name-error" : undefined}
            />
            <button type="submit" disabled={busy || active >= props.maxActiveKeys}>
              {busy ? "Creating…" : "Create key"}
            </button>
          </div>
          {nameError && <p id="key-name-error" class="error-text">{nameError}</p>}
        </div>
        <p class="hint">
          {active} of {props.maxActiveKeys} active keys used. Each key has its own limit of{" "}
          {props.scansPerKeyHour} new scans per hour.
        </p>
      </form>

      <h2 id="keys-heading">Your keys</h2>
      {keys.length === 0
        ? <p class="muted">No keys yet. Create one above.</p>
        : (
          <div class="table-wrap">
            <table class="keys">
              <KeyTableHead />
              <tbody>
                {sortKeys(keys).map((k) => (
                  <tr key={k.id} data-key-id={k.id}>
                    <KeyCells {...k} />
                    <td data-label="Status">
                      {k.revokedAt === null ? <span class="badge status-pass">active</span> : (
                        <span
                          class="badge status-fail"
                          title={`Revoked ${formatWhen(k.revokedAt)}`}
                        >
                          revoked
                        </span>
                      )}
                    </td>
                    <td class="key-actions">
                      {k.revokedAt === null && (
                        confirming?.id === k.id
                          ? (
                            <span class="confirm-revoke">
                              <span>Revoke “{k.name}”?</span>
                              <button
                                type="button"
                                class="danger"
                                ref={confirmButton}
                                disabled={confirming.busy}
                                onClick={() => onRevoke(k.id)}
                              >
                                {confirming.busy ? "Revoking…" : "Yes, revoke"}
                              </button>
                              <button
                                type="button"
                                class="secondary"
                                disabled={confirming.busy}
                                onClick={() => setConfirming(null)}
                              >
                                Cancel
                              </button>
                            </span>
                          )
                          : (
                            <form
                              method="post"
                              action={fillPath(PATHS.accountKeyRevoke, { id: k.id })}
                              onSubmit={(e) => {
                                e.preventDefault();
                                setConfirming({ id: k.id, busy: false });
                              }}
                            >
                              <input type="hidden" name="csrf" value={props.csrf} />
                              <button type="submit" class="danger" aria-label={`Revoke ${k.name}`}>
                                Revoke
                              </button>
                            </form>
                          )
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
