/**
 * One DatedSource (lib/kit/dated_source.ts): every registry spells a source `{url, checked}` and
 * every entry passes the one check, whichever tier the registry lives in: the crawlers, the shared
 * learn sources and each signal's, the formats we read, Google's features, the crawlers that
 * render, the log formats and the crawlers' verification rules, answer presence's vendor docs.
 */
import assert from "node:assert/strict";
import { type DatedSource, datedSourceProblems } from "../lib/kit/dated_source.ts";
import { REGISTRY } from "../lib/engines/visibility/crawlers_registry.ts";
import { CRAWLER_RENDERING } from "../lib/engines/visibility/crawlers.ts";
import { SOURCES } from "../lib/engines/visibility/sources.ts";
import { standards } from "../lib/engines/visibility/standards.ts";
import { registeredSignals } from "../lib/engines/visibility/learn.ts";
import { googleFeatures } from "../lib/engines/structured/google/registry.ts";
import { PROVIDERS } from "../lib/features/answers/providers.ts";
import { FORMATS } from "../lib/features/logs/formats.ts";
import { REVERSE_DNS, SIGNING_AGENTS } from "../lib/features/logs/verify_sources.ts";

/** Every registry's dated sources, each named for the failure message. */
function everySource(): [string, DatedSource][] {
  return [
    ...REGISTRY.map((c): [string, DatedSource] => [`crawler ${c.token}`, c]),
    ...Object.entries(SOURCES).map(([k, s]): [string, DatedSource] => [`source ${k}`, s]),
    ...registeredSignals().flatMap((signal) =>
      signal.learn.sources.map((s): [string, DatedSource] => [`signal ${signal.id}`, s])
    ),
    ...standards().map((s): [string, DatedSource] => [`standard ${s.id}`, s]),
    ...googleFeatures().map((f): [string, DatedSource] => [`Google feature ${f.name}`, f]),
    // The crawlers that render ride in records, which spell their source `source`.
    ...CRAWLER_RENDERING.map((c): [string, DatedSource] => [
      `rendering ${c.token}`,
      { url: c.source, checked: c.checked },
    ]),
    ...PROVIDERS.flatMap((p) =>
      p.docs.map((d): [string, DatedSource] => [`vendor doc ${p.id}`, d])
    ),
    ...FORMATS.map((f): [string, DatedSource] => [`log format ${f.id}`, f]),
    ...Object.entries(REVERSE_DNS).map(([t, r]): [string, DatedSource] => [`reverse DNS ${t}`, r]),
    ...SIGNING_AGENTS.map((a): [string, DatedSource] => [`signing agent ${a.host}`, a]),
  ];
}

Deno.test("[dated sources] the check refuses a missing or plain-http URL and a date that is not a day", () => {
  const good = { url: "https://example.com/docs", checked: "2026-11-26" };
  assert.deepEqual(datedSourceProblems(good), []);
  assert.deepEqual(datedSourceProblems({ ...good, url: "" }), ["no source URL"]);
  assert.deepEqual(datedSourceProblems({ ...good, url: "http://example.com/" }), [
    "not an https URL: http://example.com/",
  ]);
  assert.deepEqual(datedSourceProblems({ ...good, checked: "2026-02-30" }), [
    "no checked-on date (YYYY-MM-DD): 2026-02-30",
  ]);
  assert.deepEqual(datedSourceProblems({ url: good.url }), ["no checked-on date (YYYY-MM-DD)"]);
});

Deno.test("[dated sources] every entry of every registry names an https page and the day it was read", () => {
  const sources = everySource();
  // Each registry is really read (a registry emptied by mistake would pass vacuously).
  for (
    const kind of [
      "crawler",
      "source",
      "signal",
      "standard",
      "Google feature",
      "rendering",
      "vendor doc",
      "log format",
      "reverse DNS",
      "signing agent",
    ]
  ) {
    assert.ok(sources.some(([name]) => name.startsWith(`${kind} `)), `no ${kind} read`);
  }
  const bad = sources.flatMap(([name, s]) =>
    datedSourceProblems(s).map((problem) => `${name}: ${problem}`)
  );
  assert.deepEqual(bad, []);
});
