/**
 * The verdicts of one crawler role (search crawlers, or assistants fetching for users), shared by
 * `access.search_crawlers` and `access.user_fetchers`: each crawler of the role that counts is
 * open or refused by the one model of access (crawlers_matrix.ts: robots.txt, the home page's
 * noindex for search crawlers, the edge's answer to its User-Agent), so a crawler refused at the
 * edge costs what it costs when robots.txt refuses it. The points left, and what each cause's fix
 * is worth: the robots.txt fix is the signal's own (computed on the site's real file); the edge's
 * and the noindex's fixes are their signals', credited with the points they give back here.
 */
import { clip, type ScanContext } from "../check.ts";
import { type Crawler, crawlersByRole, mayIgnoreRobots } from "../crawlers.ts";
import { crawlerMatrix } from "../crawlers_matrix.ts";
import { AI_ACCESS_CAUSE, aiAccessFix } from "../robots_fixes.ts";
import type { CrawlerRow, Fix } from "../record.ts";
import type { Credit, Finding } from "../signal.ts";
import { EDGE_CAUSE } from "../edge_words.ts";
import { NOINDEX_AGENTS_CAUSE } from "../directives.ts";
import { edgeLabel } from "../edge_words.ts";

/** The crawlers of the role turned away, by path. */
export interface RoleData {
  /** Refused by robots.txt. */
  blocked: string[];
  /** Refused at the edge (any kind). */
  edge: string[];
  /** Asked not to index (search crawlers). */
  noindex: string[];
}

/** A row's causes, as the model stores them. */
function causesOf(row: CrawlerRow): string[] {
  return row.causes ?? [];
}

/** The causes each fix removes. */
const PATHS = {
  robots: (c: string) => c === "robots",
  edge: (c: string) => c.startsWith("edge_"),
  noindex: (c: string) => c === "noindex",
} as const;

/**
 * How a crawler reads in evidence: its robots.txt verdict first ("allowed" or "blocked", the word
 * readers of the record take), then every other path that turns it away.
 */
function evidenceLine(row: CrawlerRow): string {
  const causes = causesOf(row);
  const parts: string[] = [
    causes.includes("robots")
      ? `blocked by robots.txt${row.robotsLine ? ` (${clip(row.robotsLine, 70)})` : ""}`
      : "allowed by robots.txt",
  ];
  if (causes.includes("noindex")) parts.push(`noindex (${clip(row.directive ?? "", 70)})`);
  if (causes.some(PATHS.edge)) {
    parts.push(`refused at the edge: ${edgeLabel(row.edgeState, row.edge)}`);
  }
  return `${row.token}: ${parts.join("; ")}`;
}

/** In words, one refused crawler and what turns it away: "Claude-SearchBot (your CDN: HTTP 403)". */
function refusedWords(row: CrawlerRow): string {
  const causes = causesOf(row);
  const why = [
    ...(causes.includes("robots") ? ["robots.txt"] : []),
    ...(causes.includes("noindex") ? ["noindex"] : []),
    ...(causes.some(PATHS.edge) ? [`your CDN: ${row.edge}`] : []),
  ];
  return `${row.token} (${why.join(", ")})`;
}

/** The finding of a role's signal (`maxPoints`: the signal's points). */
export function roleFinding(
  ctx: ScanContext,
  role: "search" | "user",
  maxPoints: number,
): Finding<RoleData> {
  const m = crawlerMatrix(ctx);
  const crawlers = crawlersByRole(role);
  const rows = crawlers.map((c) => ({ c, row: m.rows.find((r) => r.token === c.token)! }));
  const judged = rows.filter(({ row }) => row.state !== "unknown");
  if (!judged.length) {
    return {
      status: "unknown",
      detail: ctx.robots.state === "unreachable"
        ? "robots.txt could not be read, so crawler access could not be checked."
        : "Crawler access could not be checked.",
    };
  }
  const who = role === "search"
    ? "AI search and citation crawlers"
    : "assistants fetching for users";
  const refused = judged.filter(({ row }) => row.state === "refused");
  // Each crawler, those turned away first (the major ones first): what raised the verdict leads.
  const evidence = [
    ...refused.filter(({ c }) => c.major),
    ...refused.filter(({ c }) => !c.major),
    ...judged.filter(({ row }) => row.state !== "refused"),
  ].map(({ row }) => evidenceLine(row));
  const tokens = (path: keyof typeof PATHS) =>
    refused.filter(({ row }) => causesOf(row).some(PATHS[path])).map(({ c }) => c.token);
  const data = { blocked: tokens("robots"), edge: tokens("edge"), noindex: tokens("noindex") };
  if (!refused.length) {
    return {
      status: "pass",
      detail: `All ${judged.length} ${who} we check may read the home page (robots.txt${
        role === "search" ? ", the page's robots directives" : ""
      } and the edge's answer to their User-Agent).`,
      evidence,
      data,
    };
  }
  // Each refused crawler removes the site from one engine with certainty, so even a minor one costs
  // more than an optional file (llms.txt); a major one (more of the answers people get) weighs 3, a
  // minor one 2, whatever turns it away.
  const weight = (c: Crawler) => c.major ? 3 : 2;
  const total = judged.reduce((n, { c }) => n + weight(c), 0);
  /** The weight open once the causes `removed` are gone (all causes of a row must go). */
  const openWeight = (removed: (cause: string) => boolean) =>
    judged.reduce((n, { c, row }) => {
      const left = causesOf(row).filter((k) => !removed(k));
      if (!left.length) return n + weight(c);
      // A fetcher whose vendor says it may not follow robots.txt may still fetch when only
      // robots.txt refuses it: its block costs half (the edge is the real test for it).
      if (left.every(PATHS.robots) && mayIgnoreRobots(c.token)) return n + weight(c) / 2;
      return n;
    }, 0);
  const points = (removed: (cause: string) => boolean) => (maxPoints * openWeight(removed)) / total;
  const majors = judged.filter(({ c }) => c.major);
  /** Whether every major crawler of the role stays refused once the causes `removed` are gone. */
  const allMajorsRefused = (removed: (cause: string) => boolean) =>
    majors.length > 0 && majors.every(({ row }) => causesOf(row).some((k) => !removed(k)));
  const all = allMajorsRefused(() => false);
  const credits: Credit[] = [];
  const credit = (path: keyof typeof PATHS, cause: string) => {
    if (!refused.some(({ row }) => causesOf(row).some(PATHS[path]))) return;
    credits.push({
      cause,
      points: points(PATHS[path]),
      liftsGate: all && !allMajorsRefused(PATHS[path]),
    });
  };
  const ownFix = data.blocked.length ? aiAccessFix(ctx) : null;
  credit("robots", ownFix?.cause?.key ?? AI_ACCESS_CAUSE.key);
  credit("edge", EDGE_CAUSE.key);
  credit("noindex", NOINDEX_AGENTS_CAUSE.key);
  const names = refused.map(({ row }) => refusedWords(row));
  const listed = `${names.slice(0, 6).join(", ")}${
    names.length > 6 ? ` and ${names.length - 6} more` : ""
  }`;
  return {
    status: all ? "fail" : "warn",
    detail: `${
      all
        ? `Every major ${
          role === "search" ? "search and AI search crawler" : "user-triggered assistant"
        } we check is turned away: ${listed}.`
        : `${refused.length} of ${judged.length} ${who} are turned away: ${listed}.`
    }${role === "user" ? ignoreNote(data.blocked) : ""}`,
    points: points(() => false),
    evidence,
    gated: all && role === "search",
    impact: role === "search" ? (all ? "critical" : "high") : undefined,
    data,
    ...(ownFix ? { fixedPoints: points(PATHS.robots) } : {}),
    credits,
  };
}

/**
 * The fix of a role's signal: the one robots.txt change for every AI search engine and assistant
 * it keeps out (robots_fixes.ts aiAccessFix, computed on the site's real file and checked for
 * every crawler we know), shared with the other signals of that cause. Crawlers refused only at the
 * edge or by a noindex have their own signals' fixes (credited in the finding): none here then.
 */
export function roleFix(ctx: ScanContext, _role: "search" | "user", data: RoleData): Fix | null {
  return data.blocked.length ? aiAccessFix(ctx) : null;
}

/** What the vendors of user-initiated fetchers say about robots.txt, for the blocked ones. */
function ignoreNote(tokens: string[]): string {
  const may = tokens.filter(mayIgnoreRobots);
  if (!may.length) return "";
  return ` Their vendors say user-initiated fetches may not follow robots.txt (${
    may.join(", ")
  }), so for them a robots.txt block is a request; the edge probe shows what really gets through.`;
}
