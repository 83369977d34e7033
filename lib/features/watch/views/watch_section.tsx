/**
 * The dashboard's "Watched sites" section (lib/features/accounts/views/account_page.tsx renders it): the account's
 * watches with their schedule, last run and last alert, the public feed of each, a form to add one
 * (the webhook's signing secret is shown once, right after), and the last webhook deliveries with
 * the receiver's answers. Server-rendered forms: it works without JavaScript. Everything a receiver
 * answered is text, escaped by the renderer.
 */
import type { CreatedWatch, WatchPanel } from "../panel.ts";
import { LocalTimeMs } from "../../../kit/ui/local_time.tsx";
import { PostButton } from "../../../kit/ui/post_button.tsx";
import { fillPath, PATHS } from "../../../kit/report_urls.ts";

/**
 * A moment in the reader's own time zone, as every other time of the site (the page's script
 * rewrites the UTC text; without JavaScript, and in the tooltip, UTC stays), or "never".
 */
function When(props: { iso: string | null }) {
  return <LocalTimeMs ms={props.iso ? Date.parse(props.iso) : null} />;
}

/** The section. */
export function WatchSection(
  props: { panel: WatchPanel; csrf: string; created: CreatedWatch | null },
) {
  const { panel, csrf, created } = props;
  const full = panel.watches.length >= panel.maxWatches;
  return (
    <section aria-labelledby="watch-heading" class="watches">
      <h2 id="watch-heading">Watched {panel.targetWords}</h2>
      <p>
        Each watch is rescanned {panel.schedules.join(" or ")}{" "}
        (at a time of its own, counted in your account's scan limit) and compared with the scan it
        saw last. A regression (a lower score or grade, a new score cap or critical issue, a crawler
        newly blocked, a rich result lost) goes to your webhook, signed. Every domain also has a
        public Atom feed of its changes. <a href={PATHS.docs}>API documentation</a>
      </p>
      {created && (
        <div class="notice success" role="status">
          <p>Now watching {created.target}.</p>
          {created.secret && (
            <p>
              The webhook's signing secret, shown only now:{" "}
              <code class="secret">{created.secret}</code>{" "}
              Keep it with the receiver: it verifies the <code>webhook-signature</code> header.
            </p>
          )}
        </div>
      )}
      {panel.watches.length === 0
        ? <p class="muted">Nothing watched yet.</p>
        : (
          <div class="table-wrap">
            <table class="stack-table">
              <thead>
                <tr>
                  <th>Target</th>
                  <th>Schedule</th>
                  <th>Next run</th>
                  <th>Last run</th>
                  <th>Last alert</th>
                  <th>Alerts to</th>
                  <th>Feed</th>
                  <th>
                    <span class="visually-hidden">Run now or remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {panel.watches.map((w) => (
                  <tr key={w.id}>
                    <td data-label="Target" class="domain">{w.target}</td>
                    <td data-label="Schedule">
                      {w.schedule}
                      {w.answers.schedule !== "off" && (
                        <span class="muted">
                          {"; the assistants asked "}
                          {w.answers.schedule}
                          {w.answers.last && (
                            <>
                              {` (last: ${w.answers.last.outcome}, `}
                              <When iso={w.answers.last.at} />)
                            </>
                          )}
                        </span>
                      )}
                    </td>
                    <td data-label="Next run">
                      <When iso={w.nextRunAt} />
                    </td>
                    <td data-label="Last run">
                      {w.lastRun
                        ? (
                          <>
                            <When iso={w.lastRun.at} />: {w.lastRun.detail}
                          </>
                        )
                        : "not yet"}
                    </td>
                    <td data-label="Last alert">
                      {w.lastAlert
                        ? (
                          <>
                            <When iso={w.lastAlert.at} />: {w.lastAlert.texts.join(" ")}
                          </>
                        )
                        : "none"}
                    </td>
                    <td data-label="Alerts to">
                      {[
                        w.email &&
                        `${w.email.display} (${
                          w.email.state === "confirmed" ? "confirmed" : "waiting for confirmation"
                        })`,
                        w.webhook && `${w.webhook.display} (${w.webhook.format})`,
                      ].filter(Boolean).join("; ") || "the feed and this page only"}
                    </td>
                    <td data-label="Feed">
                      <a href={w.feed}>Atom feed</a>
                    </td>
                    <td class="watch-actions">
                      <PostButton
                        action={fillPath(PATHS.accountWatchRun, { id: w.id })}
                        csrf={csrf}
                        label="Run now"
                      />
                      <PostButton
                        action={fillPath(PATHS.accountWatchDelete, { id: w.id })}
                        csrf={csrf}
                        label="Remove"
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      {full
        ? (
          <p class="muted">
            You watch {panel.maxWatches}{" "}
            targets, the most an account may. Remove one to add another.
          </p>
        )
        : (
          <form method="post" action={PATHS.accountWatches} class="watch-form">
            <input type="hidden" name="csrf" value={csrf} />
            <label for="watch-url">Watch</label>
            <input
              id="watch-url"
              name="url"
              type="text"
              required
              maxLength={2048}
              value={panel.form?.url ?? ""}
              placeholder="example.com"
            />
            <label for="watch-schedule">Schedule</label>
            <select id="watch-schedule" name="schedule">
              {panel.schedules.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
            {panel.email && (
              <>
                <label for="watch-email">E-mail for alerts (optional; you confirm it first)</label>
                <input
                  id="watch-email"
                  name="email"
                  type="email"
                  maxLength={254}
                  autocomplete="email"
                  placeholder="you@example.com"
                />
              </>
            )}
            <label for="watch-webhook">Webhook URL (https, optional)</label>
            <input
              id="watch-webhook"
              name="webhookUrl"
              type="url"
              maxLength={2048}
              value={panel.form?.webhookUrl ?? ""}
              placeholder="https://hooks.slack.com/services/..."
            />
            <label for="watch-format">Webhook format</label>
            <select id="watch-format" name="webhookFormat">
              <option value="json">JSON event (signed)</option>
              <option value="slack">Slack incoming webhook</option>
              <option value="discord">Discord webhook</option>
            </select>
            {panel.form?.error && <p class="error-text" role="alert">{panel.form.error}</p>}
            <button type="submit">Add watch</button>
          </form>
        )}
      <h3>Last webhook deliveries</h3>
      {panel.deliveries.length === 0
        ? <p class="muted">No delivery yet.</p>
        : (
          <div class="table-wrap">
            <table class="stack-table deliveries">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Target</th>
                  <th>Event</th>
                  <th>State</th>
                  <th>Attempts and answers</th>
                </tr>
              </thead>
              <tbody>
                {panel.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td data-label="Created">
                      <When iso={d.createdAt} />
                    </td>
                    <td data-label="Target" class="domain">{d.target}</td>
                    <td data-label="Event">{d.event}</td>
                    <td data-label="State">
                      <span class={`badge delivery-${d.state}`}>
                        {d.state === "failed" ? "failing: gave up" : d.state}
                      </span>
                      {d.nextAttemptAt && (
                        <>
                          {" (next attempt "}
                          <When iso={d.nextAttemptAt} />)
                        </>
                      )}
                    </td>
                    <td data-label="Attempts">
                      <ol class="attempts">
                        {d.attempts.map((a, i) => (
                          <li key={i}>
                            <When iso={a.at} />:{" "}
                            {a.status === null ? "no answer" : `HTTP ${a.status}`}
                            {a.answer && (
                              <>
                                {" "}
                                <code>{a.answer.slice(0, 200)}</code>
                              </>
                            )}
                          </li>
                        ))}
                      </ol>
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
