/** `technical.site_titles`: every sampled page has its own title and description. */
import type { SignalDef } from "../../signal.ts";
import { escapeHtml, howText } from "../../fix_text.ts";
import { pageEditSteps } from "../../page_edits.ts";
import { displayName } from "../../site_identity.ts";
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

/** The pages concerned. */
interface Data {
  bad: PageReport[];
}

export const siteTitles: SignalDef<Data> = {
  id: "technical.site_titles",
  pillar: "technical",
  title: "Sampled pages have their own title and description",
  points: 3,
  scope: "site",
  learn: {
    what:
      "Each page's <title> and meta description say what that page is about, differently from the site's other pages.",
    why:
      "Titles and descriptions are what search engines and assistants show and match first; duplicates make pages look alike.",
    how:
      `${SAMPLE_HOW}, and report pages with no title or description (the home page's own checks judge its), and titles or descriptions shared by several pages (two addresses of one path count as one page).`,
    sources: [SOURCES.titleLink, SOURCES.snippet],
  },
  check(ctx) {
    const site = sampledSite(ctx);
    if (!site) return null;
    const { read } = site;
    // The home page's own title and description checks judge whether it has them (one check
    // per fact); here it counts for the labels it shares with another page.
    const noTitle = read.filter((p) => !p.title && p.type !== "home");
    const noDesc = read.filter((p) => !p.description && p.type !== "home");
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
    return {
      status: !bad.size ? "pass" : bad.size * 2 >= n ? "fail" : "warn",
      detail: parts.length
        ? `${parts.join("; ")}.`
        : `All ${n} pages read have their own title and description.`,
      points: pointsFor(3, n - bad.size, n),
      evidence: [...bad].map((p) => p.path),
      data: { bad: [...bad] },
    };
  },
  fix(ctx, found) {
    // The home page's title and description have their own checks: where another page shares
    // them, changing the other page's sets them apart; a missing one is the home checks' fix.
    const all = found.data!.bad;
    const inner = all.filter((p) => p.type !== "home");
    const bad = inner.length ? inner : all;
    const site = sampledSite(ctx)!;
    const byUrl = new Map(bad.map((p) => [p.url, p]));
    const name = displayName(ctx);
    const needsTitle = (p: PageReport) => !p.title || p.fails.includes("duplicate title");
    // A page's own heading titles it, unless another page has the same heading (or it makes the
    // title the page already has): then only the owner can say what sets the page apart.
    const headings = new Map<string, number>();
    for (const p of site.read) {
      const h = p.heading?.trim().toLowerCase();
      if (h) headings.set(h, (headings.get(h) ?? 0) + 1);
    }
    const ownHeading = (p: PageReport) => {
      const h = p.heading?.trim();
      if (!h || (headings.get(h.toLowerCase()) ?? 0) > 1) return null;
      return `${h} | ${name}`.toLowerCase() === p.title?.trim().toLowerCase() ? null : h;
    };
    const needsDesc = (p: PageReport) =>
      !p.description || p.fails.includes("duplicate description");
    return {
      what: `Give ${pagesInWords(bad)} their own titles and descriptions`,
      why:
        "Titles and descriptions are the labels AI answers cite; copies of one label make pages indistinguishable.",
      how: howText(
        ...pageEditSteps(ctx, {
          urls: bad.map((p) => p.url),
          where: "head",
          // The title from the page's own heading (its words), the description only its owner
          // can write.
          code: (url) => {
            const p = byUrl.get(url)!;
            return [
              needsTitle(p) &&
              `<title>${escapeHtml(ownHeading(p) ?? "FILL-IN: what this page is about")} | ${
                escapeHtml(name)
              }</title>`,
              needsDesc(p) &&
              '<meta name="description" content="FILL-IN: one or two sentences on what this page offers">',
            ].filter(Boolean).join("\n");
          },
          note:
            "each replaces the tag of the same name; replace each FILL-IN with that page's own words",
          template:
            "build the <title> from the page's own heading (then the site name) and the meta description from its summary or first paragraph, instead of a site-wide default",
          check: "that no two of your pages share a title or a description.",
        }),
      ),
      effort: "S",
      cause: templateCause(ctx, bad),
    };
  },
};
