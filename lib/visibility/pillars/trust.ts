/**
 * Pillar "Entity and trust": can an AI system tell who is behind the site and trust it? About and
 * contact pages, authorship and dates, a consistent brand name, and presence in the sources AI
 * systems learn entities from (Wikidata, Wikipedia, Common Crawl).
 */
import {
  allNodes,
  type Check,
  type PillarDef,
  type ScanContext,
  scored,
  unscored,
} from "../check.ts";
import { displayName, escapeHtml, homeUrl } from "../fixes.ts";
import { codeBlock, howText } from "../fix_text.ts";
import {
  type JsonLdNode,
  nodesOfType,
  personNames,
  stringValues,
} from "../../structured/page_graph.ts";
import { brandKey, nameKey, nameSources } from "../../structured/site_name.ts";
import type { OffSiteCheck } from "../record.ts";

export const trustPillar: PillarDef = {
  id: "trust",
  title: "Entity and trust",
  weight: 15,
  checks: (ctx) => [
    aboutContact(ctx),
    authorDates(ctx),
    brand(ctx),
    ...offSiteChecks(ctx),
  ],
};

function aboutContact(ctx: ScanContext): Check {
  const t = ctx.facts.trustLinks;
  const found = [t.about && `about: ${t.about}`, t.contact && `contact: ${t.contact}`].filter(
    (x): x is string => !!x,
  );
  const missing = [!t.about && "an About page", !t.contact && "a Contact page"].filter(Boolean);
  return scored(
    "trust.about_contact",
    "About and contact pages linked",
    3,
    found.length === 2 ? "pass" : found.length ? "warn" : "fail",
    found.length === 2
      ? "The home page links to About and Contact pages."
      : `The home page does not link to ${missing.join(" or ")}.`,
    {
      evidence: found,
      fix: {
        what: `Link ${missing.join(" and ")} from every page`,
        why:
          "AI systems (and Google's quality raters) look for who runs a site and how to reach them before trusting it as a source.",
        how: howText(
          `Create ${
            [!t.about && `${homeUrl(ctx)}about`, !t.contact && `${homeUrl(ctx)}contact`].filter(
              Boolean,
            ).join(" and ")
          }: who you are, since when and where; an address, e-mail and phone. Then link ${
            missing.length > 1 ? "them" : "it"
          } in the header or footer of every page, e.g.:`,
          codeBlock(
            [
              !t.about && '<a href="/about">About us</a>',
              !t.contact && '<a href="/contact">Contact</a>',
            ]
              .filter(Boolean).join("\n"),
            "html",
          ),
        ),
        effort: "M",
      },
    },
  );
}

export function authorDates(ctx: ScanContext): Check {
  const f = ctx.facts;
  const articles = nodesOfType(allNodes(ctx), [
    "Article",
    "BlogPosting",
    "NewsArticle",
    "WebPage",
    "TechArticle",
    "Report",
    "ScholarlyArticle",
    "LiveBlogPosting",
  ]);
  const byId = new Map<string, JsonLdNode>();
  for (const n of allNodes(ctx)) if (n.id && !byId.has(n.id)) byId.set(n.id, n);
  // Authors in every form the page may state them: meta, structured data of any format, and
  // rel="author" links. Each name is one person ("A, B and C" in one meta are three).
  const names = [
    // Dublin Core (RDFa dc:creator, or the DC-HTML name="DC.creator") names authors too.
    ...splitPeople(f.meta["author"] ?? f.meta["dcterms.creator"] ?? f.meta["dc.creator"] ?? ""),
    ...articles.flatMap((a) => personNames(a.data.author ?? a.data.creator, byId)),
    ...f.links.filter((l) => /(^|\s)author(\s|$)/.test(l.rel)).map((l) => l.text),
  ];
  const seen = new Set<string>();
  const authors = names.filter((n) => {
    const k = nameKey(n);
    if (!k || seen.has(k) || n.length > 100) return false;
    seen.add(k);
    return true;
  });
  const author = authors.length ? authors.join("; ") : null;
  const date = f.meta["article:modified_time"] ?? f.meta["article:published_time"] ??
    f.meta["dcterms.modified"] ?? f.meta["dcterms.issued"] ?? f.meta["dcterms.date"] ??
    articles.map((a) => stringValues(a.data.dateModified ?? a.data.datePublished)[0]).find(
      Boolean,
    ) ??
    f.times[0] ?? null;
  const evidence = [
    ...authors.slice(0, 10).map((a) => `author: ${a}`),
    ...(date ? [`date: ${date}`] : []),
  ];
  return scored(
    "trust.author_dates",
    "Authorship and dates stated",
    3,
    author && date ? "pass" : author || date ? "warn" : "fail",
    author && date
      ? `The page names ${
        authors.length > 1 ? `${authors.length} authors` : "an author"
      } and a date.`
      : author
      ? "The page names an author but no publication or update date."
      : date
      ? "The page has a date but names no author."
      : "The page states neither an author nor a date.",
    {
      evidence,
      impact: "low",
      fix: {
        what: "State who wrote the content and when it was updated",
        why:
          "AI answers prefer fresh, attributable sources; a visible date and author make recency and expertise checkable.",
        how: howText(
          "Show a byline and a date in the page, replacing the FILL-INs (the datetime is the ISO date):",
          codeBlock(
            '<p>By <a href="/about#FILL-IN">FILL-IN: author</a>, updated <time datetime="FILL-IN: YYYY-MM-DD">FILL-IN: date</time></p>',
            "html",
          ),
          "and state the same in the page's JSON-LD (Article, BlogPosting or WebPage node):",
          codeBlock(
            '"author": { "@type": "Person", "name": "FILL-IN: author" },\n"datePublished": "FILL-IN: YYYY-MM-DD",\n"dateModified": "FILL-IN: YYYY-MM-DD"',
            "json",
          ),
        ),
        effort: "S",
      },
    },
  );
}

function brand(ctx: ScanContext): Check {
  const s = nameSources(ctx.facts, allNodes(ctx), ctx.snapshot.target.domain);
  const stated = [
    ["JSON-LD Organization", s.jsonLdOrganization],
    ["JSON-LD WebSite", s.jsonLdWebsite],
    ["og:site_name", s.ogSiteName],
    ["application-name", s.applicationName],
  ].filter((x): x is [string, string] => !!x[1]);
  const evidence = [
    ...stated.map(([k, v]) => `${k}: ${v}`),
    ...(s.titleBrand ? [`title: ${s.titleBrand}`] : []),
  ];
  const fix = {
    what: "Use one brand name everywhere",
    why:
      "AI systems merge facts about an entity by its name; different names on title, og:site_name and JSON-LD split you into several weaker entities.",
    how: howText(
      `Pick one name (e.g. "${
        displayName(ctx)
      }") and use it verbatim in the <title>, og:site_name and the JSON-LD Organization and WebSite "name". For example:`,
      codeBlock(
        `<title>FILL-IN: page topic | ${
          escapeHtml(displayName(ctx))
        }</title>\n<meta property="og:site_name" content="${escapeHtml(displayName(ctx))}">`,
        "html",
      ),
    ),
    effort: "S" as const,
  };
  if (!stated.length) {
    return scored(
      "trust.brand",
      "Consistent brand name",
      3,
      "fail",
      "The site states its name nowhere but (maybe) the title: no og:site_name, no Organization or WebSite name.",
      { evidence, fix },
    );
  }
  // "Spiceworks" and "Spiceworks Inc" are one brand: legal forms do not count.
  const keys = new Set(stated.map(([, v]) => brandKey(v)));
  const titleKey = s.titleBrand ? brandKey(s.titleBrand) : null;
  const main = brandKey(stated[0][1]);
  const titleAgrees = !titleKey || titleKey.includes(main) || main.includes(titleKey) ||
    nameKey(ctx.facts.title ?? "").includes(main);
  if (keys.size === 1 && titleAgrees) {
    return scored(
      "trust.brand",
      "Consistent brand name",
      3,
      "pass",
      `The site calls itself "${stated[0][1]}" consistently.`,
      { evidence },
    );
  }
  return scored(
    "trust.brand",
    "Consistent brand name",
    3,
    "warn",
    `The site names itself differently in different places: ${evidence.join("; ")}.`,
    { evidence, fix },
  );
}

function offSiteChecks(ctx: ScanContext): Check[] {
  const o = ctx.offSite;
  const title = {
    wikidata: "Wikidata entity",
    wikipedia: "Wikipedia article",
    commonCrawl: "In Common Crawl",
  };
  if (!o) {
    return (["wikidata", "wikipedia", "commonCrawl"] as const).map((k) =>
      unscored(OFFSITE_IDS[k], title[k], "unknown", "The off-site checks could not run.")
    );
  }
  const name = displayName(ctx);
  return [
    offSite("wikidata", title.wikidata, o.wikidata, 3, {
      what: "Create or complete a Wikidata item for your organisation",
      why:
        "Wikidata is the entity database AI systems and Google's Knowledge Graph draw on; an item with your official website (P856) ties your domain to the entity.",
      how: howText(
        `If you meet Wikidata's notability policy, create an item at https://www.wikidata.org/wiki/Special:NewItem for "${name}" with: instance of (P31), official website (P856) = ${
          homeUrl(ctx)
        }, and your social profile identifiers. Then add the item's URL to the sameAs of your JSON-LD Organization (see the structured-data fixes).`,
      ),
      effort: "M",
    }),
    offSite("wikipedia", title.wikipedia, o.wikipedia, 2, {
      what: "Earn coverage that can support a Wikipedia article",
      why:
        "Wikipedia is among the most heavily weighted sources in AI training and answers; an article about you is strong evidence of notability.",
      how:
        "Do not write your own article (conflict of interest). Earn independent, reliable coverage (press, books, industry reports); once it exists, request an article at https://en.wikipedia.org/wiki/Wikipedia:Requested_articles and link the article from your Wikidata item and sameAs.",
      effort: "L",
    }, "low"),
    offSite("commonCrawl", title.commonCrawl, o.commonCrawl, 2, {
      what: "Make sure Common Crawl can crawl your site",
      why:
        "Common Crawl's open web archive feeds the training data of most language models; sites missing from it are less known to them.",
      how:
        "Whether to let CCBot in is your choice: Common Crawl feeds model training, so if you have opted out of AI training, keep blocking it. If you want to be in it, allow CCBot in robots.txt and at your CDN, link your site from other sites, and list your pages in a sitemap named in robots.txt; captures appear in the next monthly crawl.",
      effort: "M",
    }, "low"),
  ];
}

/** The signal id of each off-site check (literal, so tests/learn_test.ts can find them). */
const OFFSITE_IDS = {
  wikidata: "trust.wikidata",
  wikipedia: "trust.wikipedia",
  commonCrawl: "trust.common_crawl",
} as const;

function offSite(
  key: keyof typeof OFFSITE_IDS,
  title: string,
  check: OffSiteCheck,
  maxPoints: number,
  fix: { what: string; why: string; how: string; effort: "S" | "M" | "L" },
  impact?: "low",
): Check {
  const id = OFFSITE_IDS[key];
  const evidence = check.url ? [check.url] : [];
  if (check.status === "unknown") return unscored(id, title, "unknown", check.detail, evidence);
  return scored(id, title, maxPoints, check.status === "found" ? "pass" : "warn", check.detail, {
    points: check.status === "found" ? maxPoints : 0,
    evidence,
    fix,
    impact,
  });
}

/** Splits a byline such as "Jane Doe, Bob Roe and Ann Poe" into people. */
export function splitPeople(byline: string): string[] {
  return byline.split(/\s*(?:,|;|\||&|\band\b|\bund\b|\bet\b|\by\b)\s*/i)
    .map((s) => s.replace(/^by\s+/i, "").trim())
    .filter((s) => s.length > 1);
}
