/**
 * `technical.site_canonicals`: the sampled pages' canonicals point at themselves, not at the home
 * page or another site (a missing one is noted, not scored: crawlers then use the URL fetched).
 */
import { escapeHtml, howText } from "../../fix_text.ts";
import { pageEditSteps } from "../../page_edits.ts";
import { canonical } from "./canonical.ts";
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

/** The pages the fix addresses. */
interface Data {
  pages: PageReport[];
}

export const siteCanonicals: SignalDef<Data> = {
  id: "technical.site_canonicals",
  pillar: "technical",
  title: "Canonicals point where they should",
  points: 3,
  scope: "site",
  learn: {
    what:
      'A canonical link (<link rel="canonical">) names the preferred address of a page. A template that points every page to the home page tells crawlers all those pages are duplicates of it.',
    why:
      "Crawlers fold pages into the address their canonical names, so a wrong canonical hides the page it is on.",
    how:
      `${SAMPLE_HOW}, and check that each page's canonical names the page itself (or a real equivalent) and not another page of the site, such as the home page.`,
    sources: [SOURCES.canonical],
  },
  check(ctx) {
    const site = sampledSite(ctx);
    if (!site) return null;
    const { read } = site;
    const home = read.filter((p) => p.canonical === "home");
    const foreign = read.filter((p) => p.canonical === "foreign");
    const missing = read.filter((p) => p.canonical === "missing");
    const n = read.length;
    const wrong = [...home, ...foreign];
    const parts = [
      home.length &&
      `${share(home.length, n)} point their canonical at the home page: ${examples(home)}`,
      foreign.length &&
      `${share(foreign.length, n)} point it at another site: ${examples(foreign)}`,
      missing.length && `${share(missing.length, n)} have none: ${examples(missing)}`,
    ].filter((x): x is string => !!x);
    return {
      // A missing canonical is a minor gap (crawlers pick the URL they fetched, and the home
      // page's own technical.canonical already asks for one); a wrong one hides pages: only that
      // costs here.
      status: wrong.length ? "fail" : "pass",
      detail: wrong.length
        ? `${parts.join("; ")}.`
        : missing.length
        ? `No canonical points elsewhere; ${
          share(missing.length, n)
        } declare none (crawlers then use the URL they fetched): ${examples(missing)}.`
        : `All ${n} pages read declare a canonical URL that fits.`,
      points: pointsFor(3, n - wrong.length, n),
      evidence: [...wrong, ...missing].map((p) => `${p.path}: ${p.canonical}`),
      impact: home.length ? "high" : undefined,
      data: { pages: [...wrong, ...missing] },
    };
  },
  fix(ctx, found) {
    // The home page's canonical is its own check's fix (one tag, one fix); the others are here.
    const pages = found.data!.pages.filter((p) => p.type !== "home");
    if (!pages.length) {
      const home = canonical.check(ctx);
      return home && home.status !== "pass" ? canonical.fix(ctx, home) : null;
    }
    return {
      what: `Point the canonical of ${pagesInWords(pages)} at the page itself`,
      why:
        "A canonical that points at the home page tells crawlers every such page is a copy of it: they drop the pages and cite none of them.",
      how: howText(
        ...pageEditSteps(ctx, {
          urls: pages.map((p) => p.url),
          where: "head",
          code: (url) => `<link rel="canonical" href="${escapeHtml(url)}">`,
          note: "it replaces the canonical there",
          template: "print each page's own URL as its canonical, not the site's root",
          check: "that each page's canonical names the page's own URL.",
        }),
      ),
      effort: "S",
      cause: templateCause(ctx, pages),
    };
  },
};
