/** `trust.brand`: the site gives itself one name in its title, og:site_name and structured data. */
import { allNodes } from "../../check.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { displayName } from "../../site_identity.ts";
import { brandKey, nameKey, nameSources } from "../../../structured/site_name.ts";

export const brand: SignalDef = {
  id: "trust.brand",
  pillar: "trust",
  title: "Consistent brand name",
  points: 3,
  scope: "page",
  learn: {
    what: "The name the site gives itself in its title, structured data and Open Graph tags.",
    why: "One name everywhere lets AI systems recognise the entity and credit it.",
    how: "We compare the names stated in the title, og:site_name and the JSON-LD.",
    sources: [SOURCES.siteNames],
  },
  check(ctx) {
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
    if (!stated.length) {
      return {
        status: "fail",
        detail:
          "The site states its name nowhere but (maybe) the title: no og:site_name, no Organization or WebSite name.",
        evidence,
      };
    }
    // "Spiceworks" and "Spiceworks Inc" are one brand: legal forms do not count.
    const keys = new Set(stated.map(([, v]) => brandKey(v)));
    const titleKey = s.titleBrand ? brandKey(s.titleBrand) : null;
    const main = brandKey(stated[0][1]);
    const titleAgrees = !titleKey || titleKey.includes(main) || main.includes(titleKey) ||
      nameKey(ctx.facts.title ?? "").includes(main);
    if (keys.size === 1 && titleAgrees) {
      return {
        status: "pass",
        detail: `The site calls itself "${stated[0][1]}" consistently.`,
        evidence,
      };
    }
    return {
      status: "warn",
      detail: `The site names itself differently in different places: ${evidence.join("; ")}.`,
      evidence,
    };
  },
  fix: (ctx) => ({
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
    effort: "S",
  }),
};
