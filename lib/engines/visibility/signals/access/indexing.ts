/**
 * `access.indexing`: the home page's robots meta tags and X-Robots-Tag header let AI search index
 * and quote it. Owns the `noindex` gate (noindex for all robots). A noindex aimed at some AI search
 * crawlers turns them away in the one model of access (crawlers_matrix.ts): it costs what a
 * robots.txt block of them costs, in `access.search_crawlers`, whose finding credits this signal's
 * fix with the points it gives back; here it is the cause and the fix.
 */
import { CRAWLERS } from "../../crawlers.ts";
import {
  describeDirective,
  forbidsIndexing,
  forbidsSnippets,
  NOINDEX_AGENTS_CAUSE,
  readDirectives,
  type RobotsDirective,
  searchAgents,
  whoIsForbidden,
  xRobotsTagLines,
} from "../../directives.ts";
import { codeBlock, escapeHtml, howText } from "../../fix_text.ts";
import { byHand, checkAfterwards, pasteInHead } from "../../fix_steps.ts";
import type { ScanContext } from "../../check.ts";
import type { Fix } from "../../record.ts";
import type { GateDef, SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";

/** The page asks every AI search crawler not to index it. */
export const NOINDEX_GATE: GateDef = {
  id: "noindex",
  cap: 25,
  name: "the home page asks not to be indexed (noindex)",
  why:
    "A noindex rule keeps the page out of the indexes AI answers are built from, whatever else the page does well.",
  when:
    '`noindex`/`none` for all robots (`<meta name="robots">`, unscoped `X-Robots-Tag`); a noindex naming AI search crawlers turns them away in the search crawlers\' check instead',
  lift:
    "The home page's robots meta tags and X-Robots-Tag header no longer say noindex (or none) to all robots.",
};

/** What the fix removes: the noindex directives found and who they name. */
interface Data {
  kind: "noindex" | "noindex_some" | "nosnippet";
  directives: RobotsDirective[];
  who: string[];
}

const TITLE = "Page may be indexed and quoted";

export const indexing: SignalDef<Data> = {
  id: "access.indexing",
  pillar: "access",
  title: TITLE,
  points: 5,
  scope: "page",
  gate: NOINDEX_GATE,
  learn: {
    what:
      'A page can ask not to be indexed or quoted with a robots meta tag (`<meta name="robots" content="noindex">`) or an X-Robots-Tag header.',
    why:
      "noindex keeps the page out of the indexes AI answers draw on; nosnippet and similar rules stop it being quoted.",
    how:
      "We read the robots meta tags and each X-Robots-Tag header line of the home page on its own, as Google does, including rules aimed at a named crawler (`googlebot: noindex` in one line never scopes the next line's rules). noindex caps the score.",
    sources: [SOURCES.robotsMeta, SOURCES.blockIndexing],
  },
  check(ctx) {
    const home = ctx.snapshot.home;
    const lines = home.ok ? xRobotsTagLines(home.result) : [];
    const directives = readDirectives(ctx.facts.metaRobots, lines);
    const sources = [
      ...lines.map((line) => `X-Robots-Tag header: ${line}`),
      ...Object.entries(ctx.facts.metaRobots).map(([n, c]) => `<meta name="${n}">: ${c}`),
    ];
    const agents = searchAgents();
    const noindex = whoIsForbidden(directives, forbidsIndexing);
    const nosnippet = whoIsForbidden(directives, forbidsSnippets);
    const names = (m: Map<string, unknown>) =>
      CRAWLERS.filter((c) => m.has(c.token.toLowerCase())).map((c) => c.token);
    const everyAgent = (m: Map<string, unknown>) => agents.every((a) => m.has(a));
    const noindexAll = [...noindex.all, ...[...noindex.agents.values()].flat()];
    if (noindex.all.length) {
      return {
        status: "fail",
        detail:
          "The home page tells crawlers not to index it (noindex): search engines and AI search will drop it.",
        evidence: noindexAll.map(describeDirective),
        gated: true,
        data: { kind: "noindex", directives: noindexAll, who: [] },
      };
    }
    const other = [...noindex.other, ...nosnippet.other].map(describeDirective);
    if (noindex.agents.size) {
      const who = names(noindex.agents);
      return {
        status: "warn",
        detail: `The home page tells ${who.join(", ")} not to index it (noindex for ${
          who.length === 1 ? "that crawler" : "those crawlers"
        } only): the search and AI answers they feed will drop it${
          everyAgent(noindex.agents) ? "" : "; the other AI search crawlers may index it"
        }. It costs what a robots.txt block of them costs, counted in "AI search crawlers allowed".`,
        // Counted once, in access.search_crawlers (the one model of access).
        points: 5,
        evidence: [...[...noindex.agents.values()].flat().map(describeDirective), ...other],
        impact: "high",
        data: { kind: "noindex_some", directives: noindexAll, who },
      };
    }
    const snippetAll = nosnippet.all.length > 0 || everyAgent(nosnippet.agents);
    if (snippetAll || nosnippet.agents.size) {
      const who = names(nosnippet.agents);
      return {
        status: "warn",
        detail: snippetAll
          ? "The page may be indexed but forbids snippets (nosnippet / max-snippet:0), so AI answers cannot quote it."
          : `The page may be indexed but forbids snippets to ${
            who.join(", ")
          } (nosnippet / max-snippet:0), so their answers cannot quote it.`,
        points: snippetAll ? 2.5 : 5 - 2.5 * (nosnippet.agents.size / agents.length),
        evidence: [...nosnippet.all, ...[...nosnippet.agents.values()].flat()].map(
          describeDirective,
        ),
        data: { kind: "nosnippet", directives: [], who },
      };
    }
    return {
      status: "pass",
      detail: other.length
        ? `Robots directives allow the AI search crawlers we check to index and quote the page; directives for other agents (${
          other.join("; ")
        }) do not concern them.`
        : sources.length
        ? "Robots directives allow indexing and snippets."
        : "No noindex or nosnippet directive in meta tags or headers.",
      evidence: sources,
    };
  },
  fix(ctx: ScanContext, found) {
    const data = found.data!;
    if (data.kind === "nosnippet") {
      const home = ctx.snapshot.home;
      const lines = home.ok ? xRobotsTagLines(home.result) : [];
      const directives = readDirectives(ctx.facts.metaRobots, lines);
      const snippet = directives.filter((d) =>
        d.name === "nosnippet" || (d.name === "max-snippet" && d.value === "0")
      );
      return directivesFix(ctx, {
        what: "Allow snippets",
        why:
          "AI answers quote passages; nosnippet stops them quoting you and many then skip the page.",
        directives: snippet,
        content: "index, follow, max-snippet:-1",
        word: "nosnippet and max-snippet:0",
        note: "To keep one passage out of snippets, put data-nosnippet on its element instead.",
      });
    }
    const fix = directivesFix(ctx, {
      what: data.kind === "noindex"
        ? "Remove noindex from the home page"
        : `Remove noindex for ${data.who.join(", ")}`,
      why:
        "noindex removes the page from the indexes AI search engines retrieve from, whatever robots.txt says.",
      directives: data.directives,
      content: "index, follow",
      word: "noindex",
      note: 'Check your CMS\'s "discourage search engines" setting, which often adds noindex.',
    });
    return data.kind === "noindex" ? fix : { ...fix, cause: NOINDEX_AGENTS_CAUSE };
  },
};

/**
 * The fix of robots directives: each robots meta tag that carries them, replaced in the `<head>`
 * (by the same name), and the X-Robots-Tag header, which only the server's configuration sends,
 * changed by hand with the command that shows it afterwards.
 */
function directivesFix(
  ctx: ScanContext,
  o: {
    what: string;
    why: string;
    directives: RobotsDirective[];
    content: string;
    word: string;
    note: string;
  },
): Fix {
  const metas = [
    ...new Set(
      o.directives.map((d) => d.source.match(/^<meta name="([^"]+)">$/)?.[1] ?? null)
        .filter((n): n is string => n !== null),
    ),
  ];
  const header = o.directives.some((d) => !d.source.startsWith("<meta"));
  const url = ctx.pageUrl.replace(/'/g, "%27");
  return {
    what: o.what,
    why: o.why,
    how: howText(
      metas.length > 0 &&
        pasteInHead(
          [ctx.pageUrl],
          ` (each replaces the robots meta tag of the same name that says ${o.word}):`,
        ),
      metas.length > 0 &&
        codeBlock(
          metas.map((n) => `<meta name="${escapeHtml(n)}" content="${o.content}">`).join("\n"),
          "html",
        ),
      header &&
        byHand(
          `stop sending the X-Robots-Tag header that says ${o.word} (your web server's, framework's or CDN's configuration adds it).`,
        ),
      header && checkAfterwards(`that this command prints no ${o.word}:`),
      header && codeBlock(`curl -sI '${url}' | grep -i x-robots-tag`, "sh"),
      o.note,
    ),
    effort: "S",
  };
}
