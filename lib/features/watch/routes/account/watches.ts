/**
 * The watch forms of the dashboard, for a signed-in client account (lib/features/watch/watches.ts):
 * - POST /account/watches (`url`, `schedule`, `webhookUrl`, `webhookFormat`, `csrf`): adds a watch;
 *   a form post is redirected 303 to /account, where the webhook's signing secret is shown once
 *   (through the session's encrypted one-time flash, never in a URL); a fetch with
 *   `Accept: application/json` gets 201 `{watch, webhookSecret}`.
 * - POST /account/watches/:id/delete (`csrf`): removes one of the account's watches at once.
 * - POST /account/watches/:id/run (`csrf`): starts the watch's scan now; 303 to the report page,
 *   where the scan's progress shows and lands on its result (202 JSON for a fetch).
 * Creating and removing are rate limited per account and address (the group's 429 page).
 */
import type { Context } from "hono";
import type { AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { HttpError } from "../../../../kit/errors.ts";
import { signedInForm } from "../../../../kit/web/csrf.ts";
import { field, wantsJson } from "../../../../kit/web/http_form.ts";
import { putFlash } from "../../../../kit/web/sessions.ts";
import { type AccountFlash, RefusedAccountForm } from "../../../../kit/web/account_sections.ts";
import { WATCH_SECTION, type WatchSectionLeft } from "../../account_section.tsx";
import { linkOrigin, type WatchAppDeps, watchOf } from "../../context.ts";
import { addWatch, removeWatch, watchView } from "../../watches.ts";
import { runWatchNow } from "../../run_now.ts";
import { PATHS, reportPagePath, scanStatusPath } from "../../../../kit/report_urls.ts";

/** POST /account/watches: adds a watch. */
export const accountWatchesRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.accountWatches,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => createWatch(c, deps) }),
};

/** POST /account/watches/:id/delete: removes one of the account's watches. */
export const accountWatchDeleteRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.accountWatchDelete,
  signedIn: ["POST"],
  handlers: (deps) => ({ POST: (c) => deleteWatch(c, deps) }),
};

/** POST /account/watches/:id/run: the watch's scan, now. */
export const accountWatchRunRoute: RouteDef<WatchAppDeps> = {
  path: PATHS.accountWatchRun,
  signedIn: ["POST"],
  handlers: (deps) => ({
    POST: async (c) => {
      const w = watchOf(deps);
      const { session } = await signedInForm(c);
      c.header("Cache-Control", "no-store");
      const started = await runWatchNow(w, param(c, "id"), {
        kind: "owner",
        accountId: session.accountId!,
      });
      if (wantsJson(c)) {
        return c.json({
          watch: watchView(started.watch, linkOrigin(w, c)),
          scanId: started.scanId,
          statusUrl: scanStatusPath(started.scanId),
        }, 202);
      }
      // The report page shows the scan in progress and lands on its result.
      return c.redirect(reportPagePath(started.watch.domain), 303);
    },
  }),
};

async function createWatch(c: Context<AppEnv>, deps: WatchAppDeps): Promise<Response> {
  const w = watchOf(deps);
  const { session, form } = await signedInForm(c);
  c.header("Cache-Control", "no-store");
  const input = {
    url: field(form, "url"),
    schedule: field(form, "schedule") || undefined,
    webhookUrl: field(form, "webhookUrl") || null,
    webhookFormat: field(form, "webhookFormat") || undefined,
    email: field(form, "email") || null,
  };
  try {
    const { watch, webhookSecret } = await addWatch(
      w,
      session.accountId!,
      input,
      "dashboard",
      c.get("clientIp") ?? null,
    );
    if (wantsJson(c)) {
      return c.json({ watch: watchView(watch, linkOrigin(w, c)), webhookSecret }, 201);
    }
    const left: WatchSectionLeft = { created: { target: watch.target, secret: webhookSecret } };
    await putFlash(deps, session, { sections: { [WATCH_SECTION]: left } } satisfies AccountFlash);
    return c.redirect(PATHS.account, 303);
  } catch (error) {
    if (wantsJson(c) || !(error instanceof HttpError) || error.status >= 500) throw error;
    // The account page again, with the form as typed and why it was refused.
    const left: WatchSectionLeft = {
      form: { url: input.url, webhookUrl: input.webhookUrl ?? "", error: error.message },
    };
    throw new RefusedAccountForm(WATCH_SECTION, left, error);
  }
}

async function deleteWatch(c: Context<AppEnv>, deps: WatchAppDeps): Promise<Response> {
  const w = watchOf(deps);
  const { session } = await signedInForm(c);
  c.header("Cache-Control", "no-store");
  const removed = await removeWatch(
    w,
    session.accountId!,
    param(c, "id"),
    c.get("clientIp") ?? null,
  );
  if (wantsJson(c)) return c.json({ deleted: true, watch: watchView(removed, linkOrigin(w, c)) });
  await putFlash(
    deps,
    session,
    {
      notice: { kind: "success", text: `No longer watching ${removed.target}.` },
    } satisfies AccountFlash,
  );
  return c.redirect(PATHS.account, 303);
}
