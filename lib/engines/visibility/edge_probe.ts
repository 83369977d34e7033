/**
 * The enforced column: what the site's edge (CDN, firewall, bot management) answers each AI
 * crawler whose verdict matters (search and user-triggered) when it asks for the home page, next
 * to what it answers a browser. The snapshot fetches the home page once per probed User-Agent
 * (bounded bytes, through the scan's politeness limit); this module says which crawlers are
 * probed and reads each answer against the browser's:
 * - refused: 401, 403, 451, 503 or another 4xx (a block page that asks nothing of the client is a
 *   refusal, never a challenge);
 * - rate-limited: 429;
 * - a challenge page: a bot check that asks the client to prove something (run a script, solve a
 *   captcha), whatever its status;
 * - a block page: redirected to one, or 2xx sharing under 40% of the words the browser got.
 * Each answer's kind is the one value every view reads its label from ({@link edgeStateOf}).
 *
 * A probe comes from the scanner's own address: a real crawler, coming from its vendor's published
 * addresses, may be let through (or refused) where our probe is not. When the browser-like probe
 * is refused too, the edge refused the scanner, and nothing is said about the crawlers.
 */
import { CRAWLERS } from "./crawlers.ts";
import type { FetchOutcome } from "./snapshot_types.ts";

/** The browser-like User-Agent every crawler's answer is compared with. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";

/** Body bytes kept per probe: enough to tell a challenge or another page from the real one. */
export const PROBE_BYTES = 64 * 1024;
/** Each probe's own time budget, and the budget of all probes together (a slow edge costs little). */
export const PROBE_TIMEOUT_MS = 5_000;
export const PROBES_BUDGET_MS = 8_000;

/**
 * The crawlers probed: every search and user-triggered crawler with a known User-Agent, and one
 * training crawler (GPTBot) so that a block of training alone is told apart. At most 20.
 */
export function probedCrawlers(): { token: string; userAgent: string }[] {
  return CRAWLERS.filter((c) =>
    c.userAgent && c.counts && (c.role === "search" || c.role === "user" || c.token === "GPTBot")
  ).slice(0, 20).map((c) => ({ token: c.token, userAgent: c.userAgent }));
}

/** What the edge answered one User-Agent, compared with the browser's answer. */
export type EdgeAnswer =
  | { kind: "page"; detail: string }
  | {
    kind: "refused" | "rate_limited" | "challenge" | "redirect" | "different" | "block_page";
    detail: string;
  }
  | { kind: "failed"; detail: string };

/**
 * What a crawler's User-Agent got at the edge, as the record stores it (`CrawlerRow.edgeState`) and
 * every view labels it: the page; refused (an error status or a block page); a challenge page;
 * rate-limited (429); another page than the browser's; or not measured.
 */
export type EdgeState =
  | "open"
  | "refused"
  | "challenge"
  | "rate_limited"
  | "block_page"
  | "not_measured";

/** The state of an answer (one mapping, so a 403 is never called a challenge anywhere). */
export function edgeStateOf(a: EdgeAnswer | null | undefined): EdgeState {
  if (!a || a.kind === "failed") return "not_measured";
  switch (a.kind) {
    case "page":
      return "open";
    case "refused":
      return "refused";
    case "rate_limited":
      return "rate_limited";
    case "challenge":
      return "challenge";
    default:
      return "block_page";
  }
}

/** True when the answer keeps the crawler from the page. */
export function isRefusal(a: EdgeAnswer): boolean {
  return a.kind !== "page" && a.kind !== "failed";
}

const REFUSAL_STATUSES = new Set([401, 403, 429, 451, 503]);
/** The statuses that refuse a client, as opposed to a server that is down (503). */
const DENIED_STATUSES = new Set([401, 403, 429, 451]);
/**
 * Words of a page that asks the client to prove something: a challenge. A page that only says no
 * ("Access denied", "Request blocked") asks nothing: it is a refusal, never called a challenge.
 */
const CHALLENGE_TEXT =
  /just a moment|checking your browser|verify you are (?:a )?human|captcha|cf-chl|challenge-platform|px-captcha|are you a robot|enable javascript and cookies to continue/i;
/** Words of a short page that refuses without asking anything (a block page). */
const BLOCK_TEXT = /access denied|request blocked|bot protection|attention required|forbidden/i;
const BLOCK_PATH = /block|captcha|challenge|denied|forbidden|security-check|bot-?check/i;

/** Known signs of a bot challenge page served by an edge. */
function isChallenge(o: Extract<FetchOutcome, { ok: true }>): boolean {
  const { status, headers, body } = o.result;
  if (headers["cf-mitigated"] === "challenge") return true;
  return (REFUSAL_STATUSES.has(status) || status < 300) &&
    CHALLENGE_TEXT.test(body.slice(0, 20_000)) &&
    // A 2xx page that merely mentions a captcha is not a challenge: it must be short.
    (status >= 300 || words(body).size < 150);
}

/** A short 2xx page that only refuses ("Access denied"): a block page served with a 200. */
function isBlockPage(o: Extract<FetchOutcome, { ok: true }>): boolean {
  const { status, body } = o.result;
  return status >= 200 && status < 300 && BLOCK_TEXT.test(body.slice(0, 20_000)) &&
    words(body).size < 50;
}

/** The distinct words of a page's visible text (scripts, styles and tags dropped), bounded. */
function words(html: string): Set<string> {
  const text = withoutTags(withoutScripts(html.slice(0, PROBE_BYTES).toLowerCase()));
  return new Set(text.match(/[\p{L}\p{N}]{3,}/gu)?.slice(0, 5000) ?? []);
}

/**
 * Lower-cased HTML without its script, style and noscript elements, as
 * `/<(script|style|noscript)\b[\s\S]*?<\/\1>/gi` removed them, in one pass: each element's end
 * tag is looked for once, and a name whose end tag is missing is not looked for again (the
 * expression scanned to the end of the page again from every such start tag).
 */
function withoutScripts(html: string): string {
  const parts: string[] = [];
  const missing = new Set<string>();
  let last = 0;
  const starts = /<(script|style|noscript)\b/g;
  for (let m = starts.exec(html); m; m = starts.exec(html)) {
    const name = m[1];
    if (missing.has(name)) continue;
    const close = html.indexOf(`</${name}>`, m.index + m[0].length);
    if (close < 0) {
      missing.add(name);
      continue;
    }
    parts.push(html.slice(last, m.index), " ");
    last = starts.lastIndex = close + name.length + 3;
  }
  parts.push(html.slice(last));
  return parts.join("");
}

/** Tags replaced by a space, as `/<[^>]*>/g` did, in one pass (a `<` never closed stays text). */
function withoutTags(html: string): string {
  const parts: string[] = [];
  let last = 0;
  for (let open = html.indexOf("<"); open >= 0; open = html.indexOf("<", last)) {
    const close = html.indexOf(">", open + 1);
    if (close < 0) break;
    parts.push(html.slice(last, open), " ");
    last = close + 1;
  }
  parts.push(html.slice(last));
  return parts.join("");
}

/** The share of the browser's words a probe's page holds too (0-1). */
function overlap(browser: Set<string>, probe: Set<string>): number {
  let shared = 0;
  for (const w of browser) if (probe.has(w)) shared++;
  return browser.size ? shared / browser.size : 1;
}

/** Reads one probe's answer against the browser's (or, when that failed, our own fetch's). */
export function edgeAnswer(probe: FetchOutcome, baseline: FetchOutcome): EdgeAnswer {
  if (!probe.ok) return { kind: "failed", detail: `no answer (${probe.error.kind})` };
  const r = probe.result;
  if (isChallenge(probe)) {
    return { kind: "challenge", detail: `a challenge page (HTTP ${r.status})` };
  }
  if (r.status === 429) return { kind: "rate_limited", detail: "rate-limited (HTTP 429)" };
  if (REFUSAL_STATUSES.has(r.status)) return { kind: "refused", detail: `HTTP ${r.status}` };
  if (isBlockPage(probe) && !(baseline.ok && isBlockPage(baseline))) {
    return { kind: "block_page", detail: `a block page (HTTP ${r.status})` };
  }
  if (!baseline.ok) return { kind: "page", detail: `HTTP ${r.status}` };
  const b = baseline.result;
  const finalPath = (url: string) => {
    try {
      const u = new URL(url);
      return `${u.host}${u.pathname}`;
    } catch {
      return url;
    }
  };
  if (finalPath(r.finalUrl) !== finalPath(b.finalUrl) && BLOCK_PATH.test(r.finalUrl)) {
    return { kind: "redirect", detail: `a redirect to ${r.finalUrl} (HTTP ${r.status})` };
  }
  if (r.status >= 200 && r.status < 300 && b.status >= 200 && b.status < 300) {
    const mine = words(b.body);
    if (mine.size >= 50) {
      const share = overlap(mine, words(r.body));
      if (share < 0.4) {
        return {
          kind: "different",
          detail: `a different page (HTTP ${r.status}, ${
            Math.round(share * 100)
          }% of the browser's words)`,
        };
      }
    }
  }
  if (r.status >= 400) return { kind: "refused", detail: `HTTP ${r.status}` };
  return { kind: "page", detail: `HTTP ${r.status}` };
}

/** True when an answer shows the edge refusing the request (a refusal, a challenge, a block page). */
export function refusedOutright(o: FetchOutcome): boolean {
  if (!o.ok) return false;
  return isChallenge(o) || REFUSAL_STATUSES.has(o.result.status);
}

/**
 * Why a scan whose home page our scanner could not get failed, when the edge refused it: said of
 * the scanner, never of the crawlers (which come from their vendors' own addresses). Null when
 * the home page was not refused by the edge.
 */
export function scannerRefusal(
  home: FetchOutcome,
  edge: { browser: FetchOutcome; crawlers: { token: string; outcome: FetchOutcome }[] },
): string | null {
  // A plain 503 is a site that is down as often as an edge that refuses: only a refusal status or
  // a challenge page says the edge refused the scanner.
  if (!home.ok || !(isChallenge(home) || DENIED_STATUSES.has(home.result.status))) return null;
  const status = `HTTP ${home.result.status}`;
  const answered = edge.crawlers.filter((c) => c.outcome.ok);
  const through = answered.filter((c) => !refusedOutright(c.outcome)).map((c) => c.token);
  if (edge.browser.ok && !refusedOutright(edge.browser)) {
    return `the site's edge refused our scanner's User-Agent (${status}) while a browser's got the page; we do not scan disguised as a browser. This says nothing about AI crawlers, which come from their vendors' own addresses`;
  }
  if (!through.length) {
    return `the site's edge refused our scanner (${status}): every User-Agent we tried, a browser's included, was refused. The scanner's address or requests were blocked; this says nothing about AI crawlers, which come from their vendors' own addresses`;
  }
  return `the site's edge refused our scanner's User-Agent and a browser's (${status}), but answered ${
    through.slice(0, 3).join(", ")
  }; the scan needs the page our scanner is served`;
}
