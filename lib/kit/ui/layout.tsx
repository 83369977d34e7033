/**
 * The HTML shell every page shares (server-rendered with Preact): head with metadata and Open
 * Graph tags, the site header and footer, and the helpers that put islands and the challenge
 * widget into a page. Everything interpolated here is escaped by Preact's renderer.
 */
import type { ComponentChildren, ComponentType, VNode } from "preact";
import type { ChallengeWidget } from "../auth/challenge.ts";
import { assetUrl } from "./assets.ts";
import { COMFORT_SCRIPT } from "./comfort_script.ts";
import { ASSETS, PATHS } from "../report_urls.ts";

/** Metadata of one page. */
export interface PageMeta {
  title: string;
  description: string;
  /** Absolute canonical URL, when known. */
  canonical?: string;
  /** Open Graph image (absolute URL). */
  image?: string;
  /** Keep the page out of search indexes (account and admin pages). */
  noindex?: boolean;
  /** Other forms of the page a reader or a feed reader can follow (a report's Atom feed). */
  alternates?: { type: string; href: string; title: string }[];
}

/** What the shell needs to know about the site and the visitor. */
export interface ShellOptions {
  siteName: string;
  /**
   * Which islands bundle the page loads: "public" (scan form, progress, copy buttons; `true`
   * means this one) or "account" (sign-in forms, key manager). Two bundles keep the public pages'
   * JavaScript small.
   */
  islands?: boolean | "public" | "account";
  /** The challenge widget the page shows, if any (adds its script). */
  challenge?: ChallengeWidget | null;
  /**
   * "lazy": the ALTCHA widget's script is not loaded with the page; the scan form island loads it
   * when the visitor first interacts with the form (it solves in about a second, while they type).
   */
  challengeScript?: "eager" | "lazy";
  /** Navigation state. */
  signedIn?: boolean;
  /**
   * The administrator's pages (/admin/*): the header links the overview (and says the
   * administrator is signed in) instead of the client's "Sign in" / "Your keys".
   */
  admin?: "signed-in" | "signed-out";
  /** Path of the current page, to mark the nav link. */
  path?: string;
  /** Extra stylesheets of this page (e.g. ASSETS.reportCss). */
  styles?: string[];
}

/** The full document. */
export function Document(
  props: { meta: PageMeta; shell: ShellOptions; children: ComponentChildren },
): VNode {
  const { meta, shell } = props;
  const title = meta.title === shell.siteName ? meta.title : `${meta.title} | ${shell.siteName}`;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={meta.description} />
        {meta.noindex && <meta name="robots" content="noindex, nofollow" />}
        {meta.canonical && <link rel="canonical" href={meta.canonical} />}
        {(meta.alternates ?? []).map((a) => (
          <link key={a.href} rel="alternate" type={a.type} href={a.href} title={a.title} />
        ))}
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={shell.siteName} />
        <meta property="og:title" content={meta.title} />
        <meta property="og:description" content={meta.description} />
        {meta.canonical && <meta property="og:url" content={meta.canonical} />}
        {meta.image && <meta property="og:image" content={meta.image} />}
        <meta name="twitter:card" content={meta.image ? "summary_large_image" : "summary"} />
        <meta name="theme-color" content="#1d3fbb" />
        {/* Before any stylesheet: the stored theme is set before the first paint. */}
        <script dangerouslySetInnerHTML={{ __html: COMFORT_SCRIPT }} />
        <link rel="icon" href={ASSETS.favicon} type="image/svg+xml" />
        <link rel="stylesheet" href={ASSETS.appCss} />
        {shell.styles?.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {
          /* A lazy widget's stylesheet comes with its script (ChallengeField's data-altcha-css):
            15 KB of CSS that would otherwise block the first paint. */
        }
        {shell.challenge?.kind === "altcha" && shell.challengeScript !== "lazy" && (
          <link rel="stylesheet" id="altcha-css" href={assetUrl("altchaCss")} />
        )}
        {
          /* Each islands bundle includes the theme toggle, local times and print; a page
            without islands loads those alone. */
        }
        <script
          type="module"
          src={assetUrl(
            !shell.islands
              ? "comfort"
              : shell.islands === "account"
              ? "islandsAccount"
              : "islandsPublic",
          )}
        />
        {shell.challenge?.kind === "altcha" && shell.challengeScript !== "lazy" && (
          <script type="module" src={assetUrl("altcha")} />
        )}
        {shell.challenge?.kind === "turnstile" && (
          <script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer />
        )}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
          <div class="container header-row">
            <a class="brand" href={PATHS.home}>{shell.siteName}</a>
            <nav aria-label="Main">
              <ul class="nav">
                <NavLink href={PATHS.docs} path={shell.path}>API &amp; docs</NavLink>
                {shell.admin === "signed-in"
                  ? <NavLink href={PATHS.admin} path={shell.path}>Administration</NavLink>
                  : shell.admin === "signed-out"
                  ? <NavLink href={PATHS.adminLogin} path={shell.path}>Administration</NavLink>
                  : shell.signedIn
                  ? <NavLink href={PATHS.account} path={shell.path}>Your keys</NavLink>
                  : <NavLink href={PATHS.accountLogin} path={shell.path}>Sign in</NavLink>}
                <li class="theme-item">
                  {
                    /* Shown only with JavaScript (the inline script wires it); without, the page
                      follows the system setting. */
                  }
                  <button type="button" class="theme-toggle" aria-pressed="false">
                    <span class="theme-label">Dark mode</span>
                  </button>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" class="container" tabIndex={-1}>{props.children}</main>
        <footer class="site-footer">
          <div class="container">
            <p>
              Open source. No tracking, no e-mail. <a href={PATHS.docs}>API</a> ·{" "}
              <a href={`${PATHS.docs}#mcp`}>MCP for AI agents</a> ·{" "}
              <a href={PATHS.openApi}>OpenAPI</a>
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}

function NavLink(props: { href: string; path?: string; children: ComponentChildren }): VNode {
  const current = props.path === props.href ||
    (props.href !== PATHS.home && props.path?.startsWith(props.href));
  return (
    <li>
      <a href={props.href} aria-current={current ? "page" : undefined}>{props.children}</a>
    </li>
  );
}

/**
 * Server-renders an island and marks it for hydration: islands/hydrate.ts finds `data-island`,
 * reads `data-props` and hydrates the same component over this HTML. Props must be JSON.
 */
export function Island<P extends Record<string, unknown>>(
  props: { name: string; component: ComponentType<P>; props: P },
): VNode {
  const Component = props.component as ComponentType<Record<string, unknown>>;
  return (
    <div data-island={props.name} data-props={JSON.stringify(props.props)}>
      <Component {...props.props} />
    </div>
  );
}

/**
 * The browser challenge inside a form. Its token is submitted in the `turnstileToken` field,
 * whichever provider is configured.
 */
export function ChallengeField(
  props: {
    widget: ChallengeWidget;
    /** When ALTCHA starts solving: on load (default), or when the form gets focus. */
    auto?: "onload" | "onfocus";
    /** ALTCHA without its checkbox (the form says what is happening itself). */
    invisible?: boolean;
    /** Load the ALTCHA script on the form's first interaction (see ShellOptions.challengeScript). */
    lazy?: boolean;
  },
): VNode {
  if (props.widget.kind === "turnstile") {
    return (
      <div
        class="cf-turnstile"
        data-sitekey={props.widget.siteKey}
        data-response-field-name="turnstileToken"
        data-appearance="interaction-only"
      />
    );
  }
  return (
    <div
      class="challenge"
      data-altcha-src={props.lazy ? assetUrl("altcha") : undefined}
      data-altcha-css={props.lazy ? assetUrl("altchaCss") : undefined}
    >
      {/* @ts-ignore: a custom element from npm:altcha */}
      <altcha-widget
        challenge={props.widget.challengeUrl}
        name="turnstileToken"
        auto={props.auto ?? "onload"}
        display={props.invisible ? "invisible" : undefined}
        hidefooter
      />
    </div>
  );
}
