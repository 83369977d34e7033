/**
 * GET/POST /validate (schema service only): "validate code" for visitors. The form posts HTML or
 * JSON-LD (whatever starts with "{" or "[" is read as JSON-LD); the answer is the same sections a
 * scan report shows, computed with no fetch, through the same checks, caps and per-IP pool as
 * POST /api/validate.
 */
import type { Context } from "hono";
import type { VNode } from "preact";
import { type AppDeps, type AppEnv, siteOrigin } from "../lib/web/context.ts";
import type { RouteDef, RouteHandlers } from "../lib/web/route.ts";
import { crossSiteGuard } from "../lib/web/csrf.ts";
import { HttpError } from "../lib/errors.ts";
import { field, readFormBody } from "../lib/web/http_form.ts";
import type { Result } from "../lib/structured/record.ts";
import { MAX_CODE_BYTES } from "../lib/schema/validate_code.ts";
import { validateRequest } from "../lib/schema/validate_request.ts";
import { renderPage } from "../lib/web/render.tsx";
import { SchemaResultSections } from "../lib/ui/schema_report.tsx";
import { shellFor } from "../lib/web/shell.ts";
import { ValidateCodeForm } from "../lib/ui/validate_code_form.tsx";

/** Largest form body: the code, URL-encoded (up to three bytes per byte), and the URL. */
const MAX_VALIDATE_FORM = 3 * MAX_CODE_BYTES + 8192;

function ValidatePage(
  props: { code?: string; url?: string; result?: Result; error?: string },
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
        <p class="card status-fail" role="alert">
          {props.error}
        </p>
      )}
      {props.result && <SchemaResultSections result={props.result} />}
    </article>
  );
}

/** GET and POST /validate (mounted by the services that validate code in hand). */
export const validatePageRoute: RouteDef = {
  path: "/validate",
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
        canonical: `${siteOrigin(c, deps.config.trustProxy)}/validate`,
        noindex: status !== 200,
      },
      shellFor(c, deps, { styles: ["/static/report.css"] }),
      body,
      status as 200,
    );
  app.GET = (c) => page(c, <ValidatePage />);
  app.POST = [crossSiteGuard(deps), async (c) => {
    let code = "";
    let url = "";
    try {
      const form = await readFormBody(c.req.raw, MAX_VALIDATE_FORM);
      code = field(form, "code");
      url = field(form, "url").trim();
      const trimmed = code.trim();
      const input = /^[[{]/.test(trimmed)
        ? { jsonld: trimmed, url: url || undefined }
        : { html: code, url: url || undefined };
      const { result } = await validateRequest(deps, c.get("clientIp"), input);
      return page(c, <ValidatePage code={code} url={url} result={result} />);
    } catch (e) {
      if (!(e instanceof HttpError) || e.status >= 500) throw e;
      const shown = code.length > 200_000 ? "" : code;
      return page(c, <ValidatePage code={shown} url={url} error={e.message} />, e.status);
    }
  }];
  return app;
}
