/**
 * The account's server-log pages (signed in; docs/logs.md):
 *   GET  /account/logs                     the upload form and the sites with logs
 *   GET  /account/logs/:domain             the site's logs report and the upload form
 *   POST /account/logs/:domain[?format=ID&upload=ID]
 *                                          the log as the body (the page's X-CSRF-Token), read as
 *                                          the API reads it (POST /api/logs/:domain): streamed into a
 *                                          worker, its stated size checked; JSON {domain, read, report}
 *   GET  /account/log-uploads/:id          how far the page's upload `id` is (bytes, lines)
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../../kit/web/route.ts";
import { renderPage } from "../../../../kit/web/render.tsx";
import { shellFor } from "../../../../kit/web/shell.ts";
import { ACCOUNT_STYLES } from "../../../../kit/ui/error_page.tsx";
import { assertFormToken } from "../../../../kit/web/csrf.ts";
import { BadRequestError, NotFoundError } from "../../../../kit/errors.ts";
import { ASSETS, PATHS } from "../../../../kit/report_urls.ts";
import { logsOf } from "../../site_logs.ts";
import { FORMATS } from "../../formats.ts";
import { formatOf, ingestUpload, siteOf } from "../../upload.ts";
import { LogsPage, SiteLogsPage } from "../../views/logs_page.tsx";
import type { LogUploadProps } from "../../../../../islands/LogUpload.tsx";

const STYLES = [...ACCOUNT_STYLES, ASSETS.reportCss];

function uploadProps(deps: AppDeps, csrf: string, domain: string): LogUploadProps {
  return {
    csrf,
    formats: FORMATS.map((f) => [f.id, f.name]),
    maxBytes: deps.config.logs.maxUploadBytes,
    domain,
  };
}

/** GET /account/logs. */
export const accountLogsRoute: RouteDef = {
  path: PATHS.accountLogs,
  servedBy: (service) => service.readsServerLogs === true,
  signedIn: ["GET"],
  handlers: (deps) => ({
    GET: async (c) => {
      const session = c.get("session")!;
      const sites = await logsOf(deps).store.sites(session.accountId!);
      c.header("Cache-Control", "private, no-store");
      return renderPage(
        c,
        {
          title: "Server logs",
          description: "Which AI crawlers really read your site.",
          noindex: true,
        },
        shellFor(c, deps, { islands: "account", styles: STYLES }),
        <LogsPage
          upload={uploadProps(deps, session.csrf, "")}
          sites={sites.sort((a, b) => b.lastRead - a.lastRead)}
          retentionDays={deps.config.logs.retentionDays}
        />,
      );
    },
  }),
};

/** GET and POST /account/logs/:domain. */
export const accountSiteLogsRoute: RouteDef = {
  path: PATHS.accountSiteLogs,
  servedBy: (service) => service.readsServerLogs === true,
  signedIn: ["GET", "POST"],
  handlers: (deps) => ({
    GET: async (c) => {
      const session = c.get("session")!;
      const domain = siteOf(param(c, "domain"));
      const logs = logsOf(deps);
      const [report, reads] = await Promise.all([
        logs.report(session.accountId!, domain),
        logs.store.reads(session.accountId!, domain),
      ]);
      c.header("Cache-Control", "private, no-store");
      return renderPage(
        c,
        {
          title: `Server logs of ${domain}`,
          description: `Which AI crawlers really read ${domain}.`,
          noindex: true,
        },
        shellFor(c, deps, { islands: "account", styles: STYLES }),
        <SiteLogsPage
          domain={domain}
          report={report}
          reads={reads}
          upload={uploadProps(deps, session.csrf, domain)}
          retentionDays={deps.config.logs.retentionDays}
        />,
      );
    },
    POST: (c) => upload(c, deps),
  }),
};

/** An upload id: what the page made (a UUID), nothing longer. */
function uploadId(raw: string | undefined): string | null {
  if (!raw) return null;
  if (!/^[A-Za-z0-9-]{8,64}$/.test(raw)) throw new BadRequestError("Not an upload id");
  return raw;
}

async function upload(c: Context<AppEnv>, deps: AppDeps): Promise<Response> {
  const session = c.get("session")!;
  // The body is the log: the form's token comes in its header.
  await assertFormToken(session.csrf, c.req.header("x-csrf-token") ?? "");
  const accountId = session.accountId!;
  const domain = siteOf(param(c, "domain"));
  const format = formatOf(c.req.query("format"));
  const id = uploadId(c.req.query("upload"));
  c.header("Cache-Control", "no-store");
  const logs = logsOf(deps);
  const tracked = id
    ? logs.uploads.start(accountId, id, domain, Number(c.req.header("content-length")) || 0)
    : null;
  try {
    const answer = await ingestUpload(deps, c, accountId, domain, format, (p) => {
      if (!tracked) return;
      tracked.received = p.received;
      tracked.bytes = p.bytes;
      tracked.lines = p.lines;
    });
    if (tracked) {
      tracked.state = "done";
      tracked.lines = answer.read.lines;
      tracked.bytes = answer.read.bytes;
    }
    return c.json(answer);
  } catch (error) {
    if (tracked) {
      tracked.state = "failed";
      tracked.message = error instanceof Error ? error.message : String(error);
    }
    throw error;
  }
}

/** GET /account/log-uploads/:id: how far an upload of the page is. */
export const accountLogUploadRoute: RouteDef = {
  path: PATHS.accountLogUpload,
  servedBy: (service) => service.readsServerLogs === true,
  signedIn: ["GET"],
  handlers: (deps) => ({
    GET: (c) => {
      const session = c.get("session")!;
      const id = uploadId(param(c, "id"))!;
      const state = logsOf(deps).uploads.get(session.accountId!, id);
      if (!state) throw new NotFoundError();
      c.header("Cache-Control", "no-store");
      return c.json(state);
    },
  }),
};
