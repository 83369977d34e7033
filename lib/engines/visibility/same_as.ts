/**
 * Identity links (`sameAs`) the scan can vouch for: the organisation's own profiles or nothing.
 *
 * Three sources count as evidence: the `sameAs` the site's own Organization (or site-owner
 * Person) markup already states, links marked `rel="me"`, and profile links on a known network
 * whose handle is the site's brand or domain name (an account page, never a post, video, pin,
 * repository, share or intent URL). Anything else on the page (a journalist's account, another
 * project's repository, the Wikidata item of the article's subject) is what the content talks
 * about, not who runs the site, and is left out.
 */
import type { ScanContext } from "./check.ts";
import { nodesOfType, ORGANIZATION_TYPES, stringValues } from "../structured/page_graph.ts";
import { nameKey } from "../structured/site_name.ts";

/** Where an identity link came from. */
export type IdentitySource = "markup" | "rel-me" | "handle";

/** A profile URL the site can be said to own, with the evidence for it. */
export interface IdentityLink {
  url: string;
  source: IdentitySource;
}

/** Suffixes brands add to a handle when the bare name is taken ("acmehq", "acme_official"). */
const HANDLE_SUFFIXES = ["", "hq", "official", "app", "inc", "team", "news", "global", "io", "dev"];

/** URLs that act on a page or person instead of naming a profile. */
const ACTION =
  /(^|\/)(share|sharer|sharing|intent|dialog|login|signup|search|hashtag|explore)(\/|\.php|$)|[?&](u|url|text|shareurl)=/i;

/**
 * The handle a profile URL names, or null when the URL is not an account page (a post, video,
 * pin, repository, list, share dialog, ...). `host` is lowercased without `www.`/`m.`.
 */
export function profileHandle(url: URL): string | null {
  const host = url.hostname.toLowerCase().replace(/^(www|m|mobile)\./, "");
  const seg = url.pathname.split("/").filter(Boolean).map((s) => decodeSafe(s));
  if (ACTION.test(url.pathname + url.search)) return null;
  const one = (prefix?: string) =>
    prefix
      ? (seg.length === 2 && seg[0] === prefix ? seg[1] : null)
      : seg.length === 1
      ? seg[0]
      : null;
  switch (host) {
    case "x.com":
    case "twitter.com":
    case "instagram.com":
    case "threads.net":
    case "tiktok.com":
    case "facebook.com":
    case "pinterest.com":
    case "github.com":
    case "medium.com":
      return one()?.replace(/^@/, "") ?? null;
    case "linkedin.com":
      return seg.length === 2 && ["company", "school", "showcase"].includes(seg[0]) ? seg[1] : null;
    case "youtube.com":
      if (seg.length === 1 && seg[0].startsWith("@")) return seg[0].slice(1);
      return seg.length === 2 && ["c", "user"].includes(seg[0]) ? seg[1] : null;
    case "bsky.app":
      return seg.length === 2 && seg[0] === "profile" ? seg[1].split(".")[0] : null;
    case "crunchbase.com":
      return seg.length === 2 && seg[0] === "organization" ? seg[1] : null;
    default:
      if (host.endsWith("wikipedia.org")) {
        return seg.length === 2 && seg[0] === "wiki" ? withoutDisambiguation(seg[1]) : null;
      }
      if (host === "mastodon.social" && seg.length === 1 && seg[0].startsWith("@")) {
        return seg[0].slice(1);
      }
      return null;
  }
}

/** A Wikipedia title without its disambiguation ("Mercury_(planet)" is "Mercury"). */
function withoutDisambiguation(title: string): string {
  const at = title.indexOf("_(");
  return at >= 0 && title.endsWith(")") ? title.slice(0, at) : title;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The bare host of the scanned site, without `www.`. */
function siteHost(ctx: ScanContext): string {
  return ctx.snapshot.target.domain.toLowerCase().replace(/^www\./, "");
}

/** Whether a URL is on the scanned site (or the site is on a subdomain of it). */
function onSite(ctx: ScanContext, url: string): boolean {
  const site = siteHost(ctx);
  try {
    const h = new URL(url, ctx.pageUrl).hostname.toLowerCase().replace(/^www\./, "");
    return h === site || h.endsWith(`.${site}`) || site.endsWith(`.${h}`);
  } catch {
    return false;
  }
}

/**
 * The names the site states for itself explicitly: its own Organization markup (one whose url is
 * on the site), og:site_name, the WebSite node and application-name. Not an Organization the
 * content is about, nor an author.
 */
export function ownNames(ctx: ScanContext): string[] {
  const names: string[] = [];
  for (const n of nodesOfType(ctx.nodes, [...ORGANIZATION_TYPES])) {
    if (stringValues(n.data.url).some((u) => onSite(ctx, u))) {
      names.push(...stringValues(n.data.name));
    }
  }
  const og = ctx.facts.openGraph["og:site_name"]?.trim();
  if (og) names.push(og);
  for (const n of nodesOfType(ctx.nodes, ["WebSite"])) names.push(...stringValues(n.data.name));
  const app = ctx.facts.meta["application-name"]?.trim();
  if (app) names.push(app);
  return [...new Set(names.filter((x) => x.length <= 100))];
}

/**
 * The name to use for the site in fixes: the scan's one corroborated choice (a section-like
 * og:site_name such as "U.S." does not win it), else its first stated name, else null.
 */
export function ownName(ctx: ScanContext): string | null {
  return ctx.siteName ?? ownNames(ctx)[0] ?? null;
}

/** The names a handle must match to be the site's own: its brand and its domain's name. */
export function identityKeys(ctx: ScanContext): string[] {
  const keys = new Set<string>([nameKey(siteHost(ctx).split(".")[0])]);
  const names = ownNames(ctx);
  for (const name of names.length ? names : ctx.siteName ? [ctx.siteName] : []) {
    keys.add(nameKey(name));
    keys.add(nameKey(name.replace(/^the\s+/i, "")));
  }
  return [...keys].filter((k) => k.length >= 2);
}

/** Whether a handle is one of the keys, bare or with a usual brand suffix. */
export function handleMatches(handle: string, keys: string[]): boolean {
  const h = nameKey(handle);
  return keys.some((k) => HANDLE_SUFFIXES.some((s) => h === k + s));
}

/** The site's own identity links, deduplicated, markup first (at most 10). */
export function identityLinks(ctx: ScanContext): IdentityLink[] {
  const out = new Map<string, IdentityLink>();
  const add = (url: string, source: IdentitySource) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") return;
    if (ACTION.test(u.pathname + u.search)) return;
    const key = u.href.replace(/\/$/, "").toLowerCase();
    if (!out.has(key)) out.set(key, { url: u.href, source });
  };
  for (const n of ownEntityNodes(ctx)) {
    for (const s of stringValues(n.data.sameAs)) add(s, "markup");
  }
  for (const l of ctx.facts.links) {
    if (!l.internal && /(^|\s)me(\s|$)/.test(l.rel)) add(l.href, "rel-me");
  }
  const keys = identityKeys(ctx);
  for (const l of ctx.facts.links) {
    if (l.internal) continue;
    let u: URL;
    try {
      u = new URL(l.href);
    } catch {
      continue;
    }
    const handle = profileHandle(u);
    if (handle && handleMatches(handle, keys)) add(`${u.origin}${u.pathname}`, "handle");
  }
  return [...out.values()].slice(0, 10);
}

/**
 * The Organization (or Person) nodes that stand for the site itself: those whose url is on the
 * site's domain, or organisations with no url that bear one of the site's own names. An
 * article's author or the subject of a page is someone else.
 */
function ownEntityNodes(ctx: ScanContext) {
  const names = new Set(ownNames(ctx).map(nameKey));
  return nodesOfType(ctx.nodes, [...ORGANIZATION_TYPES, "Person"]).filter((n) => {
    const urls = stringValues(n.data.url);
    if (urls.length) return urls.some((u) => onSite(ctx, u));
    return !n.types.includes("Person") &&
      stringValues(n.data.name).some((v) => names.has(nameKey(v)));
  });
}

/** Fill-ins offered when the scan has no evidence of any profile: clearly not claims. */
export const SAME_AS_FILL_IN = [
  "https://www.wikidata.org/wiki/FILL-IN-your-item-id",
  "https://www.linkedin.com/company/FILL-IN-your-company",
];
