/**
 * `access.site_pages`: per AI search crawler, the share of the sampled pages it may read (robots.txt
 * rules per path, noindex for all or for that agent). Owns the `pages_blocked_for_ai_search` gate:
 * the pages that matter are closed, not only the home page.
 */
import { crawlersByRole } from "../../crawlers.ts";
import { searchOpenOnHome } from "../../crawlers_matrix.ts";
import { howText } from "../../fix_text.ts";
import {
  aiAccessFix,
  noindexPages,
  noindexSteps,
  openedByAccessFix,
  robotsClosesSearch,
} from "../../robots_fixes.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import type { PageReport } from "../../audit/types.ts";
import {
  examples,
  pagesInWords,
  pointsFor,
  SAMPLE_HOW,
  sampledSite,
  share,
  templateCause,
} from "../../audit/site_view.ts";

/** Most sampled pages beyond the home page are closed to every AI search crawler. */
export const PAGES_BLOCKED_GATE: GateDef = {
  id: "pages_blocked_for_ai_search",
  cap: 35,
  name: "most of the site's pages are closed to AI search crawlers",
  why:
    "The home page may be open, but the sampled articles, products or docs are blocked for AI search crawlers (robots.txt or page directives), so those pages cannot be cited.",
  when:
    "more than half of the sampled pages beyond the home page (at least 2) are closed to every AI search crawler (robots.txt for their paths, or noindex)",
  lift:
    "At least half of the sampled pages beyond the home page are open to an AI search crawler: robots.txt lets it read their paths and they carry no noindex.",
};

/** The crawler that may read fewest pages, and those pages. */
interface Data {
  worst: PageReport[];
  tokens: string[];
}

export const sitePages: SignalDef<Data> = {
  id: "access.site_pages",
  pillar: "access",
  title: "AI search crawlers may read the sampled pages",
  points: 6,
  scope: "site",
  gate: PAGES_BLOCKED_GATE,
  learn: {
    what:
      "robots.txt rules can allow the home page but block whole sections, such as /blog/ or /products/, for some crawlers; pages can also carry their own noindex or per-crawler directives.",
    why:
      "AI search engines cite articles, product pages and documentation far more often than home pages. A section closed to a search crawler cannot appear in that engine's answers.",
    how:
      `${SAMPLE_HOW}, then evaluate robots.txt for each AI search crawler on every sampled path, with the pages' robots meta tags and X-Robots-Tag headers. When most sampled pages are closed to AI search, the score is capped.`,
    sources: [
      SOURCES.openai,
      SOURCES.perplexity,
      SOURCES.anthropic,
      SOURCES.rfc9309,
      SOURCES.robotsMeta,
    ],
  },
  check(ctx) {
    const site = sampledSite(ctx, 0);
    // The crawlers turned away from the home page (by any path: robots.txt, noindex, the edge) are
    // counted once, in the search crawlers' check; this one asks what the others may read beyond
    // it, so a crawler costs the same whichever path turns it away from the whole site. A home
    // page closed to every AI search crawler leaves nothing to ask (the page table still shows
    // what each page allows).
    const open = searchOpenOnHome(ctx);
    const SEARCH = crawlersByRole("search").filter((c) => open.has(c.token));
    if (!site || !SEARCH.length) return null;
    const { pages } = site;
    const total = pages.length;
    const unread = pages.filter((p) => p.state !== "read").length;
    const shares = SEARCH.map((c) => ({
      token: c.token,
      blocked: pages.filter((p) => p.blockedFor.includes(c.token)),
    }));
    // Who "every" is: when the home page turned some away, the report says so in the same
    // breath (its page table lists them as blocked; "every AI search crawler" would deny it).
    const every = SEARCH.length === crawlersByRole("search").length
      ? "every AI search crawler"
      : `each of the ${SEARCH.length} AI search crawlers the home page lets in`;
    // One line per crawler whose share differs from the rest; one line when they all agree.
    const counts = new Set(shares.map((s) => s.blocked.length));
    const evidence = counts.size === 1
      ? [`${every}: may read ${share(total - shares[0].blocked.length, total)}`]
      : shares.map((s) => `${s.token}: may read ${share(total - s.blocked.length, total)}`);
    const worst = shares.reduce((a, b) => (b.blocked.length > a.blocked.length ? b : a));
    const inner = pages.slice(1);
    const judged = new Set(SEARCH.map((c) => c.token));
    const blockedOf = (p: PageReport) => p.blockedFor.filter((t) => judged.has(t));
    const hiddenFromAll = inner.filter((p) => blockedOf(p).length === SEARCH.length);
    const gate = inner.length >= 2 && hiddenFromAll.length * 2 > inner.length;
    const avg = shares.reduce((s, x) => s + (total - x.blocked.length), 0) / shares.length;
    // What the fix leaves closed (robots.txt's deliberate private areas, or pages a noindex keeps
    // out that the robots.txt change does not touch), for its worth.
    const opened = robotsClosesSearch(ctx) ? openedByAccessFix(ctx) : null;
    const noindexed = new Set(noindexPages(ctx).length ? noindexPages(ctx) : worst.blocked);
    const stillBlocked = (p: PageReport) =>
      opened
        ? blockedOf(p).filter((t) => !opened.get(p.path)?.has(t)).length
        : noindexed.has(p)
        ? 0
        : blockedOf(p).length;
    // As `avg`: the pages each crawler may read, averaged over the crawlers.
    const avgAfter = pages.reduce((s, p) => s + SEARCH.length - stillBlocked(p), 0) /
      SEARCH.length;
    const status = worst.blocked.length === 0
      ? "pass"
      : worst.blocked.length * 2 >= total
      ? "fail"
      : "warn";
    return {
      status,
      detail: status === "pass"
        ? `${every[0].toUpperCase()}${
          every.slice(1)
        } may read all ${total} sampled pages (robots.txt rules per path${
          unread
            ? `; robots directives per agent on the ${total - unread} pages fetched`
            : " and robots directives per agent"
        }).`
        : gate
        ? `${
          share(hiddenFromAll.length, inner.length)
        } sampled beyond the home page are closed to every AI search crawler (robots.txt or noindex): ${
          examples(hiddenFromAll)
        }.`
        : `${worst.token} may not read ${share(worst.blocked.length, total)}: ${
          examples(worst.blocked)
        } (robots.txt rules for their paths, or noindex).`,
      points: pointsFor(6, avg, total),
      ...(avgAfter < total ? { fixedPoints: pointsFor(6, avgAfter, total) } : {}),
      evidence,
      gated: gate,
      impact: "high",
      data: {
        worst: worst.blocked,
        tokens: shares.filter((s) => s.blocked.length).map((s) => s.token),
      },
    };
  },
  fix(ctx, found) {
    // Pages robots.txt closes: the one robots.txt change for the AI crawlers' access (one cause
    // with the home page's crawler signals), which also names the noindex pages.
    if (robotsClosesSearch(ctx)) return aiAccessFix(ctx);
    // What robots.txt's User-agent: * group closes to every crawler without a group of its own,
    // among open pages, reads as deliberate (the robots.txt fix leaves it too): no fix asks to
    // open it, and no noindex fix is offered for a page that carries none.
    const closed = noindexPages(ctx);
    if (!closed.length) return null;
    return {
      what: `Remove the noindex from ${pagesInWords(closed)}`,
      why:
        "AI assistants cite articles, products and docs, not home pages: a noindex in a template hides every page made from it.",
      how: howText(
        `The pages carry a robots directive that keeps them out of search and AI answers (${
          examples(closed)
        }), for every crawler and for ${found.data!.tokens.join(", ")}.`,
        ...noindexSteps(ctx, closed),
      ),
      effort: "S",
      cause: templateCause(ctx, closed),
    };
  },
};
