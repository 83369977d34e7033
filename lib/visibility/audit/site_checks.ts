/**
 * The site-level signals scored from the audit's sample, one list per pillar id. Each names how
 * many sampled pages it touches, with examples ("7 of 10 article pages name no author: /blog/a,
 * ..."), and its fix addresses the template those pages share. With only the home page sampled,
 * only the `discovery.site_sample` note is given (the home page's own signals already cover it).
 */
import { type Check, scored } from "../check.ts";
import { CRAWLERS } from "../crawlers.ts";
import { codeBlock, howText } from "../fix_text.ts";
import { pathShape } from "./sample.ts";
import type { AuditResult, PageReport } from "./types.ts";
import { examples, sampleNote, withDuplicates } from "./site_sample.ts";
import { llmsLinks, sitemapUrls } from "./site_discovery.ts";

export { examples };

/** Gates of the site audit: the pages that matter are blocked or empty, not only the home page. */
export const SITE_GATES = {
  pagesBlocked: { id: "pages_blocked_for_ai_search", cap: 35 },
  jsOnlyPages: { id: "js_only_pages", cap: 40 },
} as const;

const SEARCH = CRAWLERS.filter((c) => c.role === "search");

/** The templates (path shapes) a set of pages share: "/blog/*, /products/*". */
function templates(pages: PageReport[]): string {
  return [...new Set(pages.map((p) => pathShape(p.url)))].join(", ");
}

/** A page that was fetched, answered 2xx with HTML and was analysed. */
const isRead = (p: PageReport) => p.state === "read" && p.structured !== null;

/** "3 of 10 pages". */
function share(n: number, of: number, noun = "pages"): string {
  return `${n} of ${of} ${noun}`;
}

/** Points for the share of pages that pass. */
function pointsFor(max: number, good: number, total: number): number {
  return total ? (max * good) / total : max;
}

/** The site-level checks for each pillar (by pillar id). */
export function siteChecks(audit: AuditResult): Record<string, Check[]> {
  const pages = withDuplicates(audit.pages);
  const out: Record<string, Check[]> = {
    access: [],
    content: [],
    structured: [],
    discovery: [],
    trust: [],
    technical: [],
  };
  // AUDIT_PAGES=1 (or --pages 1): the operator asked for the home page alone; nothing to add.
  if (audit.requested <= 1) return out;
  out.discovery.push(sampleNote(audit, pages));
  if (pages.length < 2) return out;
  // A home page closed to every AI search crawler has its own gates and fixes (access.*), which
  // open the rest of the site too; the page table still shows what each page allows.
  if (pages[0].blockedFor.length < SEARCH.length) out.access.push(crawlerShare(pages));
  const read = pages.filter(isRead);
  if (read.length >= 2) {
    out.content.push(serverRendered(read));
    out.structured.push(structured(read));
    out.technical.push(titles(read), canonicals(read));
    const articles = read.filter((p) => p.type === "article");
    if (articles.length) out.trust.push(bylines(articles));
  }
  const fromSitemap = pages.filter((p) => p.inSitemap && p.state !== "budget");
  const sitemapCheck = fromSitemap.length ? sitemapUrls(fromSitemap) : null;
  if (sitemapCheck) out.discovery.push(sitemapCheck);
  if (audit.llmsLinks && audit.llmsLinks.checked > 0) out.discovery.push(llmsLinks(audit));
  return out;
}

function crawlerShare(pages: PageReport[]): Check {
  const total = pages.length;
  const unread = pages.filter((p) => p.state !== "read").length;
  const shares = SEARCH.map((c) => ({
    token: c.token,
    blocked: pages.filter((p) => p.blockedFor.includes(c.token)),
  }));
  // One line per crawler whose share differs from the rest; one line when they all agree.
  const counts = new Set(shares.map((s) => s.blocked.length));
  const evidence = counts.size === 1
    ? [`every AI search crawler: may read ${share(total - shares[0].blocked.length, total)}`]
    : shares.map((s) => `${s.token}: may read ${share(total - s.blocked.length, total)}`);
  const worst = shares.reduce((a, b) => (b.blocked.length > a.blocked.length ? b : a));
  const inner = pages.slice(1);
  const hiddenFromAll = inner.filter((p) => p.blockedFor.length === SEARCH.length);
  const gate = inner.length >= 2 && hiddenFromAll.length * 2 > inner.length;
  const avg = shares.reduce((s, x) => s + (total - x.blocked.length), 0) / shares.length;
  const status = worst.blocked.length === 0
    ? "pass"
    : worst.blocked.length * 2 >= total
    ? "fail"
    : "warn";
  const tokens = shares.filter((s) => s.blocked.length).map((s) => s.token);
  return scored(
    "access.site_pages",
    "AI search crawlers may read the sampled pages",
    6,
    status,
    status === "pass"
      ? `Every AI search crawler may read all ${total} sampled pages (robots.txt rules per path${
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
    {
      points: pointsFor(6, avg, total),
      evidence,
      gate: gate ? SITE_GATES.pagesBlocked : null,
      impact: "high",
      fix: {
        what: `Let AI search crawlers read your ${templates(worst.blocked)} pages`,
        why:
          "AI assistants cite articles, products and docs, not home pages: a path rule or a noindex in a template hides every page made from it.",
        how: howText(
          `In robots.txt, remove the Disallow rules that match these paths in the groups of ${
            tokens.join(", ")
          } (or add a longer Allow rule for them), and remove noindex from the template of ${
            templates(worst.blocked)
          }. For example:`,
          codeBlock(
            tokens.map((t) => `User-agent: ${t}`).join("\n") + "\nAllow: /",
            "robots",
          ),
        ),
        effort: "S",
      },
    },
  );
}

function serverRendered(read: PageReport[]): Check {
  const shells = read.filter((p) => p.jsShell);
  const status = shells.length === 0 ? "pass" : shells.length * 2 >= read.length ? "fail" : "warn";
  // Say what the verdict rests on: a browser's rendering, or the server HTML's signs alone.
  const rendered = read.filter((p) => p.jsBasis === "rendered").length;
  const basis = rendered === read.length
    ? " (rendered in a browser: the text appears only after scripts run)"
    : rendered
    ? ` (${rendered} of ${read.length} pages rendered in a browser; the others judged from the server HTML's signs)`
    : " (judged from the server HTML's signs: not rendered; a rendered scan confirms it)";
  return scored(
    "content.site_server_text",
    "Sampled pages carry their text in the server HTML",
    4,
    status,
    shells.length
      ? `${
        share(shells.length, read.length)
      } read are JavaScript shells with no server-rendered text: ${
        examples(shells)
      }${basis}. AI crawlers that do not run JavaScript see them empty.`
      : `All ${read.length} pages read carry their text in the server HTML${
        rendered ? " (rendering confirms it)" : ""
      }.`,
    {
      points: pointsFor(4, read.length - shells.length, read.length),
      evidence: shells.map((p) => p.path),
      gate: status === "fail" ? SITE_GATES.jsOnlyPages : null,
      fix: {
        what: `Render the ${templates(shells)} template on the server`,
        why:
          "AI crawlers read the HTML the server sends; a section rendered only in the browser looks empty to them.",
        how: `Serve pre-rendered HTML for ${
          templates(shells)
        } (server-side rendering or static generation in your framework, or a prerender step), then check that \`curl -s <page> | grep -c '<p'\` prints more than 0 for ${
          shells[0]?.path ?? "those pages"
        }.`,
        effort: "L",
      },
    },
  );
}

function structured(read: PageReport[]): Check {
  const none = read.filter((p) => p.structured === "none");
  const invalid = read.filter((p) => p.structured === "invalid");
  const status = !none.length && !invalid.length
    ? "pass"
    : none.length * 2 > read.length
    ? "fail"
    : "warn";
  const parts = [
    ...(none.length
      ? [`${share(none.length, read.length)} read carry no structured data: ${examples(none)}`]
      : []),
    ...(invalid.length
      ? [
        `${share(invalid.length, read.length)} carry structured data with errors: ${
          examples(invalid)
        }`,
      ]
      : []),
  ];
  return scored(
    "structured.site_coverage",
    "Sampled pages carry valid structured data",
    3,
    status,
    parts.length
      ? `${parts.join("; ")}.`
      : `All ${read.length} pages read carry structured data that validates.`,
    {
      points: pointsFor(3, read.length - none.length - invalid.length / 2, read.length),
      evidence: [...none, ...invalid].map((p) => `${p.path}: ${p.structured}`),
      fix: {
        what: `Add valid structured data to the ${templates([...none, ...invalid])} template`,
        why:
          "Structured data tells AI systems what each page is (an article, a product, a FAQ) and who stands behind it.",
        how:
          `Add a JSON-LD block of the page's type (Article, Product, WebPage...) to the template of ${
            templates([...none, ...invalid])
          }, filled from the page's own fields, and check it with the Schema Markup Generator's validator (POST /api/validate) before deploying.`,
        effort: "M",
      },
    },
  );
}

function bylines(articles: PageReport[]): Check {
  const noAuthor = articles.filter((p) => p.author === false);
  const noDate = articles.filter((p) => p.date === false);
  const n = articles.length;
  const bad = articles.filter((p) => p.author === false || p.date === false);
  const parts = [
    ...(noAuthor.length
      ? [`${share(noAuthor.length, n, "article pages")} name no author: ${examples(noAuthor)}`]
      : []),
    ...(noDate.length
      ? [`${share(noDate.length, n, "article pages")} state no date: ${examples(noDate)}`]
      : []),
  ];
  return scored(
    "trust.site_author_dates",
    "Article pages name an author and a date",
    3,
    !bad.length ? "pass" : bad.length * 2 >= n ? "fail" : "warn",
    parts.length ? `${parts.join("; ")}.` : `All ${n} article pages name an author and a date.`,
    {
      points: pointsFor(3, n - noAuthor.length / 2 - noDate.length / 2, n),
      evidence: bad.map((p) => p.path),
      fix: {
        what: `Add a byline and dates to the ${templates(bad)} article template`,
        why:
          "AI answers prefer attributable, fresh sources: an author and a date on every article make expertise and recency checkable.",
        how: howText(
          "In the article template, print the author and the dates from the post's fields, and state them in its JSON-LD:",
          codeBlock(
            '<p>By <a href="/authors/{{ author.slug }}">{{ author.name }}</a>, updated <time datetime="{{ updated | iso }}">{{ updated }}</time></p>',
            "html",
          ),
        ),
        effort: "S",
      },
    },
  );
}

function titles(read: PageReport[]): Check {
  const noTitle = read.filter((p) => !p.title);
  const noDesc = read.filter((p) => !p.description);
  const dupTitle = read.filter((p) => p.fails.includes("duplicate title"));
  const dupDesc = read.filter((p) => p.fails.includes("duplicate description"));
  const n = read.length;
  const parts = [
    noTitle.length && `${share(noTitle.length, n)} have no title: ${examples(noTitle)}`,
    noDesc.length && `${share(noDesc.length, n)} have no meta description: ${examples(noDesc)}`,
    dupTitle.length &&
    `${share(dupTitle.length, n)} share their title with another: ${examples(dupTitle)}`,
    dupDesc.length &&
    `${share(dupDesc.length, n)} share their description with another: ${examples(dupDesc)}`,
  ].filter((x): x is string => !!x);
  const bad = new Set([...noTitle, ...noDesc, ...dupTitle, ...dupDesc]);
  return scored(
    "technical.site_titles",
    "Sampled pages have their own title and description",
    3,
    !bad.size ? "pass" : bad.size * 2 >= n ? "fail" : "warn",
    parts.length
      ? `${parts.join("; ")}.`
      : `All ${n} pages read have their own title and description.`,
    {
      points: pointsFor(3, n - bad.size, n),
      evidence: [...bad].map((p) => p.path),
      fix: {
        what: `Give every ${templates([...bad])} page its own title and description`,
        why:
          "Titles and descriptions are the labels AI answers cite; copies of one label make pages indistinguishable.",
        how:
          "In the template, build the <title> from the page's own heading (then the site name) and the meta description from its summary or first paragraph, instead of a site-wide default.",
        effort: "S",
      },
    },
  );
}

function canonicals(read: PageReport[]): Check {
  const home = read.filter((p) => p.canonical === "home");
  const foreign = read.filter((p) => p.canonical === "foreign");
  const missing = read.filter((p) => p.canonical === "missing");
  const n = read.length;
  const wrong = [...home, ...foreign];
  const parts = [
    home.length &&
    `${share(home.length, n)} point their canonical at the home page: ${examples(home)}`,
    foreign.length && `${share(foreign.length, n)} point it at another site: ${examples(foreign)}`,
    missing.length && `${share(missing.length, n)} have none: ${examples(missing)}`,
  ].filter((x): x is string => !!x);
  return scored(
    "technical.site_canonicals",
    "Canonicals point where they should",
    3,
    // A missing canonical is a minor gap (crawlers pick the URL they fetched, and the home page's
    // own technical.canonical already asks for one); a wrong one hides pages: only that costs here.
    wrong.length ? "fail" : "pass",
    wrong.length
      ? `${parts.join("; ")}.`
      : missing.length
      ? `No canonical points elsewhere; ${
        share(missing.length, n)
      } declare none (crawlers then use the URL they fetched): ${examples(missing)}.`
      : `All ${n} pages read declare a canonical URL that fits.`,
    {
      points: pointsFor(3, n - wrong.length, n),
      evidence: [...wrong, ...missing].map((p) => `${p.path}: ${p.canonical}`),
      impact: home.length ? "high" : undefined,
      fix: {
        what: `Point each ${templates([...wrong, ...missing])} page's canonical at itself`,
        why:
          "A canonical that points at the home page tells crawlers every such page is a copy of it: they drop the pages and cite none of them.",
        how: howText(
          "In the template, print the page's own URL as its canonical (not the site's root):",
          codeBlock('<link rel="canonical" href="{{ page.absolute_url }}">', "html"),
        ),
        effort: "S",
      },
    },
  );
}
