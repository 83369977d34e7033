/**
 * The links of e-mail alerts (lib/features/watch/email.ts), for a person reading a mail, no account
 * needed: the token is the credential.
 *   GET  /watch/email/confirm?token=...       a page whose button confirms the address
 *   POST /watch/email/confirm                 (token) confirms it
 *   GET  /watch/email/unsubscribe?token=...   a page whose button stops the e-mails
 *   POST /watch/email/unsubscribe?token=...   stops them (also RFC 8058's one-click POST a mail
 *                                             program sends, `List-Unsubscribe=One-Click`)
 * A GET changes nothing (mail scanners follow links). A POST from another site's page (a foreign
 * Origin) is refused; a mail program's one-click POST carries no Origin.
 */
import type { Context } from "hono";
import type { VNode } from "preact";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import type { RouteDef } from "../../../../kit/web/route.ts";
import { PATHS } from "../../../../kit/report_urls.ts";
import { HttpError } from "../../../../kit/errors.ts";
import { readFormBody } from "../../../../kit/web/http_form.ts";
import { crossSiteReason } from "../../../../kit/web/csrf.ts";
import { renderPage } from "../../../../kit/web/render.tsx";
import { shellFor } from "../../../../kit/web/shell.ts";
import { type WatchAppDeps, watchOf } from "../../context.ts";
import { useEmailToken } from "../../email.ts";

type Kind = "confirm" | "unsubscribe";

const WORDS: Record<Kind, { title: string; ask: string; button: string }> = {
  confirm: {
    title: "Confirm the e-mail alerts",
    ask: "Press the button to get an e-mail when the watched site gets worse.",
    button: "Confirm",
  },
  unsubscribe: {
    title: "Stop the e-mail alerts",
    ask: "Press the button to stop the e-mails of this watch. The watch itself goes on.",
    button: "Stop the e-mails",
  },
};

function page(
  c: Context<AppEnv>,
  deps: AppDeps,
  title: string,
  body: VNode,
  status: 200 | 400 | 403 | 404 = 200,
) {
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "no-referrer");
  return renderPage(
    c,
    { title, description: title, noindex: true },
    shellFor(c, deps, {}),
    <div class="narrow">
      <h1>{title}</h1>
      {body}
    </div>,
    status,
  );
}

function route(kind: Kind, path: string): RouteDef<WatchAppDeps> {
  return {
    path,
    handlers: (deps) => ({
      GET: (c) => {
        const token = c.req.query("token") ?? "";
        const w = WORDS[kind];
        return page(
          c,
          deps,
          w.title,
          <form method="post" action={`${path}?token=${encodeURIComponent(token)}`}>
            <p>{w.ask}</p>
            <button type="submit">{w.button}</button>
          </form>,
        );
      },
      POST: async (c) => {
        // Another site's page is refused (Sec-Fetch-Site, else Origin); a mail program's
        // one-click POST sends neither.
        if (crossSiteReason(c, deps.config.trustProxy)) {
          throw new HttpError(403, "Cross-site request refused");
        }
        // The token is in the link (one-click POSTs keep it there) or the form.
        const form = await readFormBody(c.req.raw).catch(() => new URLSearchParams());
        const token = c.req.query("token") ?? form.get("token") ?? "";
        try {
          const done = await useEmailToken(watchOf(deps), token, kind);
          return page(
            c,
            deps,
            WORDS[kind].title,
            <p role="status">
              {done.done === "unsubscribed"
                ? `No more e-mails for ${done.target}. The watch goes on; its owner can add an address again.`
                : `Confirmed: this address gets an e-mail when ${done.target} gets worse.`}
            </p>,
          );
        } catch (error) {
          if (!(error instanceof HttpError) || error.status >= 500) throw error;
          return page(
            c,
            deps,
            WORDS[kind].title,
            <p role="alert">{error.message}</p>,
            error.status === 404 ? 404 : 400,
          );
        }
      },
    }),
  };
}

/** /watch/email/confirm. */
export const watchEmailConfirmRoute: RouteDef<WatchAppDeps> = route(
  "confirm",
  PATHS.watchEmailConfirm,
);
/** /watch/email/unsubscribe. */
export const watchEmailUnsubscribeRoute: RouteDef<WatchAppDeps> = route(
  "unsubscribe",
  PATHS.watchEmailUnsubscribe,
);
