/** `technical.site_titles`: every sampled page has its own title and description. */
import type { SignalDef } from "../../signal.ts";
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
      `${SAMPLE_HOW}, and report pages with no title or description and titles or descriptions shared by several pages.`,
    sources: [SOURCES.titleLink, SOURCES.snippet],
  },
  check(ctx) {
    const site = sampledSite(ctx);
    if (!site) return null;
    const { read } = site;
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
  fix: (_ctx, found) => ({
    what: `Give ${pagesInWords(found.data!.bad)} their own titles and descriptions`,
    why:
      "Titles and descriptions are the labels AI answers cite; copies of one label make pages indistinguishable.",
    how:
      "In the template, build the <title> from the page's own heading (then the site name) and the meta description from its summary or first paragraph, instead of a site-wide default.",
    effort: "S",
    cause: templateCause(found.data!.bad),
  }),
};
