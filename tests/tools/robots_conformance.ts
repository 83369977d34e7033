/**
 * Measures the robots.txt matcher against the shared real-world corpus (read in place, never
 * copied): Google's robots.txt test suite ported to our tokens, and the home-page verdicts of
 * Google's own matcher on real robots.txt files, counting only the crawlers Google's verdicts cover
 * (the registry also holds crawlers the reference data has no verdict for).
 *
 *   deno run -A --config deno.json tests/tools/robots_conformance.ts [../shared/corpus/visibility]
 */
import {
  analyseRobots,
  parseRobotsTxt,
  robotsVerdict,
} from "../../lib/engines/visibility/robots.ts";
import { outcomeOf } from "../../lib/engines/visibility/robots_fix.ts";

const dir = Deno.args[0] ?? "../shared/corpus/visibility";

const cases = JSON.parse(await Deno.readTextFile(`${dir}/material/google_robotstxt/cases.json`))
  .cases as {
    kind: string;
    ua: string | null;
    url: string;
    robots: string;
    expected?: boolean;
    sitemap?: string;
  }[];
const tally: Record<string, [number, number]> = {};
for (const c of cases) {
  const a = analyseRobots(outcomeOf(c.robots, new URL("/robots.txt", c.url).href), c.url);
  const ok = c.ua === null
    ? a.sitemaps.includes(c.sitemap!)
    : a.crawlers.find((x) => x.token === c.ua)?.allowed === c.expected;
  const kind = c.kind.startsWith("RFC") ? "RFC 9309" : "Google-only or API";
  tally[kind] ??= [0, 0];
  tally[kind][0] += ok ? 1 : 0;
  tally[kind][1]++;
}
for (const [k, [agree, total]] of Object.entries(tally)) {
  console.log(`google/robotstxt cases, ${k}: ${agree} / ${total} agree`);
}

const verdicts = JSON.parse(
  await Deno.readTextFile(`${dir}/expected/google_home_verdicts.json`),
).verdicts as Record<string, Record<string, boolean>>;
let agree = 0, total = 0;
const differ: string[] = [];
for (const [file, v] of Object.entries(verdicts)) {
  const text = new TextDecoder().decode(await Deno.readFile(`${dir}/material/robots/${file}`));
  const parsed = parseRobotsTxt(text);
  for (const [token, expected] of Object.entries(v)) {
    // RandomUnlistedBot stands for any crawler without a group: the * group's verdict.
    const allowed = robotsVerdict(parsed, token, "/").allowed;
    total++;
    if (allowed === expected) agree++;
    else differ.push(`${file} ${token}: ours ${allowed}, Google ${expected}`);
  }
}
console.log(
  `real robots.txt files (${
    Object.keys(verdicts).length
  }), home-page verdicts: ${agree} / ${total} agree`,
);
for (const d of differ) console.log(`  differs: ${d}`);
