/**
 * The account dashboard: who is signed in, the KeyManager island (keys, create, copy, revoke), the
 * sections other features add (the watched sites, the account's own AI vendor keys where allowed)
 * and how to use a key with curl.
 * Server-rendered in full, so it works without JavaScript.
 */
import type { VNode } from "preact";
import { MAX_ACTIVE_KEYS } from "../accounts.ts";
import { LIMITS } from "../../../kit/limits/limits.ts";
import { PATHS, scanJsonPath, scanStatusPath } from "../../../kit/report_urls.ts";
import { MAX_KEY_NAME } from "../../../kit/auth/keys.ts";
import type { Account } from "../../../kit/storage/store_accounts.ts";
import { KeyManager, type NewKey, type Notice } from "../../../../islands/KeyManager.tsx";
import type { KeyView } from "../../../kit/ui/key_view.ts";
import { Island } from "../../../kit/ui/layout.tsx";
import { PostButton } from "../../../kit/ui/post_button.tsx";

/** What the dashboard shows. */
export interface DashboardState {
  account: Account;
  /** The session's form token, carried by the page's forms. */
  csrf: string;
  keys: KeyView[];
  created?: NewKey | null;
  notice?: Notice | null;
  nameValue?: string;
  nameError?: string | null;
  /**
   * What other features show (the watched sites, the account's own AI vendor keys: AppDeps'
   * accountSections, lib/kit/web/account_sections.ts), in order, after the keys.
   */
  sections: VNode[];
  /** Where the account's server logs are read (absent where the service reads none). */
  logsHref?: string;
}

/**
 * The dashboard's body: `origin` is this server's address and `prefix` the service's key prefix,
 * for the curl example.
 */
export function DashboardPage(
  props: { state: DashboardState; origin: string; prefix: string },
): VNode {
  const { state, origin, prefix } = props;
  // As /docs does: follow the scan's status URL (the report URL keeps answering the previous
  // record while a rescan runs), then read the record it names.
  const curl = `curl -s -X POST ${origin}${PATHS.scan} \\
  -H "Authorization: Bearer ${prefix}YOUR_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"url": "example.com"}'

# 202 {"domain":"example.com","scanId":"SCAN_ID","statusUrl":"${scanStatusPath("SCAN_ID")}"}:
# the scan runs in the background. Follow statusUrl every 1-2 s until its status is
# "done" or "failed" (a 200 instead of 202 is a cached report: that is the answer):
curl -s ${origin}${scanStatusPath("SCAN_ID")}
# then read the record its report.json names:
curl -s ${origin}${scanJsonPath("example.com", "SCAN_ID")}`;
  return (
    <div class="dashboard">
      <div class="dashboard-head">
        <div>
          <h1>Your account</h1>
          <p class="muted">
            Your watched sites and their alerts, the AI assistants' answers about them, and your API
            keys.
          </p>
          <p class="muted">
            Signed in as <strong class="account-email">{state.account.email}</strong>
          </p>
        </div>
        <PostButton action={PATHS.accountLogout} csrf={state.csrf} label="Sign out" />
      </div>
      {state.logsHref && (
        <p>
          <a href={state.logsHref}>Server logs</a>: read your access logs to see which AI crawlers
          really come, what they get, and which are impostors.
        </p>
      )}
      <Island
        name="KeyManager"
        component={KeyManager}
        props={{
          keys: state.keys,
          csrf: state.csrf,
          maxActiveKeys: MAX_ACTIVE_KEYS,
          maxNameLength: MAX_KEY_NAME,
          scansPerKeyHour: LIMITS.key,
          created: state.created ?? null,
          notice: state.notice ?? null,
          nameValue: state.nameValue ?? "",
          nameError: state.nameError ?? null,
        }}
      />
      {state.sections}
      <section aria-labelledby="use-heading">
        <h2 id="use-heading">Using a key</h2>
        <p>
          Send it as a bearer token to{" "}
          <code>POST /api/scan</code>. No challenge is needed with a key. Each key has its own limit
          of {LIMITS.key}{" "}
          new scans per hour, whatever the address you call from; a result less than 24 hours old is
          returned at once and counts toward no limit.
        </p>
        <pre><code>{curl}</code></pre>
        <p>
          A revoked key stops working at once: the next request with it gets <code>401</code>.{" "}
          <a href={PATHS.docs}>API documentation</a>
        </p>
      </section>
      <section aria-labelledby="about-heading">
        <h2 id="about-heading">About your account</h2>
        <p>
          No e-mail is ever sent: the address was not verified and there is no password reset. Keep
          your password in a password manager. We store your password only as an argon2id hash and
          each key only as a SHA-256 hash.
        </p>
      </section>
    </div>
  );
}
