/**
 * The robots.txt fixes of a scan, as `how` texts: computed on the site's real robots.txt and
 * checked with our own matcher (robots_fix.ts edits the file; this module words the change for the
 * signals that need it: the blanket Disallow, the search crawlers, the user fetchers, and the
 * starter file for a site without one).
 */
import type { ScanContext } from "./check.ts";
import type { Fix } from "./record.ts";
import { codeBlock, howText } from "./fix_text.ts";
import { robotsAllowFix, robotsFixHow } from "./robots_fix.ts";

/**
 * The `how` of a robots.txt fix that lets `tokens` read the site, computed on the site's real
 * robots.txt and checked with our matcher (see robots_fix.ts). Null when none of them is blocked
 * by the file's rules (no file, or already allowed).
 */
export function robotsFixFor(ctx: ScanContext, tokens: string[], comment?: string): string | null {
  const r = ctx.robots;
  const out = ctx.snapshot.robots;
  if (r.state !== "ok" || !out.ok) return null;
  const key = `${tokens.join(",")}|${comment ?? ""}`;
  let cache = robotsFixes.get(ctx);
  if (!cache) robotsFixes.set(ctx, cache = new Map());
  if (cache.has(key)) return cache.get(key)!;
  // Checked on the whole file, on its own paths and on the real paths of the sampled pages.
  const sampled = (ctx.audit?.pages ?? []).filter((p) => p.source !== "home").map((p) => p.path);
  const fix = robotsAllowFix(out.result.body, ctx.pageUrl, tokens, comment, sampled);
  const how = fix ? robotsFixHow(fix, r.url) : null;
  cache.set(key, how);
  return how;
}

/** What an allowlist robots.txt is told: keep it, the fix only adds to it. */
const ALLOWLIST_NOTE =
  "Your User-agent: * group closes the site to every crawler without a group of its own, while other groups let named crawlers in: an allowlist. Keep it; the change above only adds the AI search engines and assistants to it.";

/** The `how` of "allow these blocked crawlers" (search crawlers, user fetchers). */
export function crawlerAccessHow(ctx: ScanContext, tokens: string[]): string {
  const r = ctx.robots;
  const underStar = tokens.every((t) =>
    r.crawlers.some((c) => c.token === t && c.group === "wildcard")
  );
  // (Not on an allowlist file, whose blanket Disallow: / may well be judged deliberate.)
  const allowlist = r.crawlers.some((c) => c.group === "specific" && c.allowed);
  if (r.wildcardBlocksHome && !allowlist && underStar && blanketTargets(ctx).length) {
    // The blanket Disallow: / fix adds a group for these crawlers already: one change, not two.
    return `These crawlers fall under the User-agent: * group's Disallow: /. The fix "${
      blanketDisallowFix(ctx).what
    }" adds them (with the other AI search engines and assistants) in one group: apply that one.`;
  }
  const how = robotsFixFor(ctx, tokens, "Let AI search and assistant crawlers read the site");
  return howText(
    how ??
      `robots.txt has no rule that keeps ${
        tokens.join(", ")
      } out of the home page; look for the block elsewhere (a CDN or firewall rule).`,
    ...(how && r.wildcardBlocksHome && allowlist && underStar ? [ALLOWLIST_NOTE] : []),
    "If your CDN or firewall challenges bots, allow these crawlers there too.",
  );
}

/**
 * The fix for a \`User-agent: *\` group that closes the home page: add groups for the AI search
 * engines and assistants (checked as every robots.txt fix is), and explain the choice instead of
 * telling the site to delete a line that also guards it from every unnamed bot.
 */
export function blanketDisallowFix(ctx: ScanContext): Fix {
  const r = ctx.robots;
  const targets = blanketTargets(ctx);
  const allowlist = r.crawlers.some((c) => c.group === "specific" && c.allowed);
  const how = targets.length
    ? robotsFixFor(ctx, targets, "Let AI search engines and assistants read the site")
    : null;
  const choice = allowlist
    ? ALLOWLIST_NOTE
    : "This adds the AI search engines and assistants and leaves everything else as it is. Deleting the Disallow: / of the User-agent: * group instead would open the site to every crawler without a group of its own, model-training crawlers and unknown bots included: do that only if you want the whole site open to all of them.";
  return {
    what: allowlist
      ? "Add AI search engines and assistants to your robots.txt allowlist"
      : "Let AI search engines and assistants past the blanket Disallow: /",
    why:
      "User-agent: * with Disallow: / hides the whole site from every search engine and AI assistant that has no group of its own.",
    how: howText(
      how ??
        "Give each crawler you want in a group of its own with Allow: / (our check could not build one for this file).",
      choice,
    ),
    effort: "S",
  };
}

/** The AI search engines and assistants the `*` group's Disallow: / keeps out. */
function blanketTargets(ctx: ScanContext): string[] {
  return ctx.robots.crawlers.filter((c) =>
    c.role !== "training" && !c.allowed && c.group === "wildcard"
  ).map((c) => c.token);
}

const robotsFixes = new WeakMap<ScanContext, Map<string, string | null>>();

/**
 * A minimal robots.txt to publish when there is none (or it is broken): everything open, and a
 * Sitemap line only when the scan found a sitemap to name.
 */
export function starterRobotsTxt(ctx: ScanContext): string {
  const sm = ctx.snapshot.sitemap;
  const sitemapOk = sm.outcome.ok && sm.outcome.result.status >= 200 &&
    sm.outcome.result.status < 300 && /<(urlset|sitemapindex)[\s>]/i.test(
      sm.outcome.result.body.slice(0, 2000),
    );
  return codeBlock(
    ["User-agent: *", "Allow: /", ...(sitemapOk ? ["", `Sitemap: ${sm.url}`] : [])].join("\n"),
  );
}
