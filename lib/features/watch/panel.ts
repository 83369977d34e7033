/**
 * What the dashboard shows of an account's watches (lib/features/watch/views/watch_section.tsx renders it): the
 * watches, the last deliveries and the operator's bounds.
 */
import type { WatchDeps } from "./context.ts";
import {
  allowedSchedules,
  type DeliveryView,
  deliveryView,
  listWatches,
  recentDeliveries,
  type WatchView,
  watchView,
} from "./watches.ts";

/** The dashboard's watch section. */
export interface WatchPanel {
  watches: WatchView[];
  deliveries: DeliveryView[];
  schedules: string[];
  maxWatches: number;
  /** "sites" (AI Visibility Checker) or "pages" (Schema Markup Generator). */
  targetWords: string;
  /** Whether e-mail alerts are set up on this instance (SMTP_URL). */
  email: boolean;
  /** What the visitor typed in a refused form, and why it was refused. */
  form?: WatchForm;
}

/** A refused watch form, shown again with its reason. */
export interface WatchForm {
  url: string;
  webhookUrl: string;
  error: string | null;
}

/** A watch just added: its signing secret, shown once. */
export interface CreatedWatch {
  target: string;
  secret: string | null;
}

/** The panel of an account. */
export async function watchPanel(
  deps: WatchDeps,
  accountId: string,
  form?: WatchForm,
  origin = deps.origin,
): Promise<WatchPanel> {
  const [watches, deliveries] = await Promise.all([
    listWatches(deps, accountId),
    recentDeliveries(deps, accountId, 10),
  ]);
  return {
    watches: watches.map((w) => watchView(w, origin)),
    deliveries: deliveries.map(deliveryView),
    schedules: allowedSchedules(deps),
    maxWatches: deps.config.watch.maxPerAccount,
    targetWords: deps.service.watchTarget === "page" ? "pages" : "sites",
    email: deps.mailer !== null,
    ...(form ? { form } : {}),
  };
}
