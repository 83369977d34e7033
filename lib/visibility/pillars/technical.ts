/**
 * Pillar "Technical basics": the page answers quickly over HTTPS with a clean redirect chain, and
 * carries the title, description, canonical and Open Graph metadata every consumer reads.
 */
import { type Check, clip, type PillarDef, type ScanContext, scored } from "../check.ts";
import { canonicalHow, descriptionHow, openGraphHow, titleHow } from "../fixes.ts";
import { codeBlock, howText } from "../fix_text.ts";

export const technicalPillar: PillarDef = {
  id: "technical",
  title: "Technical basics",
  weight: 15,
  checks: (ctx) => [
    status(ctx),
    https(ctx),
    title(ctx),
    description(ctx),
    canonical(ctx),
    openGraph(ctx),
    responseTime(ctx),
    pageSize(ctx),
    viewport(ctx),
  ],
};

function home(ctx: ScanContext) {
  if (!ctx.snapshot.home.ok) throw new Error("technical pillar needs a fetched home page");
  return ctx.snapshot.home.result;
}

function status(ctx: ScanContext): Check {
  const r = home(ctx);
  const hops = r.redirects.length;
  const chain = [
    ...r.redirects.map((h) => `${h.status} ${h.url} -> ${h.location}`),
    `${r.status} ${r.finalUrl}`,
  ];
  return scored(
    "technical.status",
    "Home page answers 200 with a short redirect chain",
    3,
    hops <= 1 ? "pass" : "warn",
    hops === 0
      ? `The home page answered ${r.status} directly.`
      : `The home page answered ${r.status} after ${hops} redirect${hops > 1 ? "s" : ""}.`,
    {
      evidence: chain,
      fix: {
        what: "Redirect in one hop",
        why: "Each redirect costs crawl time and some crawlers give up after a few hops.",
        how: `Redirect ${r.url} straight to ${r.finalUrl} with a single 301.`,
        effort: "S",
      },
    },
  );
}

function https(ctx: ScanContext): Check {
  const r = home(ctx);
  const secure = new URL(r.finalUrl).protocol === "https:";
  return scored(
    "technical.https",
    "Served over HTTPS",
    3,
    secure ? "pass" : "fail",
    secure ? "The page is served over HTTPS." : `The page ends up on ${r.finalUrl}, plain HTTP.`,
    {
      fix: {
        what: "Serve the site over HTTPS",
        why:
          "Search engines and AI systems prefer secure sources, and browsers mark HTTP pages as not secure.",
        how:
          "Get a free certificate (Let's Encrypt, or your host's or CDN's automatic TLS) and 301-redirect every http:// URL to https://.",
        effort: "M",
      },
    },
  );
}

export function title(ctx: ScanContext): Check {
  const t = ctx.facts.title;
  const len = t?.length ?? 0;
  const good = len >= 10 && len <= 70;
  return scored(
    "technical.title",
    "Descriptive title",
    2,
    !t ? "fail" : good ? "pass" : "warn",
    !t
      ? "The page has no <title>."
      : good
      ? `"${clip(t, 80)}" (${len} characters).`
      : `The title is ${len} characters long ("${clip(t, 80)}"); aim for 10-70.`,
    {
      fix: {
        what: "Write a descriptive title",
        why: "The title is the label AI answers and search results use when they cite the page.",
        how: titleHow(ctx),
        effort: "S",
      },
    },
  );
}

export function description(ctx: ScanContext): Check {
  const d = ctx.facts.metaDescription;
  const len = d?.length ?? 0;
  const good = len >= 50 && len <= 170;
  return scored(
    "technical.description",
    "Meta description",
    2,
    !d ? "fail" : good ? "pass" : "warn",
    !d
      ? "The page has no meta description."
      : good
      ? `${len} characters.`
      : `The description is ${len} characters; aim for 50-170.`,
    {
      evidence: d ? [clip(d, 170)] : [],
      fix: {
        what: "Write a meta description",
        why: "Many AI systems and search engines use it as the page's summary when they cite it.",
        how: descriptionHow(),
        effort: "S",
      },
    },
  );
}

export function canonical(ctx: ScanContext): Check {
  const c = ctx.facts.canonical;
  const page = new URL(ctx.pageUrl);
  let status: "pass" | "warn" = "warn";
  let detail = "The page has no canonical link.";
  if (c) {
    const cu = new URL(c);
    const bare = (h: string) => h.replace(/^www\./, "");
    if (bare(cu.hostname) !== bare(page.hostname)) {
      detail =
        `The canonical link points to another site (${c}): crawlers may credit that site instead.`;
    } else if (ctx.facts.canonicalCount > 1) {
      detail =
        `The page has ${ctx.facts.canonicalCount} canonical links; crawlers may ignore them all.`;
    } else {
      status = "pass";
      detail = `Canonical: ${c}.`;
    }
  }
  return scored("technical.canonical", "Canonical URL", 2, status, detail, {
    fix: {
      what: "Declare one canonical URL",
      why:
        "The canonical tells crawlers which URL to index and cite when the same page is reachable several ways.",
      how: canonicalHow(ctx),
      effort: "S",
    },
  });
}

function openGraph(ctx: ScanContext): Check {
  const og = ctx.facts.openGraph;
  const wanted = ["og:title", "og:description", "og:image"];
  const have = wanted.filter((k) => og[k]);
  return scored(
    "technical.open_graph",
    "Open Graph metadata",
    2,
    have.length === 3 ? "pass" : have.length ? "warn" : "fail",
    have.length === 3
      ? "og:title, og:description and og:image are set."
      : have.length
      ? `Missing ${wanted.filter((k) => !og[k]).join(", ")}.`
      : "No Open Graph tags.",
    {
      points: (2 * have.length) / 3,
      fix: {
        what: "Add Open Graph tags",
        why:
          "Chat apps, AI assistants and social networks use them to preview and label links to you.",
        how: openGraphHow(ctx),
        effort: "S",
      },
    },
  );
}

function responseTime(ctx: ScanContext): Check {
  const ms = Math.round(home(ctx).ttfbMs);
  return scored(
    "technical.response_time",
    "Fast first byte",
    2,
    ms < 800 ? "pass" : ms < 2000 ? "warn" : "fail",
    `The home page's first byte arrived after ${ms} ms${
      home(ctx).redirects.length ? " (redirects included)" : ""
    }.`,
    {
      fix: {
        what: "Answer faster",
        why:
          "AI crawlers and user-fetch agents work on tight time budgets; slow pages are skipped or cut.",
        how:
          "Cache the HTML at a CDN or in the application, and aim for a time to first byte under 800 ms.",
        effort: "M",
      },
    },
  );
}

function pageSize(ctx: ScanContext): Check {
  const r = home(ctx);
  const mb = (r.bytes / 1024 / 1024).toFixed(1);
  return scored(
    "technical.page_size",
    "Page size crawlers read in full",
    1,
    r.truncated ? "fail" : r.bytes > 2 * 1024 * 1024 ? "warn" : "pass",
    r.truncated
      ? `The home page is larger than ${mb} MB and was cut; crawlers also stop reading large pages.`
      : `The home page HTML is ${(r.bytes / 1024).toFixed(0)} KB.`,
    {
      fix: {
        what: "Slim the HTML down",
        why:
          "Crawlers stop reading after a few MB (Googlebot at 2 MB of HTML); content past that point is invisible.",
        how:
          "Move inline scripts, styles and data blobs to external files, paginate long lists, and keep the HTML under 2 MB.",
        effort: "M",
      },
    },
  );
}

function viewport(ctx: ScanContext): Check {
  return scored(
    "technical.viewport",
    "Mobile viewport",
    1,
    ctx.facts.hasViewport ? "pass" : "warn",
    ctx.facts.hasViewport ? "A viewport meta tag is set." : "No viewport meta tag.",
    {
      impact: "low",
      fix: {
        what: "Declare a mobile viewport",
        why: "Search engines index the mobile version of pages first.",
        how: howText(
          "Add to the <head>:",
          codeBlock('<meta name="viewport" content="width=device-width, initial-scale=1">', "html"),
        ),
        effort: "S",
      },
    },
  );
}
