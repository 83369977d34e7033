/**
 * `access.robots_txt`: /robots.txt answers with rules crawlers can read. A 5xx raises the
 * `blanket_disallow` gate (RFC 9309: a server error means "assume complete disallow").
 */
import type { SignalDef } from "../../signal.ts";
import { SOURCES } from "../../sources.ts";
import { robotsFileFix } from "../../robots_fixes.ts";
import { howText } from "../../fix_text.ts";
import { byHand, checkAfterwards } from "../../fix_steps.ts";
import { BLANKET_DISALLOW_GATE } from "./blanket_disallow.ts";

export const robotsTxt: SignalDef = {
  id: "access.robots_txt",
  pillar: "access",
  title: "robots.txt is readable",
  points: 2,
  scope: "page",
  gate: BLANKET_DISALLOW_GATE,
  learn: {
    what:
      "robots.txt is a small text file at the root of a site (example.com/robots.txt) that tells crawlers which parts they may read.",
    why:
      "Every well-behaved AI crawler reads it first. If it answers with a server error, crawlers following RFC 9309 must assume the whole site is off limits.",
    how:
      "We fetch /robots.txt and note its status: a file or a 404 is fine, a 5xx or a time-out is not; we also flag rules we cannot parse.",
    sources: [SOURCES.rfc9309, SOURCES.googleRobots],
  },
  check(ctx) {
    const r = ctx.robots;
    switch (r.state) {
      case "ok":
        return {
          status: r.unknownLines > 3 ? "warn" : "pass",
          detail: r.unknownLines > 3
            ? `robots.txt has ${r.unknownLines} lines that are not robots.txt directives; crawlers ignore them.`
            : `robots.txt answered ${r.httpStatus} with ${r.lineCount} lines.`,
          evidence: [r.url],
        };
      case "missing":
        return {
          status: "warn",
          detail:
            `robots.txt answered ${r.httpStatus}: crawlers may read everything, but nothing points them to your sitemap.`,
          evidence: [r.url],
        };
      case "server_error":
        return {
          status: "fail",
          detail:
            `robots.txt answered ${r.httpStatus}. Under RFC 9309 a server error means "assume complete disallow": compliant crawlers will not crawl the site at all.`,
          // The evidence that raises the gate: the file and the status it answered.
          evidence: [`${r.url}: HTTP ${r.httpStatus}`],
          gated: true,
        };
      case "invalid":
        return {
          status: "warn",
          detail:
            `robots.txt answered ${r.httpStatus} with an HTML page instead of robots.txt rules (a soft 404); crawlers find no rules and no sitemap in it.`,
          evidence: [r.url],
        };
      case "unreachable":
        return {
          status: "unknown",
          detail:
            "robots.txt could not be fetched (network error or time-out), so crawler access could not be checked.",
          evidence: [r.url],
        };
    }
  },
  fix(ctx) {
    const r = ctx.robots;
    switch (r.state) {
      case "ok":
        return {
          what: "Clean up robots.txt",
          why:
            "Lines crawlers cannot parse are silently ignored, so rules you think apply may not.",
          how: howText(
            byHand(
              `keep only robots.txt directives in ${r.url} (User-agent, Allow, Disallow, Sitemap, Crawl-delay, and the AI preference lines Content-Signal and Content-Usage), and # comments; a line that is none of these is ignored by every crawler.`,
            ),
            checkAfterwards(
              "that every line of the file is blank, a # comment or one of those directives.",
            ),
          ),
          effort: "S",
        };
      case "missing":
      case "server_error":
      case "invalid":
        // One fix replaces the file whole (its status, its rules and the sitemap line).
        return robotsFileFix(ctx);
      case "unreachable":
        return null;
    }
  },
};
