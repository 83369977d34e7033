/**
 * The page a browser gets for an address that is no page (GET /login, /about, a typo): what
 * happened and the ways on (home, signing in, creating an account, the docs), never a raw JSON
 * error. lib/kit/web/not_found.tsx decides who gets it; the API keeps its JSON 404.
 */
import type { VNode } from "preact";
import { PATHS } from "../report_urls.ts";

/** The body of the 404 page for `path` (shown as text). */
export function NotFoundPage(props: { path: string }): VNode {
  return (
    <div class="narrow not-found">
      <h1>Page not found</h1>
      <p class="lead">
        There is no page at <code>{props.path}</code>. It may have moved, or the address has a typo.
      </p>
      <ul class="way-on">
        <li>
          <a href={PATHS.home}>Go to the home page</a> and scan a site
        </li>
        <li>
          <a href={PATHS.accountLogin}>Sign in</a> or{" "}
          <a href={PATHS.accountSignup}>create a free account</a> for API keys
        </li>
        <li>
          <a href={PATHS.docs}>API &amp; docs</a>
        </li>
      </ul>
    </div>
  );
}
