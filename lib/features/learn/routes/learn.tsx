/**
 * GET /learn: every check of the AI visibility report explained; GET /learn/:id: one check (what it
 * is, why AI systems care, how we test it, the vendors' documentation). The texts are
 * lib/engines/visibility/learn.ts, which the CLI and MCP serve too. An unknown id is a 404 page.
 */
import type { Context } from "hono";
import { type AppDeps, type AppEnv, siteOrigin } from "../../../kit/web/context.ts";
import { param, type RouteDef } from "../../../kit/web/route.ts";
import { learnEntry } from "../../../engines/visibility/learn.ts";
import { ASSETS, LEARN_INDEX_PATH, learnPath, PATHS } from "../../../kit/report_urls.ts";
import { renderPage } from "../../../kit/web/render.tsx";
import { shellFor } from "../../../kit/web/shell.ts";
import { LearnArticle, LearnIndex } from "../views/learn_page.tsx";

/** GET /learn: every check explained. */
export const learnIndexRoute: RouteDef = {
  path: PATHS.learnIndex,
  handlers: (deps) => ({ GET: (c) => learnIndex(c, deps) }),
};

/** GET /learn/:id: one check explained. */
export const learnRoute: RouteDef = {
  path: PATHS.learn,
  handlers: (deps) => ({ GET: (c) => learnArticle(c, deps) }),
};

function learnIndex(c: Context<AppEnv>, deps: AppDeps): Response {
  const origin = siteOrigin(c, deps.config.trustProxy);
  return renderPage(
    c,
    {
      title: "What each check means",
      description:
        "Every check of the AI visibility report in plain words: what it is, why AI search engines care, how we test it, and the vendors' own documentation.",
      canonical: `${origin}${LEARN_INDEX_PATH}`,
    },
    shellFor(c, deps, { styles: [ASSETS.reportCss] }),
    <LearnIndex />,
  );
}

function learnArticle(c: Context<AppEnv>, deps: AppDeps): Response {
  const origin = siteOrigin(c, deps.config.trustProxy);
  const entry = learnEntry(param(c, "id"));
  if (!entry) {
    return renderPage(
      c,
      { title: "No such check", description: "This check does not exist.", noindex: true },
      shellFor(c, deps, { styles: [ASSETS.reportCss] }),
      <>
        <h1>No such check</h1>
        <p class="lead">
          We do not know that check. See <a href={LEARN_INDEX_PATH}>every check explained</a>.
        </p>
      </>,
      404,
    );
  }
  return renderPage(
    c,
    {
      title: `${entry.title}: what it means`,
      description: `${entry.what} ${entry.why}`.slice(0, 300),
      canonical: `${origin}${learnPath(entry.id)}`,
    },
    shellFor(c, deps, { styles: [ASSETS.reportCss] }),
    <LearnArticle entry={entry} />,
  );
}
