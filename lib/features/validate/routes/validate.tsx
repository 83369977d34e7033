/**
 * GET/POST /validate (schema service only): "validate code" for visitors. The form posts HTML or
 * JSON-LD (whatever starts with "{" or "[" is read as JSON-LD); the answer is the same sections a
 * scan report shows, computed with no fetch, through the same checks, caps and per-IP pool as
 * POST /api/validate.
 */
import type { Context } from "hono";
import type { VNode } from "preact";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../../../kit/web/route.ts";
import { crossSiteGuard } from "../../../kit/web/csrf.ts";
import { HttpError } from "../../../kit/errors.ts";
import { readCappedBody } from "../../../kit/web/http_body.ts";
import {
  tooComplex,
  VALIDATE_TIMEOUT_MS,
  ValidateInputError,
  validateRequest,
} from "../validate_request.ts";
import { renderPage } from "../../../kit/web/render.tsx";
import { ScanIsolationError } from "../../../kit/isolate/runner.ts";
import { shellFor } from "../../../kit/web/shell.ts";
import { ValidateCodeForm } from "../views/validate_code_form.tsx";
import { ASSETS, PATHS } from "../../../kit/report_urls.ts";

/** The pasted code shown again in the form, unless it is very long. */
function shown(code: string | undefined): string {
  return code && code.length <= 200_000 ? code : "";
}

function ValidatePage(
  props: { code?: string; url?: string; resultHtml?: string; error?: string },
): VNode {
  return (
    <article class="report">
      <header class="report-head">
        <p class="eyebrow">Validate code</p>
        <h1>Check structured data without publishing it</h1>
        <p class="muted">
          Paste a page's HTML or a JSON-LD block: you get the findings, rich-result eligibility and
          generated markup a scan of a page with that code gives.
        </p>
      </header>
      <ValidateCodeForm code={props.code} url={props.url} />
      {props.error && (
        <p class="card status-fail" role="alert" id="result" tabIndex={-1}>
          {props.error}
        </p>
      )}
      {props.resultHtml && (
        // Rendered (and escaped) by Preact in a worker: the validate-html job (lib/app/server.ts).
        // The form posts to /validate#result: the browser opens the answer here.
        <div
          class="validate-result"
          id="result"
          tabIndex={-1}
          dangerouslySetInnerHTML={{ __html: props.resultHtml }}
        />
      )}
    </article>
  );
}

/**
 * The result sections of a validation's answer as HTML, rendered in a worker (the "validate-html"
 * job; in this isolate only where the server runs without workers: tests, Deno Deploy).
 */
async function resultSections(
  deps: AppDeps,
  { json, code, url }: { json: string; code?: string; url?: string },
): Promise<string> {
  if (!deps.threads) throw new Error("no runner for the /validate result (lib/server.ts sets it)");
  const job = { kind: "validate-html", json };
  try {
    return (await deps.threads.runJob(job, VALIDATE_TIMEOUT_MS) as { html: string }).html;
  } catch (error) {
    if (error instanceof ScanIsolationError) {
      throw new ValidateInputError(
        422,
        tooComplex(error, "The result could not be shown", "show"),
        code,
        url,
      );
    }
    throw error;
  }
}

/** GET and POST /validate (mounted by the services that validate code in hand). */
export const validatePageRoute: RouteDef = {
  path: PATHS.validate,
  servedBy: (service) => service.validatesCode === true,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  const page = (c: Context<AppEnv>, body: VNode, status = 200) =>
    renderPage(
      c,
      {
        title: `Validate code · ${deps.service.title}`,
        description:
          "Check pasted HTML or JSON-LD for schema.org errors and rich-result eligibility.",
        canonical: `${siteOrigin(c, deps.config.trustProxy)}${PATHS.validate}`,
        noindex: status !== 200,
      },
      shellFor(c, deps, { styles: [ASSETS.reportCss] }),
      body,
      status as 200,
    );
  app.GET = (c) => page(c, <ValidatePage />);
  app.POST = [crossSiteGuard(deps), async (c) => {
    const request = c.req.raw;
    try {
      // Read, parsed and analysed in a scan thread (lib/features/validate/validate_request.ts), and its
      // bounded answer rendered as HTML in one too: this thread only places the HTML.
      const answer = await validateRequest(deps, c.get("clientIp"), {
        as: "form",
        headers: request.headers,
        read: (max) => readCappedBody(request, max),
      });
      const resultHtml = await resultSections(deps, answer);
      return page(
        c,
        <ValidatePage code={shown(answer.code)} url={answer.url} resultHtml={resultHtml} />,
      );
    } catch (e) {
      if (!(e instanceof HttpError) || e.status >= 500) throw e;
      const { code, url } = e instanceof ValidateInputError ? e : { code: "", url: "" };
      return page(c, <ValidatePage code={shown(code)} url={url} error={e.message} />, e.status);
    }
  }];
  return app;
}
