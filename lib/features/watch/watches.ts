/**
 * The watch list of an account: add a watch (a domain on the AI Visibility Checker, a page on the
 * Schema Markup Generator), list them, remove one (it stops at once: its schedule entry goes in
 * the same commit), and read the last deliveries. One set of functions for the API
 * (lib/features/watch/routes/api/watches.ts), the dashboard (lib/features/watch/routes/account/watches.ts) and MCP
 * (lib/features/watch/mcp_tools.ts).
 */
import { z } from "zod";
import { BadRequestError, HttpError, NotFoundError, RateLimitedError } from "../../kit/errors.ts";
import { InvalidTargetError, normaliseTarget } from "../../kit/net/target.ts";
import { findResolveTarget, resolvePublicAddresses } from "../../kit/net/guarded_fetch.ts";
import { FetchError } from "../../kit/net/types.ts";
import { targetOf } from "../../kit/storage/history.ts";
import type { AnswerSchedule, Delivery, Watch } from "./store_types.ts";
import type { WatchDeps } from "./context.ts";
import { isSchedule, nextSlot, type Schedule, SCHEDULES } from "./schedule.ts";
import {
  isWebhookFormat,
  regressionEvent,
  WEBHOOK_FORMATS,
  type WebhookFormat,
} from "./payload.ts";
import { newDelivery } from "./delivery.ts";
import { changesJsonPath, reportPagePath } from "../../kit/report_urls.ts";
import { checkWebhookUrl, webhookDisplay } from "./webhook_url.ts";
import { newSigningSecret } from "./signature.ts";
import { feedPath } from "./feed.ts";
import {
  checkEmail,
  confirmationMail,
  emailDelivery,
  emailDisplay,
  emailLinks,
  emailTokens,
  tokenHash,
} from "./email.ts";
import { CAPS, WINDOW_MS } from "../../kit/limits/limits.ts";
import type { PoolSpec } from "../../kit/limits/limiter.ts";

/**
 * Counts one creation or removal of a watch in the account's pool and the address's (a client
 * that creates and removes watches to land on a near slot is stopped here).
 * @throws RateLimitedError (429, Retry-After) when either is full; nothing is counted then.
 */
export async function admitWatchChange(
  deps: WatchDeps,
  accountId: string,
  ip: string | null,
): Promise<void> {
  const pools: PoolSpec[] = [
    {
      pool: "watch-changes",
      id: accountId,
      limit: CAPS.watchChangesPerAccount,
      windowMs: WINDOW_MS,
    },
    ...(ip
      ? [{
        pool: "watch-changes-ip",
        id: ip,
        limit: CAPS.watchChangesPerAddress,
        windowMs: WINDOW_MS,
      }]
      : []),
  ];
  const member = crypto.randomUUID();
  const decision = await deps.store.limiter.admit(pools, deps.now(), member);
  if (decision.status !== "admitted") {
    const seconds = decision.status === "limited"
      ? Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
      : 60;
    const per = decision.status === "limited" && decision.pool.pool === "watch-changes-ip"
      ? `${CAPS.watchChangesPerAddress} per hour from one address`
      : `${CAPS.watchChangesPerAccount} per hour per account`;
    throw new RateLimitedError(
      `Too many watches created or removed (at most ${per}). Retry in ${seconds} seconds.`,
      seconds,
    );
  }
}

/** 409: the account has as many watches as it may, or already watches the target. */
export class WatchConflictError extends HttpError {
  override name = "WatchConflictError";
  constructor(message: string) {
    super(409, message);
  }
}

/** The body of a new watch (API, MCP and the dashboard's form). */
export const WatchRequestSchema = z.object({
  url: z.string().min(1).max(2048),
  schedule: z.string().optional(),
  webhookUrl: z.string().max(4096).nullable().optional(),
  webhookFormat: z.string().optional(),
  minScoreDrop: z.number().int().min(1).max(50).optional(),
  email: z.string().max(300).nullable().optional()
    .describe("An address that gets the alerts by e-mail, once it confirms (SMTP_URL set)."),
  answers: z.enum(["daily", "weekly", "off"]).optional()
    .describe("How often the assistants are asked about the site (default weekly)."),
}).strict();
export type WatchRequest = z.infer<typeof WatchRequestSchema>;

/** A watch as pages and the API show it (never the webhook's URL or secret). */
export interface WatchView {
  id: string;
  target: string;
  domain: string;
  url: string | null;
  schedule: Schedule;
  createdAt: string;
  nextRunAt: string;
  webhook: { format: WebhookFormat; display: string } | null;
  /** The alert address (masked) and whether it is confirmed. */
  email: { display: string; state: "pending" | "confirmed" } | null;
  minScoreDrop: number;
  /** How often the assistants are asked about the site, the next time and the last outcome. */
  answers: {
    schedule: AnswerSchedule;
    nextAt: string | null;
    last: { at: string; outcome: string; detail: string } | null;
  };
  baseline: { scanId: string; scannedAt: string } | null;
  lastRun: { at: string; outcome: string; detail: string } | null;
  lastAlert: { at: string; scanId: string; texts: string[] } | null;
  /** The public Atom feed of the domain's changes. */
  feed: string;
}

/** The public view of a watch. */
export function watchView(w: Watch, origin: string): WatchView {
  return {
    id: w.id,
    target: w.target,
    domain: w.domain,
    url: w.pageUrl,
    schedule: w.schedule,
    createdAt: new Date(w.createdAt).toISOString(),
    nextRunAt: new Date(w.nextRunAt).toISOString(),
    webhook: w.webhook ? { format: w.webhook.format, display: w.webhook.display } : null,
    email: w.email ? { display: w.email.display, state: w.email.state } : null,
    minScoreDrop: w.minScoreDrop,
    answers: {
      schedule: w.answers ?? "off",
      nextAt: w.answers && w.answers !== "off" && w.nextAnswersAt
        ? new Date(w.nextAnswersAt).toISOString()
        : null,
      last: w.lastAnswers
        ? {
          at: new Date(w.lastAnswers.at).toISOString(),
          outcome: w.lastAnswers.outcome,
          detail: w.lastAnswers.detail,
        }
        : null,
    },
    baseline: w.baseline,
    lastRun: w.lastRun
      ? {
        at: new Date(w.lastRun.at).toISOString(),
        outcome: w.lastRun.outcome,
        detail: w.lastRun.detail,
      }
      : null,
    lastAlert: w.lastAlert
      ? {
        at: new Date(w.lastAlert.at).toISOString(),
        scanId: w.lastAlert.scanId,
        texts: w.lastAlert.texts,
      }
      : null,
    feed: `${origin}${feedPath(w.domain)}`,
  };
}

/** A delivery as pages and the API show it (the body is public facts; no secret is in it). */
export interface DeliveryView {
  id: string;
  watchId: string;
  target: string;
  event: string;
  format: WebhookFormat;
  createdAt: string;
  state: Delivery["state"];
  attempts: { at: string; status: number | null; answer: string; ms: number }[];
  nextAttemptAt: string | null;
}

/** The public view of a delivery. */
export function deliveryView(d: Delivery): DeliveryView {
  return {
    id: d.id,
    watchId: d.watchId,
    target: d.target,
    event: d.event,
    format: d.format,
    createdAt: new Date(d.createdAt).toISOString(),
    state: d.state,
    attempts: d.attempts.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
    nextAttemptAt: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
  };
}

/** The schedules the operator allows (WATCH_SCHEDULES), in order. */
export function allowedSchedules(deps: Pick<WatchDeps, "config">): Schedule[] {
  return SCHEDULES.filter((s) => deps.config.watch.schedules.includes(s));
}

/**
 * Adds a watch to an account. The target is normalised like a scan's and must resolve to public
 * addresses; the webhook URL must be https and public. The signing secret is returned once.
 * @throws BadRequestError (400), WatchConflictError (409).
 */
export async function addWatch(
  deps: WatchDeps,
  accountId: string,
  input: WatchRequest,
  via: Watch["via"],
  ip: string | null = null,
): Promise<{ watch: Watch; webhookSecret: string | null }> {
  const max = deps.config.watch.maxPerAccount;
  if (max === 0) throw new WatchConflictError("Watches are turned off on this instance.");
  const allowed = allowedSchedules(deps);
  const schedule = input.schedule ?? allowed[0];
  if (!isSchedule(schedule) || !allowed.includes(schedule)) {
    throw new BadRequestError(`schedule must be one of ${allowed.join(", ")}`);
  }
  const format = input.webhookFormat ?? "json";
  if (!isWebhookFormat(format)) {
    throw new BadRequestError(`webhookFormat must be one of ${WEBHOOK_FORMATS.join(", ")}`);
  }
  let t;
  try {
    t = normaliseTarget(input.url);
  } catch (e) {
    if (e instanceof InvalidTargetError) throw new BadRequestError(`url: ${e.message}`);
    throw e;
  }
  const page = deps.service.watchTarget === "page";
  const target = page ? t.pageUrl ?? t.url : t.domain;
  await assertPublicTarget(t.host, deps);
  const webhookUrl = input.webhookUrl?.trim()
    ? await checkWebhookUrl(input.webhookUrl, {
      resolve: deps.config.watch.webhookResolve,
      lookup: deps.lookup,
    })
    : null;
  const email = input.email?.trim() ? checkEmail(input.email) : null;
  if (email && !deps.mailer) {
    throw new BadRequestError("E-mail alerts are not set up on this instance (no SMTP server).");
  }
  const now = deps.now();
  const id = crypto.randomUUID();
  const secret = webhookUrl ? newSigningSecret() : null;
  const box = webhookUrl || email ? await deps.box() : null;
  const tokens = email ? emailTokens() : null;
  // The scan the watch starts from: the target's latest kept scan, if there is one; without one
  // it runs at the next tick, so the first comparison has something to start from.
  const latest = await latestScanOf(deps, t.domain, page ? target : null);
  const watch: Watch = {
    id,
    accountId,
    target,
    domain: t.domain,
    pageUrl: page ? target : null,
    url: t.url,
    host: t.host,
    schedule,
    createdAt: now,
    via,
    webhook: webhookUrl && box && secret
      ? {
        url: await box.seal(webhookUrl.href, id),
        secret: await box.seal(secret, id),
        format,
        display: webhookDisplay(webhookUrl.href),
      }
      : null,
    minScoreDrop: input.minScoreDrop ?? 1,
    email: email && box && tokens
      ? {
        address: await box.seal(email, id),
        display: emailDisplay(email),
        state: "pending",
        confirmHash: tokenHash(tokens.confirm),
        unsubscribe: await box.seal(tokens.unsubscribe, id),
        unsubscribeHash: tokenHash(tokens.unsubscribe),
      }
      : null,
    answers: input.answers ?? "weekly",
    // The first answer run waits a slot of its own in the period (as the rescans do).
    nextAnswersAt: (input.answers ?? "weekly") === "off"
      ? null
      : nextSlot(`${id}:answers`, input.answers === "daily" ? "daily" : "weekly", now),
    lastAnswers: null,
    nextRunAt: latest ? nextSlot(id, schedule, now) : now,
    pending: null,
    baseline: latest && latest.status === "ok"
      ? { scanId: latest.id, scannedAt: latest.scannedAt }
      : null,
    lastStatus: latest ? latest.status : null,
    lastSeenScanId: latest?.id ?? null,
    lastRun: null,
    lastAlert: null,
  };
  // What would be refused anyway is not counted as a change (the limiter cannot give one back).
  const mine = await deps.watches.list(accountId);
  if (mine.length < max && !mine.some((x) => x.target === target)) {
    await admitWatchChange(deps, accountId, ip);
  }
  const outcome = await deps.watches.create(watch, max);
  if (outcome === "full") {
    throw new WatchConflictError(
      `This account already has ${max} watches, the most it may have. Remove one first.`,
    );
  }
  if (outcome === "duplicate") throw new WatchConflictError(`You already watch ${target}.`);
  if (tokens) {
    // The confirmation goes out with the next tick's deliveries (within a minute).
    const entry = await deps.watches.get(accountId, id);
    const link = emailLinks(deps.origin, { confirm: tokens.confirm }).confirm!;
    const delivery = emailDelivery(
      watch,
      "watch.email_confirm",
      confirmationMail(watch, link, deps.service.title),
      now,
    );
    if (entry.value) {
      await deps.watches.save(
        entry as Deno.KvEntry<Watch>,
        entry.value,
        (op) => deps.watches.addDelivery(op, delivery),
      );
    }
  }
  deps.log({ event: "watch.created", watchId: id, domain: t.domain, schedule, via });
  return { watch, webhookSecret: secret };
}

/** The newest kept scan of a target (the domain, or one page of it), or null. */
export async function latestScanOf(
  deps: Pick<WatchDeps, "store">,
  domain: string,
  pageUrl: string | null,
): Promise<{ id: string; scannedAt: string; status: "ok" | "failed" } | null> {
  const entries = await deps.store.history.list(domain, pageUrl ? 200 : 1);
  const entry = entries.find((e) => !pageUrl || targetOf(domain, e) === pageUrl);
  return entry ? { id: entry.id, scannedAt: entry.scannedAt, status: entry.status } : null;
}

async function assertPublicTarget(host: string, deps: WatchDeps): Promise<void> {
  if (findResolveTarget(host, deps.config.scanResolve)) return;
  try {
    await resolvePublicAddresses(host, deps.lookup, { timeoutMs: 5000 });
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    throw new BadRequestError(
      error.kind === "blocked"
        ? `${host} resolves to a private or reserved address and cannot be watched`
        : `${host} does not resolve to any address; check the domain name`,
    );
  }
}

/** The watches of an account, oldest first. */
export async function listWatches(deps: WatchDeps, accountId: string): Promise<Watch[]> {
  return await deps.watches.list(accountId);
}

/**
 * Removes a watch of the account (counted like a creation, {@link admitWatchChange}).
 * @throws NotFoundError for an id that is not the account's, RateLimitedError.
 */
export async function removeWatch(
  deps: WatchDeps,
  accountId: string,
  id: string,
  ip: string | null = null,
): Promise<Watch> {
  if (!(await deps.watches.get(accountId, id)).value) throw new NotFoundError("No such watch");
  await admitWatchChange(deps, accountId, ip);
  const removed = await deps.watches.remove(accountId, id);
  if (!removed) throw new NotFoundError("No such watch");
  deps.log({ event: "watch.removed", watchId: id, domain: removed.domain });
  return removed;
}

/** The account's last deliveries, newest first. */
export async function recentDeliveries(
  deps: WatchDeps,
  accountId: string,
  limit = 20,
): Promise<Delivery[]> {
  return await deps.watches.deliveries(accountId, limit);
}

/** At most one test delivery per watch this often. */
export const TEST_INTERVAL_MS = 5 * 60_000;

/**
 * Queues a test delivery ("watch.ping") to the watch's webhook, sent at the next tick, so the
 * receiver's signature check can be tried before a real alert. @throws NotFoundError,
 * BadRequestError (the watch has no webhook).
 */
export async function sendTestDelivery(
  deps: WatchDeps,
  accountId: string,
  id: string,
): Promise<Delivery> {
  const entry = await deps.watches.get(accountId, id);
  const w = entry.value;
  if (!w) throw new NotFoundError("No such watch");
  if (!w.webhook) throw new BadRequestError("This watch has no webhook to test.");
  const now = deps.now();
  // One test per watch per interval: deliveries are kept 30 days, so tests must not pile up.
  const last = (await deps.watches.deliveries(accountId, 50)).find((d) =>
    d.watchId === id && d.event === "watch.ping" && now - d.createdAt < TEST_INTERVAL_MS
  );
  if (last) {
    const seconds = Math.max(1, Math.ceil((last.createdAt + TEST_INTERVAL_MS - now) / 1000));
    throw new RateLimitedError(
      `A test delivery of this watch was queued less than ${
        TEST_INTERVAL_MS / 60_000
      } minutes ago. Retry in ${seconds} seconds.`,
      seconds,
    );
  }
  const deliveryId = crypto.randomUUID();
  const event = regressionEvent({
    type: "watch.ping",
    id: deliveryId,
    now,
    service: deps.service.name,
    watch: w,
    from: null,
    to: null,
    regressions: [],
    diff: null,
    links: {
      report: `${deps.origin}${reportPagePath(w.domain)}`,
      changes: `${deps.origin}${changesJsonPath(w.domain)}`,
      feed: `${deps.origin}${feedPath(w.domain)}`,
    },
  });
  const delivery = newDelivery(w, event, now)!;
  if (
    !(await deps.watches.save(
      entry as Deno.KvEntry<Watch>,
      w,
      (op) => deps.watches.addDelivery(op, delivery),
    ))
  ) {
    throw new NotFoundError("No such watch");
  }
  return delivery;
}
