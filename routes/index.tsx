/**
 * GET /: the service's home page (lib/features/<name>/home.tsx): what it does, the scan form with
 * its browser challenge (Turnstile when its keys are set, else the self-hosted ALTCHA proof of
 * work), and what a report holds.
 */
import { type AppDeps, siteOrigin } from "../lib/kit/web/context.ts";
import type { RouteDef, RouteHandlers } from "../lib/kit/web/route.ts";
import type { HomeProps } from "../lib/service.ts";
import { renderPage } from "../lib/kit/web/render.tsx";
import { shellFor } from "../lib/kit/web/shell.ts";
import { ValidateCodeForm } from "../lib/features/validate/views/validate_code_form.tsx";
import { ASSETS, PATHS, staticPath } from "../lib/kit/report_urls.ts";

/** GET /. */
export const indexRoute: RouteDef = {
  path: PATHS.home,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: AppDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = (c) => {
    const origin = siteOrigin(c, deps.config.trustProxy);
    return renderPage(
      c,
      {
        title: deps.service.title,
        description: deps.service.words.homeDescription,
        canonical: `${origin}/`,
        image: `${origin}${staticPath(`og-${deps.service.name}.png`)}`,
      },
      shellFor(c, deps, {
        islands: true,
        challenge: deps.challenge.widget,
        challengeScript: "lazy",
        styles: [ASSETS.reportCss],
      }),
      deps.service.home(homeProps(deps)),
    );
  };
  return app;
}

/** What the home page shows besides the service's own words: the form's challenge, the sister. */
function homeProps(deps: AppDeps): HomeProps {
  const { sisterUrl, sourceUrl } = deps.config;
  const other = deps.services[deps.service.words.sister];
  return {
    widget: deps.challenge.widget,
    sister: sisterUrl && other
      ? { name: other.words.title, what: other.words.sisterPitch, url: sisterUrl }
      : null,
    sourceUrl,
    canRender: deps.config.render.browser.kind !== "off",
    validateForm: deps.service.validatesCode ? <ValidateCodeForm /> : undefined,
  };
}
