/**
 * The administrator's overview: recent scans (domain, status, score, when, credential kind),
 * accounts and their keys (any key can be revoked), and the current pressure on the rate limits.
 * Plain server-rendered HTML and forms; every user-controlled string goes through Preact's escaping.
 */
import { KeyCells, KeyTableHead } from "../../../kit/ui/key_table.tsx";
import type { VNode } from "preact";
import type { AdminOverview } from "../admin.ts";
import { describeWait } from "../accounts.ts";
import type { ApiKeyEntry } from "../../../kit/storage/store.ts";
import { LocalTimeMs } from "../../../kit/ui/local_time.tsx";
import { PostButton } from "../../../kit/ui/post_button.tsx";
import { fillPath, PATHS } from "../../../kit/report_urls.ts";

const POOL_NAMES: Record<string, string> = {
  ip: "scans per IP",
  domain: "scans per domain",
  key: "scans per API key",
};

/**
 * The overview's body: `csrf` is the administrator session's form token, `serviceTitle` the
 * service's name for people.
 */
export function AdminPage(props: {
  serviceTitle: string;
  csrf: string;
  overview: AdminOverview;
  notice: { kind: "success" | "error"; text: string } | null;
}): VNode {
  const { overview, notice, csrf } = props;
  const { totals } = overview;
  return (
    <div class="admin">
      <div class="dashboard-head">
        <div>
          <h1>Administration</h1>
          <p class="muted">
            {props.serviceTitle}: {plural(totals.accounts, "account")},{" "}
            {plural(totals.activeKeys, "active key")} of {totals.keys}.
          </p>
        </div>
        <PostButton action={PATHS.adminLogout} csrf={csrf} label="Sign out" />
      </div>
      {notice && <p class={`notice ${notice.kind}`} role="status">{notice.text}</p>}
      <nav class="admin-nav" aria-label="Sections">
        <a href="#scans">Recent scans</a> · <a href="#accounts">Accounts and keys</a> ·{" "}
        <a href="#pressure">Rate limits</a>
      </nav>

      <section id="scans" aria-labelledby="scans-heading">
        <h2 id="scans-heading">Recent scans</h2>
        {overview.scans.length === 0
          ? <p class="muted">No scans in the last 7 days.</p>
          : (
            <div class="table-wrap">
              <table class="stack-table">
                <thead>
                  <tr>
                    <th scope="col">Domain</th>
                    <th scope="col">Status</th>
                    <th scope="col">Score</th>
                    <th scope="col">When</th>
                    <th scope="col">Credential</th>
                  </tr>
                </thead>
                <tbody>
                  {overview.scans.map((s) => (
                    <tr>
                      <td data-label="Domain" class="domain">{s.domain}</td>
                      <td data-label="Status">
                        <span class={`badge status-${s.status === "ok" ? "pass" : "fail"}`}>
                          {s.status}
                        </span>
                      </td>
                      <td data-label="Score">{s.score ?? "—"}</td>
                      <td data-label="When">
                        <LocalTimeMs ms={s.finishedAt} />
                      </td>
                      <td data-label="Credential">{s.credential}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>

      <section id="accounts" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Accounts and keys</h2>
        {overview.accounts.length === 0 && <p class="muted">No accounts yet.</p>}
        {overview.accounts.map(({ account, keys }) => (
          <details
            class="account"
            open={keys.some((k) => k.revokedAt === null)}
          >
            <summary>
              <span class="account-email">{account.email}</span>{" "}
              <span class="muted">
                · {keys.filter((k) => k.revokedAt === null).length} active of {keys.length}{" "}
                keys · signed up <LocalTimeMs ms={account.createdAt} /> · last sign-in{" "}
                <LocalTimeMs ms={account.lastLoginAt} />
              </span>
            </summary>
            <KeyTable keys={keys} csrf={csrf} />
          </details>
        ))}
        {overview.otherKeys.length > 0 && (
          <details class="account" open>
            <summary>Keys without an account (made by operators or scripts)</summary>
            <KeyTable keys={overview.otherKeys} csrf={csrf} />
          </details>
        )}
      </section>

      <section id="pressure" aria-labelledby="pressure-heading">
        <h2 id="pressure-heading">Rate limits in use</h2>
        <p class="muted">
          Sliding one-hour windows for scans; sign-up and sign-in attempts: {overview.attemptLimit}
          {" "}
          per IP per 15 minutes.
        </p>
        {overview.pools.length === 0 && overview.attempts.length === 0
          ? <p class="muted">No limit has entries in its current window.</p>
          : (
            <div class="table-wrap">
              <table class="stack-table pressure">
                <thead>
                  <tr>
                    <th scope="col">Limit</th>
                    <th scope="col">Who</th>
                    <th scope="col">Used</th>
                    <th scope="col">Oldest leaves in</th>
                  </tr>
                </thead>
                <tbody>
                  {overview.pools.map((p) => (
                    <PressureRow
                      what={POOL_NAMES[p.pool] ?? p.pool}
                      who={p.label}
                      used={p.used}
                      limit={p.limit}
                      resetMs={p.resetMs}
                    />
                  ))}
                  {overview.attempts.map((a) => (
                    <PressureRow
                      what="sign-in attempts per IP"
                      who={a.ip}
                      used={a.used}
                      limit={overview.attemptLimit}
                      resetMs={a.resetMs}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>
    </div>
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function PressureRow(
  props: { what: string; who: string; used: number; limit: number; resetMs: number },
): VNode {
  const full = props.limit > 0 && props.used >= props.limit;
  return (
    <tr class={full ? "full" : undefined}>
      <td data-label="Limit">{props.what}</td>
      <td data-label="Who">
        <code>{props.who}</code>
      </td>
      <td data-label="Used">
        <span class={`badge ${full ? "status-fail" : "status-info"}`}>
          {props.used} / {props.limit || "?"}
        </span>
      </td>
      <td data-label="Oldest leaves in">
        {describeWait(Math.max(1, Math.ceil(props.resetMs / 1000)))}
      </td>
    </tr>
  );
}

function KeyTable(props: { keys: ApiKeyEntry[]; csrf: string }): VNode {
  if (props.keys.length === 0) return <p class="muted">No keys.</p>;
  return (
    <div class="table-wrap">
      <table class="stack-table keys">
        <KeyTableHead />
        <tbody>
          {props.keys.map((k) => (
            <tr data-key-id={k.id}>
              <KeyCells {...k} />
              <td data-label="Status">
                {k.revokedAt === null
                  ? <span class="badge status-pass">active</span>
                  : (
                    <span class="badge status-fail">
                      revoked <LocalTimeMs ms={k.revokedAt} />
                    </span>
                  )}
              </td>
              <td class="key-actions">
                {k.revokedAt === null && (
                  <form method="post" action={fillPath(PATHS.adminKeyRevoke, { id: k.id })}>
                    <input type="hidden" name="csrf" value={props.csrf} />
                    <button type="submit" class="danger" aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A message an administrator's form post leaves for the overview. */
export interface AdminFlash {
  notice: { kind: "success" | "error"; text: string };
}
