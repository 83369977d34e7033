/**
 * [cpu] The text parsers a scan runs on what a site serves grow at most linearly in CPU, up to the
 * scan's byte limit for each kind of input, on adversarial shapes fast-check draws (see
 * helpers/linear_cpu.ts for how the assertion stays independent of the machine's speed and load).
 *
 * What each property guards (each was checked to fail on the old code by reverting it):
 * - robots.txt: the old `LINE` and `#.*$` expressions of robots_groups.ts, the RegExp the fixes
 *   built from each rule (one rule of many stars against a sampled path: exponential), tokens x
 *   rules in the parse, the quadratic matcher that backtracked to the last star;
 * - llms.txt: links de-duplicated by a scan of the list so far (quadratic), its link-item pattern;
 * - site names: `LEGAL_FORMS` (exponential: "   co" repeated), the title split;
 * - bylines: the trim `[\s|·•—–,;-]+$` and the splits around separators;
 * - sitemaps, Content-Signal / Content-Usage, X-Robots-Tag and Link headers: their readers as they
 *   are, held to the same bound.
 */
import { analyseRobots, parseRobotsTxt } from "../../lib/engines/visibility/robots.ts";
import { outcomeOf } from "../../lib/engines/visibility/robots_groups.ts";
import { robotsAllowFix } from "../../lib/engines/visibility/robots_fix.ts";
import { readUsagePreferences } from "../../lib/engines/visibility/usage_prefs.ts";
import { crawlDelayFor } from "../../lib/engines/visibility/audit/polite.ts";
import { llmsTxtLinks, validateLlmsTxt } from "../../lib/engines/visibility/llms_txt.ts";
import { readSitemap } from "../../lib/engines/visibility/sitemap.ts";
import { sitemapEntries } from "../../lib/engines/visibility/audit/sample.ts";
import { readDirectives } from "../../lib/engines/visibility/directives.ts";
import { readLinkHeader } from "../../lib/engines/visibility/link_header.ts";
import { splitAuthors } from "../../lib/engines/structured/bylines.ts";
import { splitPeople } from "../../lib/engines/visibility/signals/trust/author_dates.ts";
import { siteNameChoice } from "../../lib/engines/structured/site_name.ts";
import { extractPageFacts } from "../../lib/engines/html/page_facts.ts";
import { assertLinearCpu, assertLinearFor, repeatTo, unitOf } from "./helpers/linear_cpu.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const ORIGIN = "https://site.test/";
/** A different text each call, so caches keyed by the text never answer instead of the parser. */
let call = 0;
const fresh = (text: string) => `${text}\n# ${call++}`;

Deno.test("[cpu] robots.txt: parse, verdicts, preferences, Crawl-delay and fixes grow linearly (512 KiB)", () => {
  const units = unitOf(
    [
      "User-agent: bot{i}\n",
      "User-agent: bot{i}\nDisallow: /p{i}\n",
      "Disallow: /*a*b*c{i}\n",
      "Content-Signal: search=yes, ai-train=no, k{i}=v\n",
      "Content-Usage: /x{i} train-ai=n\n",
      "Crawl-delay: {i}\n",
      "Allow:" + " ".repeat(40) + "x" + " ".repeat(40) + "\n",
      "#".repeat(30) + "\n",
      "User-agent: *\nDisallow: /\n",
    ],
    ["\n", " ", "\t", "*", "$", "#", ":"],
  );
  assertLinearFor(
    "robots.txt (file)",
    units,
    (unit) =>
      assertLinearCpu("robots.txt", (size) => repeatTo(unit, size), (text) => {
        const t = fresh(text);
        analyseRobots(outcomeOf(t, `${ORIGIN}robots.txt`), ORIGIN);
        readUsagePreferences(parseRobotsTxt(t), {});
        crawlDelayFor(t, "GPTBot");
        robotsAllowFix(t, ORIGIN, ["OAI-SearchBot", "GPTBot"], "open", ["/docs/page"], [
          "/" + "a".repeat(40),
        ]);
      }, { from: 2 * KiB, to: 512 * KiB }),
    {
      examples: ["User-agent: bot{i}\n", "Allow:" + " ".repeat(40) + "x" + " ".repeat(40) + "\n"],
    },
  );
});

Deno.test("[cpu] robots.txt: one rule of many wildcards against sampled paths grows linearly", () => {
  // The RegExp the fixes built from a rule ("^" + pieces joined by ".*") is exponential in the
  // stars on a path it does not match; the matcher that backtracked to the last star, quadratic.
  const units = unitOf(["*a", "a*", "*", "*%2a", "*ab"], ["a", "*", "b"]);
  assertLinearFor(
    "robots.txt (one rule)",
    units,
    (unit) =>
      assertLinearCpu("robots.txt rule", (size) => `/${repeatTo(unit, size)}b`, (pattern) => {
        // The crawler's own group blocks the home page, so the fix reads its every rule against
        // the paths it must open.
        const text = fresh(
          `User-agent: *\nDisallow: /\nUser-agent: OAI-SearchBot\nDisallow: /\nDisallow: ${pattern}`,
        );
        robotsAllowFix(text, ORIGIN, ["OAI-SearchBot"], "open", [`/${"a".repeat(40)}`], [
          `/${"a".repeat(60)}`,
        ]);
      }, { from: 4, to: 512 * KiB, factor: 1.15, fineUpTo: KiB }),
    { examples: ["*a"] },
  );
});

Deno.test("[cpu] llms.txt: validation and its links grow linearly (1 MiB)", () => {
  const units = unitOf(
    [
      "- [Page {i}](https://site.test/p{i})\n",
      "- [Page](https://site.test/same)\n",
      "- [a](b):" + "\t".repeat(30) + "\u2028x\n",
      "## Section {i}\n",
      "# " + " ".repeat(50) + "\n",
      "* [x](/{i}) " + " ".repeat(20) + "\n",
    ],
    ["\n", " ", "\t", "-", "[", "]", "(", ")"],
  );
  assertLinearFor(
    "llms.txt",
    units,
    (unit) =>
      assertLinearCpu(
        "llms.txt",
        (size) => `# Site\n\n> About\n\n## Docs\n${repeatTo(unit, size)}`,
        (body) => {
          validateLlmsTxt(body, ORIGIN);
          llmsTxtLinks(body, ORIGIN);
        },
        { from: 4 * KiB, to: MiB },
      ),
    { examples: ["- [Page {i}](https://site.test/p{i})\n"] },
  );
});

Deno.test("[cpu] sitemaps: the health reading and the sampled entries grow linearly (5 MiB)", () => {
  const units = unitOf(
    [
      "<url><loc>https://site.test/p{i}</loc><lastmod>2024-01-01</lastmod></url>\n",
      "<url>",
      "<URL><loc>" + " ".repeat(20),
      "<loc>" + " ".repeat(30) + "x",
      "<lastmod>" + "\t".repeat(20),
      "<sitemap><loc>https://site.test/s{i}.xml</loc></sitemap>",
    ],
    ["<", ">", "/", " ", "url"],
  );
  assertLinearFor(
    "sitemaps",
    units,
    (unit) =>
      assertLinearCpu(
        "sitemap",
        (size) => `<?xml version="1.0"?><urlset>${repeatTo(unit, size)}`,
        (body) => {
          readSitemap(body, "site.test");
          for (const _ of sitemapEntries(body)) { /* read them all */ }
        },
        { from: 8 * KiB, to: 5 * MiB },
      ),
    { runs: 1, examples: ["<URL><loc>" + " ".repeat(20)] },
  );
});

Deno.test("[cpu] site names: the corroborated choice grows linearly (LEGAL_FORMS was exponential)", () => {
  const base = extractPageFacts("<html><head><title>x</title></head></html>", ORIGIN);
  const units = unitOf(
    ["   co", " ,  ltd", " inc.", "\t | ", " - ", "  ·  ", " The Co", "Feb. 1 ", " sa"],
    [" ", ",", ".", "|", "\t"],
  );
  assertLinearFor(
    "site names",
    units,
    (unit) =>
      assertLinearCpu("site name", (size) => `Acme${repeatTo(unit, size)}`, (name) => {
        const facts = {
          ...base,
          title: `${name} | ${name}`,
          openGraph: { "og:site_name": name },
          meta: { "application-name": name },
        };
        const nodes = [{ types: ["Organization"], id: null, data: { name } }, {
          types: ["WebSite"],
          id: null,
          data: { name: `${name}x` },
        }];
        siteNameChoice(facts, nodes, "acme.test");
      }, { from: 10, to: MiB, factor: 1.1, fineUpTo: KiB }),
    { runs: 1, examples: ["   co", "\t | "] },
  );
});

Deno.test("[cpu] bylines: names split and trimmed in linear time (a 1 MB author)", () => {
  const units = unitOf(
    [",", " ; ", " and ", "  \t  ", "·•—–", "Ann Poe, ", "By ", "-|-", ", Bo Li and "],
    [" ", ",", ";", "-", "\t"],
  );
  assertLinearFor(
    "bylines",
    units,
    (unit) =>
      assertLinearCpu("byline", (size) => `Ann${repeatTo(unit, size)}x`, (byline) => {
        splitAuthors(byline);
        splitPeople(byline);
      }, { from: 64, to: MiB }),
    { runs: 1, examples: [",", "  \t  "] },
  );
});

Deno.test("[cpu] headers: Content-Signal, Content-Usage, X-Robots-Tag and Link grow linearly (64 KiB)", () => {
  const units = unitOf(
    [
      "search=yes, ",
      "train-ai=n,",
      " ".repeat(20) + "=",
      "noindex, nofollow, ",
      "googlebot: noindex, ",
      "max-snippet:" + "9".repeat(10) + ", ",
      '<https://site.test/llms.txt>; rel="alternate"; type="text/markdown", ',
      '<a{i}>; rel="' + " ".repeat(10),
      ";;;;",
    ],
    [",", ";", " ", "=", ":", "<", ">", '"'],
  );
  assertLinearFor(
    "headers",
    units,
    (unit) =>
      assertLinearCpu("header", (size) => repeatTo(unit, size), (value) => {
        readUsagePreferences(null, { "content-signal": value, "content-usage": value });
        readDirectives({ robots: value }, [value, value]);
        readLinkHeader(value, ORIGIN);
      }, { from: 256, to: 64 * KiB }),
    { runs: 3 },
  );
});

Deno.test("[cpu] the helper's bound catches a quadratic parser (control)", () => {
  // Without this control a broken helper would pass everything: an array-scan de-duplication,
  // the old llms.txt links' shape, must fail the property.
  const quadratic = (text: string) => {
    const out: string[] = [];
    for (const line of text.split("\n")) if (!out.includes(line)) out.push(line);
    return out;
  };
  let failed = false;
  try {
    assertLinearCpu("control", (size) => repeatTo("line {i}\n", size), quadratic, {
      from: 4 * KiB,
      to: 512 * KiB,
    });
  } catch {
    failed = true;
  }
  if (!failed) throw new Error("a quadratic de-duplication passed the linear-CPU bound");
});
