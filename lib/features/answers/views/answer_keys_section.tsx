/**
 * The dashboard's "Your AI vendor keys" section (lib/features/accounts/views/account_page.tsx renders it, only where the
 * operator lets users bring their own keys): per provider, whether the account's own key is set and
 * since when, a form to set or replace it and a button to remove it. A key is never shown, not
 * even in part, and a refused form does not repeat what was typed. Server-rendered forms: it works
 * without JavaScript.
 */
import type { VNode } from "preact";
import type { UserKeyPanel } from "../user_keys.ts";
import { USER_KEY_CHARS } from "../user_keys.ts";
import type { Notice } from "../../../../islands/KeyManager.tsx";
import { formatWhen } from "../../../kit/ui/key_view.ts";
import { LocalTime } from "../../../kit/ui/local_time.tsx";
import { PostButton } from "../../../kit/ui/post_button.tsx";
import { fillPath, PATHS } from "../../../kit/report_urls.ts";

/** The section. */
export function AnswerKeysSection(
  props: { panel: UserKeyPanel; csrf: string; notice: Notice | null },
): VNode {
  const { panel, csrf, notice } = props;
  return (
    <section id="answer-keys" aria-labelledby="answer-keys-heading" class="answer-keys">
      <h2 id="answer-keys-heading">Your AI vendor keys</h2>
      <p>
        Answer presence asks AI assistants about the sites you watch. With a key of your own for a
        vendor, your runs call that vendor with it instead of this instance's key, and its calls
        count only in your account's daily budget. Each key is stored encrypted (AES-256-GCM) and
        used only to make your calls: it is never shown again, not even in part. Without one, a run
        uses this instance's key for that vendor, if it has one.
      </p>
      <div role="status">
        {notice && <p class={`notice ${notice.kind}`}>{notice.text}</p>}
      </div>
      <div class="table-wrap">
        <table class="stack-table">
          <thead>
            <tr>
              <th>Vendor</th>
              <th>Your key</th>
              <th>Set or replace</th>
              <th>
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {panel.keys.map((k) => {
              const id = `answer-key-${k.provider}`;
              const error = panel.form?.provider === k.provider ? panel.form.error : null;
              return (
                <tr key={k.provider}>
                  <td data-label="Vendor">{k.label}</td>
                  <td data-label="Your key">
                    {k.set && k.addedAt
                      ? (
                        <>
                          set since{" "}
                          <LocalTime iso={k.addedAt} utc={formatWhen(Date.parse(k.addedAt))} />
                        </>
                      )
                      : "not set"}
                  </td>
                  <td data-label="Set or replace">
                    <form
                      method="post"
                      action={fillPath(PATHS.accountAnswerKey, { provider: k.provider })}
                      class="answer-key-form"
                    >
                      <input type="hidden" name="csrf" value={csrf} />
                      <label for={id} class="visually-hidden">
                        Your {k.label} key
                      </label>
                      <input
                        id={id}
                        name="apiKey"
                        type="password"
                        autocomplete="off"
                        required
                        minLength={USER_KEY_CHARS.min}
                        maxLength={USER_KEY_CHARS.max}
                        aria-invalid={error ? "true" : undefined}
                        aria-describedby={error ? `${id}-error` : undefined}
                      />
                      <button type="submit">{k.set ? "Replace" : "Save"}</button>
                      {error && <p id={`${id}-error`} class="error-text" role="alert">{error}</p>}
                    </form>
                  </td>
                  <td>
                    {k.set && (
                      <PostButton
                        action={fillPath(PATHS.accountAnswerKeyDelete, { provider: k.provider })}
                        csrf={csrf}
                        label="Remove"
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
