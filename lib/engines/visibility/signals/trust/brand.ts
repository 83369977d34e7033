/** `trust.brand`: the site gives itself one name in its title, og:site_name and structured data. */
import { allNodes } from "../../check.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import { byHand, checkAfterwards, pasteInHead } from "../../fix_steps.ts";
import { jsonLdFix } from "../../jsonld_fix.ts";
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { displayName } from "../../site_identity.ts";
import { brandKey, nameKey, nameSources } from "../../../structured/site_name.ts";

/** The names the page states, and the title's brand when it disagrees with them. */
interface Data {
  stated: [string, string][];
  titleBrand: string | null;
}

export const brand: SignalDef<Data> = {
  id: "trust.brand",
  pillar: "trust",
  title: "Consistent brand name",
  points: 3,
  scope: "page",
  learn: {
    what: "The name the site gives itself in its title, structured data and Open Graph tags.",
    why: "One name everywhere lets AI systems recognise the entity and credit it.",
    how:
      "We compare the names stated in the title, og:site_name and the JSON-LD. A site whose title is its only statement of its name is consistent: nothing contradicts it.",
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
      // A title that carries the name is one statement of it, and nothing contradicts it: the
      // site is consistent (the structured-data checks ask for the name in markup).
      return s.titleBrand
        ? {
          status: "pass",
          detail:
            `The site calls itself "${s.titleBrand}" in its title, and states no other name that could contradict it.`,
          evidence,
        }
        : {
          status: "fail",
          detail:
            "The site states no name: no og:site_name, no Organization or WebSite name, and no brand in its title.",
          evidence,
          data: { stated: [], titleBrand: null },
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
      data: { stated, titleBrand: titleAgrees ? null : s.titleBrand },
    };
  },
  fix(ctx, found) {
    const why =
      "AI systems merge facts about an entity by its name; different names on title, og:site_name and JSON-LD split you into several weaker entities.";
    const { stated, titleBrand } = found.data!;
    // No name anywhere: the home page's JSON-LD graph states it (one fix with the structured
    // data checks, which ask for the same graph).
    if (!stated.length) return jsonLdFix(ctx, "State your site's name", why);
    const name = displayName(ctx);
    const key = brandKey(name);
    const differ = stated.filter(([, v]) => brandKey(v) !== key).map(([k]) => k);
    const head = [
      ...(differ.includes("og:site_name")
        ? [`<meta property="og:site_name" content="${escapeHtml(name)}">`]
        : []),
      ...(differ.includes("application-name")
        ? [`<meta name="application-name" content="${escapeHtml(name)}">`]
        : []),
      // The title keeps what it says of the page; only its brand part changes.
      ...(titleBrand && ctx.facts.title
        ? [`<title>${escapeHtml(ctx.facts.title.replace(titleBrand, name))}</title>`]
        : []),
    ];
    const markup = differ.filter((k) => k.startsWith("JSON-LD"));
    return {
      what: "Use one brand name everywhere",
      why,
      how: howText(
        `Pick one name: "${name}" is the one the page states most. Then:`,
        head.length > 0 &&
          pasteInHead([ctx.pageUrl], " (each replaces the tag of the same name):"),
        head.length > 0 && codeBlock(head.join("\n"), "html"),
        markup.length > 0 &&
          byHand(
            `in your structured data, set the "name" of the ${
              markup.map((m) => m.replace("JSON-LD ", "")).join(" and ")
            } node to "${name}" (a legal form such as "Ltd" may stay).`,
          ),
        checkAfterwards(
          `that the title, og:site_name and the JSON-LD name the site "${name}" (or a legal form of it).`,
        ),
      ),
      effort: "S",
    };
  },
};
