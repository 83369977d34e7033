/**
 * The robots.txt fixes of a scan: computed on the site's real robots.txt and checked with our own
 * matcher (robots_fix.ts edits the file; this module words the change). The AI search engines'
 * and assistants' access is one fix for one cause (the blanket Disallow, the search crawlers, the
 * user fetchers and the sampled pages closed by path rules all ask the same change of the same
 * groups); a 5xx robots.txt has its status fix; a site without one gets a starter file.
 */
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { byHand, checkAfterwards, createFile } from "./fix_steps.ts";
import { pageEditSteps } from "./page_edits.ts";
import { sitemapUrl } from "./sitemap_fix.ts";
import { robotsAllowFix, robotsFixHow, robotsVerdicts } from "./robots_fix.ts";
import { pagesInWords, siteView } from "./audit/site_view.ts";
import type { PageReport } from "./audit/types.ts";
import { crawlerOf, crawlersByRole } from "./crawlers.ts";
import { joinNames, PRODUCTS } from "./products.ts";

/**
 * The `how` of a robots.txt fix that lets `tokens` read the site (and `paths`, pages of it they are
 * kept from), computed on the site's real robots.txt and checked with our matcher (see
 * robots_fix.ts). Null when none of them is blocked by the file's rules (no file, or already
 * allowed).
 */
export function robotsFixFor(
  ctx: ScanContext,
  tokens: string[],
  comment?: string,
  paths: string[] = [],
): string | null {
  const r = ctx.robots;
  const out = ctx.snapshot.robots;
  if (r.state !== "ok" || !out.ok) return null;
  const key = `${tokens.join(",")}|${comment ?? ""}|${paths.join(" ")}`;
  let cache = robotsFixes.get(ctx);
  if (!cache) robotsFixes.set(ctx, cache = new Map());
  if (cache.has(key)) return cache.get(key)!;
  // Checked on the whole file, on its own paths and on the real paths of the sampled pages.
  const sampled = (ctx.audit?.pages ?? []).filter((p) => p.source !== "home").map((p) => p.path);
  const fix = robotsAllowFix(out.result.body, ctx.pageUrl, tokens, comment, paths, sampled);
  const how = fix ? robotsFixHow(fix, r.url) : null;
  cache.set(key, how);
  return how;
}

/** What an allowlist robots.txt is told: keep it, the fix only adds to it. */
const ALLOWLIST_NOTE =
  "Your User-agent: * group closes the site to every crawler without a group of its own, while other groups let named crawlers in: an allowlist. Keep it; the change above only adds the AI search engines and assistants to it.";

/** What a blanket Disallow: / is told: the fix adds groups, and why not to delete the line. */
const BLANKET_NOTE =
  "This adds the AI search engines and assistants and leaves everything else as it is. Deleting the Disallow: / of the User-agent: * group instead would open the site to every crawler without a group of its own, model-training crawlers and unknown bots included: do that only if you want the whole site open to all of them.";

/**
 * The cause every robots.txt fix for the AI search engines' and assistants' access shares: the
 * groups of robots.txt that decide what they may read. One change to the file serves the search
 * crawlers, the assistants fetching for users, a blanket Disallow: / and the sampled pages closed
 * by path rules, so the report offers it once.
 */
export const AI_ACCESS_CAUSE = {
  key: "robots.txt:ai-access",
  title: "Let AI search engines and assistants read the site in robots.txt",
} as const;

/** The cause of a robots.txt that answers a server error: its status, not its rules. */
export const ROBOTS_STATUS_CAUSE = {
  key: "robots.txt:status",
  title: "Make robots.txt answer 200 (or 404)",
} as const;

/**
 * The one robots.txt fix for the AI search engines and assistants, shared by every signal it
 * resolves (`access.search_crawlers`, `access.user_fetchers`, `access.blanket_disallow`,
 * `access.site_pages`): the crawlers robots.txt keeps from the home page and the sampled pages it
 * keeps search crawlers from, opened in one change computed on the real file and checked with
 * our matcher. A robots.txt answering 5xx gets the status fix instead. Null when robots.txt keeps
 * none of them out.
 */
export function aiAccessFix(ctx: ScanContext): Fix | null {
  const cached = accessFixes.get(ctx);
  if (cached !== undefined) return cached;
  const fix = buildAccessFix(ctx);
  accessFixes.set(ctx, fix);
  return fix;
}

const accessFixes = new WeakMap<ScanContext, Fix | null>();

function buildAccessFix(ctx: ScanContext): Fix | null {
  const r = ctx.robots;
  if (r.state === "server_error") return robotsStatusFix(ctx);
  if (r.state !== "ok") return null;
  // Crawlers the score counts (search and user fetchers): a blocked training or ads crawler is a
  // choice the report shows, never a fix it asks for.
  const home = r.crawlers.filter((c) => (c.role === "search" || c.role === "user") && !c.allowed)
    .map((c) => c.token);
  const closed = pagesClosedByRobots(ctx);
  const tokens = [...new Set([...home, ...closed.flatMap((p) => p.tokens)])];
  if (!tokens.length) return null;
  const paths = closed.map((p) => p.page.path);
  const kept = keptClosed(ctx, closed);
  const beyondHome = closed.filter((c) => c.tokens.some((t) => !home.includes(t)))
    .map((c) => c.page);
  const underStar = tokens.every((t) =>
    r.crawlers.some((c) => c.token === t && c.group === "wildcard")
  );
  const allowlist = r.crawlers.some((c) => c.group === "specific" && c.allowed);
  const blanket = r.wildcardBlocksHome && underStar && home.length > 0;
  const how = robotsFixFor(
    ctx,
    tokens,
    "Let AI search engines and assistants read the site",
    paths,
  );
  const names = crawlerNames(tokens);
  const noindex = noindexPages(ctx);
  return {
    what: blanket
      ? allowlist
        ? "Add AI search engines and assistants to your robots.txt allowlist"
        : "Let AI search engines and assistants past the blanket Disallow: /"
      // The pages are named when robots.txt closes them to crawlers that may read the home page
      // (a crawler kept from the home page is kept from the rest by the same rule).
      : beyondHome.length
      ? `Allow ${siteAndPages(home, tokens, pagesInWords(beyondHome))} in robots.txt`
      : `Allow ${names} in robots.txt`,
    why: blanket
      ? "User-agent: * with Disallow: / hides the whole site from every search engine and AI assistant that has no group of its own."
      : affectedWhy(tokens),
    how: howText(
      paths.length > 0 &&
        `robots.txt keeps ${
          [...new Set(closed.flatMap((p) => p.tokens))].join(", ")
        } from these sampled pages: ${paths.slice(0, 5).join(", ")}${
          paths.length > 5 ? ` and ${paths.length - 5} more` : ""
        }.`,
      how ??
        (blanket
          ? "Give each crawler you want in a group of its own with Allow: / (our check could not build one for this file)."
          : `robots.txt has no rule that keeps ${names} out; look for the block elsewhere (a CDN or firewall rule).`),
      how && blanket && !allowlist && BLANKET_NOTE,
      how && r.wildcardBlocksHome && allowlist && underStar && ALLOWLIST_NOTE,
      kept.length > 0 &&
        `robots.txt's User-agent: * group also closes ${
          pagesInWords(kept)
        } to every crawler without a group of its own: that reads as deliberate, so the change leaves it as it is.`,
      noindex.length > 0 &&
        `Also remove the noindex from ${
          pagesInWords(noindex)
        }: robots.txt is not all that keeps AI search crawlers from them.`,
      ...(noindex.length ? noindexSteps(ctx, noindex) : []),
      "If your CDN or firewall challenges bots, allow these crawlers there too.",
    ),
    effort: "S",
    cause: AI_ACCESS_CAUSE,
  };
}

/**
 * Why a robots.txt change matters, naming only the products whose crawlers it keeps out (from the
 * registry: a blocked OAI-SearchBot names ChatGPT, never Google or Copilot) and what they lose.
 */
function affectedWhy(tokens: string[]): string {
  const crawlers = tokens.map((t) => crawlerOf(t)).filter((c) => c !== null);
  const names = (role: "search" | "user") =>
    PRODUCTS.filter((p) => crawlers.some((c) => c.product === p.id && c.role === role))
      .map((p) => p.short);
  const search = names("search");
  const user = names("user");
  const parts = [
    search.length &&
    `${joinNames(search)} cannot cite the site in ${
      search.length > 1 ? "their" : "its"
    } search answers`,
    user.length && `${joinNames(user)} cannot fetch a page a person asks about`,
  ].filter(Boolean);
  const many = new Set(crawlers.map((c) => c.product)).size > 1;
  return `${
    parts.length ? parts.join("; ") : "These AI crawlers cannot read the site"
  }: robots.txt tells ${
    many ? "their crawlers" : "its crawler"
  } to stay out. Blocked, your pages cannot be quoted or linked in ${
    many ? "their" : "its"
  } answers.`;
}

/** "OAI-SearchBot, ChatGPT-User", or "12 AI crawlers" past three. */
function crawlerNames(tokens: string[], more = ""): string {
  return tokens.length > 3 ? `${tokens.length} ${more}AI crawlers` : tokens.join(", ");
}

/**
 * Who the fix lets in, and where: the crawlers kept from the whole site (the home page) on the
 * site, the others on the pages named ("OAI-SearchBot on the site and PerplexityBot on your
 * article pages"), so no crawler reads as kept from a few pages when it is kept from all.
 */
function siteAndPages(home: string[], tokens: string[], pages: string): string {
  const pagesOnly = tokens.filter((t) => !home.includes(t));
  if (!home.length) return `${crawlerNames(pagesOnly)} on ${pages}`;
  return `${crawlerNames(home)} on the site and ${crawlerNames(pagesOnly, "more ")} on ${pages}`;
}

/** A sampled page robots.txt closes, and the AI search crawlers it keeps out. */
interface Closed {
  page: PageReport;
  tokens: string[];
}

/**
 * The sampled pages beyond the home page that robots.txt (not a noindex) keeps AI search crawlers
 * from, with the crawlers it keeps out, that the fix opens: for the crawlers a group names (the
 * site chose against them), or, when most pages beyond the home page are closed to every search
 * crawler (the `pages_blocked_for_ai_search` gate), for all of them. A path the `User-agent: *`
 * group closes to every crawler without a group of its own, among pages that are open, reads as a
 * deliberate private area: it stays closed ({@link keptClosed}).
 */
function pagesClosedByRobots(ctx: ScanContext): Closed[] {
  const all = closedByRobots(ctx);
  const inner = (siteView(ctx)?.pages.length ?? 1) - 1;
  const toAll = all.filter((c) => c.tokens.length === SEARCH_TOKENS.length);
  if (inner >= 2 && toAll.length * 2 > inner) return all;
  const named = new Set(
    ctx.robots.crawlers.filter((c) => c.group === "specific").map((c) => c.token),
  );
  return all.map((c) => ({ ...c, tokens: c.tokens.filter((t) => named.has(t)) }))
    .filter((c) => c.tokens.length > 0);
}

/**
 * What {@link aiAccessFix} opens: per path (the home page `/` and sampled pages), the AI search
 * crawlers it lets in. The sampled pages' signal counts what stays closed in the fix's worth.
 */
export function openedByAccessFix(ctx: ScanContext): Map<string, Set<string>> {
  const opened = new Map<string, Set<string>>();
  if (ctx.robots.state !== "ok") return opened;
  opened.set("/", new Set(ctx.robots.crawlers.filter((c) => !c.allowed).map((c) => c.token)));
  for (const c of pagesClosedByRobots(ctx)) opened.set(c.page.path, new Set(c.tokens));
  return opened;
}

/** The closed pages the fix leaves closed (see {@link pagesClosedByRobots}). */
function keptClosed(ctx: ScanContext, opened: Closed[]): PageReport[] {
  return closedByRobots(ctx).filter((c) =>
    !opened.some((o) => o.page === c.page && o.tokens.length === c.tokens.length)
  ).map((c) => c.page);
}

function closedByRobots(ctx: ScanContext): Closed[] {
  const cached = closedCache.get(ctx);
  if (cached) return cached;
  const view = siteView(ctx);
  const out = ctx.snapshot.robots;
  let closed: Closed[] = [];
  const pages = view && out.ok ? view.pages.slice(1).filter((p) => p.blockedFor.length > 0) : [];
  if (pages.length && out.ok) {
    const verdicts = robotsVerdicts(out.result.body, ctx.pageUrl, pages.map((p) => p.path));
    closed = pages.map((page) => ({
      page,
      tokens: page.blockedFor.filter((t) => verdicts.get(`${t} ${page.path}`) === false),
    })).filter((p) => p.tokens.length > 0);
  }
  closedCache.set(ctx, closed);
  return closed;
}

const closedCache = new WeakMap<ScanContext, Closed[]>();
const SEARCH_TOKENS = crawlersByRole("search").map((c) => c.token);

/**
 * Whether robots.txt keeps an AI search crawler from the home page or a sampled page (then the
 * sampled pages' fix is the robots.txt one).
 */
export function robotsClosesSearch(ctx: ScanContext): boolean {
  return ctx.robots.state === "server_error" ||
    ctx.robots.crawlers.some((c) => c.role === "search" && !c.allowed) ||
    pagesClosedByRobots(ctx).length > 0;
}

/**
 * The steps that take a noindex off pages: their robots meta tag replaced, and the X-Robots-Tag
 * header (which only the server's configuration sends) stopped by hand, checked afterwards.
 */
export function noindexSteps(ctx: ScanContext, pages: PageReport[]): string[] {
  return [
    ...pageEditSteps(ctx, {
      urls: pages.map((p) => p.url),
      where: "head",
      code: () => '<meta name="robots" content="index, follow">',
      note: "it replaces the robots meta tag that says noindex",
      template: 'print <meta name="robots" content="index, follow"> instead of noindex',
      check: "that these pages' HTML and headers no longer say noindex.",
    }),
    byHand(
      "if your server or CDN also sends an X-Robots-Tag: noindex header for these pages, stop sending it.",
    ),
    checkAfterwards("that this command prints no noindex:"),
    codeBlock(`curl -sI '${pages[0].url.replace(/'/g, "%27")}' | grep -i x-robots-tag`, "sh"),
  ];
}

/** The sampled pages a noindex (for every robot) keeps out of AI search. */
export function noindexPages(ctx: ScanContext): PageReport[] {
  return siteView(ctx)?.pages.filter((p) => p.noindex) ?? [];
}

/** The fix of a robots.txt that answers 5xx: every crawler that follows RFC 9309 stays out. */
export function robotsStatusFix(ctx: ScanContext): Fix {
  const r = ctx.robots;
  return {
    what: "Make robots.txt answer 200 (or 404)",
    why: "A 5xx on robots.txt tells every compliant crawler to stay away from the whole site.",
    how: howText(
      `Serve ${r.url} as a static text file (text/plain) with status 200, with these lines:`,
      starterRobotsTxt(ctx),
      "If you have no rules, a plain 404 is also safe; a 5xx never is.",
    ),
    effort: "S",
    cause: ROBOTS_STATUS_CAUSE,
  };
}

/** The cause of a robots.txt that is missing or not a robots.txt: the file itself. */
export const ROBOTS_FILE_CAUSE = {
  key: "robots.txt:file",
  title: "Publish a robots.txt",
} as const;

/**
 * The fix that replaces robots.txt whole, for a file that answers 5xx, 404 or an HTML page: a
 * starter that names the sitemap, shared by every check it serves (the file's own, the sitemap
 * line's). Null when robots.txt is readable or could not be fetched.
 */
export function robotsFileFix(ctx: ScanContext): Fix | null {
  const r = ctx.robots;
  if (r.state === "server_error") return robotsStatusFix(ctx);
  if (r.state !== "missing" && r.state !== "invalid") return null;
  return {
    what: r.state === "missing" ? "Publish a robots.txt" : "Serve a real robots.txt",
    why: r.state === "missing"
      ? "Without one, crawlers get no sitemap pointer and you cannot express any preference."
      : "An HTML page at /robots.txt holds no rules and no Sitemap line; some crawlers treat it as an error.",
    how: howText(
      createFile(r.url, ", served as text/plain with status 200, with these lines:"),
      starterRobotsTxt(ctx),
    ),
    effort: "S",
    cause: ROBOTS_FILE_CAUSE,
  };
}

const robotsFixes = new WeakMap<ScanContext, Map<string, string | null>>();

/**
 * A minimal robots.txt to publish when there is none (or it is broken): everything open, and the
 * Sitemap line: the sitemap the scan found, or the one the sitemap fix publishes.
 */
export function starterRobotsTxt(ctx: ScanContext): string {
  return codeBlock(["User-agent: *", "Allow: /", "", `Sitemap: ${sitemapUrl(ctx)}`].join("\n"));
}
