/**
 * The account page's "Watched sites" section (lib/kit/web/account_sections.ts): the account's
 * watches (lib/features/watch/panel.ts) rendered by views/watch_section.tsx, with what the last
 * watch form left: a watch just added (its signing secret, shown once) or a refused form.
 */
import type { AccountSection } from "../../kit/web/account_sections.ts";
import type { WatchDeps } from "./context.ts";
import { type CreatedWatch, type WatchForm, watchPanel } from "./panel.ts";
import { WatchSection } from "./views/watch_section.tsx";

/** The section's id: where the watch forms leave their part of the page. */
export const WATCH_SECTION = "watch";

/** What a watch form leaves for the section. */
export interface WatchSectionLeft {
  /** A watch just added (a form post's flash). */
  created?: CreatedWatch | null;
  /** A refused form, shown again with its reason. */
  form?: WatchForm;
}

/** The watch section of the account page. */
export function watchAccountSection(deps: WatchDeps): AccountSection {
  return {
    id: WATCH_SECTION,
    render: async ({ accountId, csrf, origin }, left) => {
      const { created, form } = (left ?? {}) as WatchSectionLeft;
      const panel = await watchPanel(deps, accountId, form, origin);
      return <WatchSection panel={panel} csrf={csrf} created={created ?? null} />;
    },
  };
}
