/**
 * What the home page says about itself, counting what a rendered scan read in the browser: a fix
 * asks the owner to FILL-IN only what neither the server HTML nor the rendered DOM states (issue
 * 42). A name, title or description scripts put in the page is still the site's own words; the
 * fix then asks to put them in the server HTML, where crawlers that do not run scripts read them.
 */
import type { ScanContext } from "./check.ts";
import { renderedPageFor } from "./client_rendering.ts";
import { chooseSiteName } from "../structured/site_name.ts";

/** The page's own words for its title, description and name, and where each was read. */
export interface PageSays {
  title: string | null;
  description: string | null;
  /** The site's name (the scan's corroborated choice), or null when it states none. */
  name: string | null;
  /** Which of them only the rendered DOM states (the server HTML lacks them). */
  renderedOnly: ("title" | "description" | "name")[];
}

const cache = new WeakMap<ScanContext, PageSays>();

/** What the home page says, server HTML first, then the rendered DOM of a rendered scan. */
export function pageSays(ctx: ScanContext): PageSays {
  const hit = cache.get(ctx);
  if (hit) return hit;
  const rendered = renderedPageFor(ctx.render, ctx.pageUrl);
  const view = rendered?.state === "rendered" ? rendered.rendered : null;
  const serverDescription = ctx.facts.metaDescription ??
    (ctx.facts.openGraph["og:description"]?.trim() || null);
  const title = ctx.facts.title || view?.title || null;
  const description = serverDescription ?? (view?.description?.trim() || null);
  let name = ctx.siteName;
  let renderedName = false;
  if (!name && view?.title) {
    name = chooseSiteName(
      { ...ctx.facts, title: view.title },
      ctx.nodes,
      ctx.snapshot.target.domain,
    );
    renderedName = name !== null;
  }
  const said: PageSays = {
    title,
    description,
    name,
    renderedOnly: [
      ...(!ctx.facts.title && title ? ["title" as const] : []),
      ...(!serverDescription && description ? ["description" as const] : []),
      ...(renderedName ? ["name" as const] : []),
    ],
  };
  cache.set(ctx, said);
  return said;
}
