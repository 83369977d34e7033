/**
 * The one model of access holds as properties, not examples (issue 40): fast-check generates
 * fixture sites (tests/fixtures/access_sites.ts: a set of crawlers turned away by one path, the
 * features a check asks for) and the real scanner reads them over loopback, in process.
 *
 * - Fixture sites for each path (robots.txt, robots meta, X-Robots-Tag, edge 403, edge challenge
 *   page, edge 429) turning away the same set score the same, within {@link TOLERANCE}.
 * - Refusing a superset of crawlers, by any path, never scores higher (same tolerance).
 * - Adding a thing a check asks for never lowers the score.
 * - The same site scanned twice gives the same score and issues.
 * - The line under the score agrees with the products section below it.
 *
 * TOLERANCE: the same set costs exactly the same by every path, except a robots.txt block of a
 * user fetcher whose vendor says it may not follow robots.txt (ChatGPT-User, Perplexity-User,
 * Meta-ExternalFetcher and Google's user-triggered fetchers, `may_ignore` in the registry), which
 * costs half (it may fetch anyway; the edge is the real test for it). All of them blocked by
 * robots.txt rather than at the edge: half of their weight 12 of the fetchers' 21, of 4 points, of
 * the access pillar's 40, of its weight 29: 0.83 of the unrounded 0-100 score. Stated: 1 point,
 * unrounded and rounded.
 *
 * CPU: a few runs per property (fast-check's seed fixed, FC_SEED to change it), three pages per
 * site, every scan of one spec done once (cached): about 80 scans of a small site.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { renderToString } from "preact-render-to-string";
import { h } from "preact";
import { scanSite } from "../lib/engines/visibility/scan.ts";
import { overall } from "../lib/engines/visibility/score.ts";
import { CRAWLERS, mayIgnoreRobots } from "../lib/engines/visibility/crawlers.ts";
import type { Result } from "../lib/engines/visibility/record.ts";
import { ReportSummary } from "../lib/features/visibility/views/report_summary.tsx";
import { PRODUCTS } from "../lib/engines/visibility/products.ts";
import {
  type AccessPath,
  type AccessSites,
  type AccessSiteSpec,
  ALL_FEATURES,
  type SiteFeatures,
  startAccessSites,
} from "./fixtures/access_sites.ts";

/** What the same set may cost more or less by one path than by another (see the header). */
const TOLERANCE = { unrounded: 1, rounded: 1 };

const NOW = new Date("2026-12-06T12:00:00Z");
const SEED = Number(Deno.env.get("FC_SEED") ?? 40);

/** Crawlers that count and that every path can turn away: search crawlers with a User-Agent. */
const SEARCH = CRAWLERS.filter((c) => c.counts && c.role === "search" && c.userAgent)
  .map((c) => c.token);
/** User fetchers that count and have a User-Agent (robots.txt and the edge can turn them away). */
const USER = CRAWLERS.filter((c) => c.counts && c.role === "user" && c.userAgent)
  .map((c) => c.token);

const EVERY_PATH: readonly Exclude<AccessPath, "none">[] = [
  "robots",
  "meta",
  "xrt",
  "edge403",
  "challenge",
  "edge429",
];
/** The paths that can turn a user fetcher away (page directives concern indexing only). */
const FETCH_PATHS = ["robots", "edge403", "challenge", "edge429"] as const;

let sites: AccessSites;
const cache = new Map<string, Promise<Result>>();

/** The scan of a spec (once per spec: a site is registered and scanned the first time). */
function scan(spec: AccessSiteSpec): Promise<Result> {
  const key = JSON.stringify(spec);
  let known = cache.get(key);
  if (!known) {
    const host = sites.add(spec);
    known = scanSite(host, { config: sites.config, now: () => NOW, pages: 3 })
      .then((o) => o.record.result!);
    cache.set(key, known);
  }
  return known;
}

/** The unrounded score before caps, and the score shown. */
function scores(r: Result): { unrounded: number; score: number; cap: number | null } {
  const o = overall(r.pillars);
  return { unrounded: o.uncapped, score: r.score, cap: o.cap };
}

/** Whether a set includes a fetcher whose robots.txt block costs half. */
const halfCost = (tokens: readonly string[]) => tokens.some(mayIgnoreRobots);

function withSites(name: string, fn: () => Promise<void>): void {
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      sites = startAccessSites();
      cache.clear();
      try {
        await fn();
      } finally {
        await sites.close();
      }
    },
  });
}

withSites(
  "[access] fixture sites turning the same crawlers away by each path score the same",
  async () => {
    const search = ["OAI-SearchBot", "Claude-SearchBot", "PerplexityBot"];
    const all = await Promise.all(EVERY_PATH.map((path) => scan({ path, refuse: search })));
    const base = scores(all[0]);
    for (const [i, r] of all.entries()) {
      const s = scores(r);
      assert.ok(Math.abs(s.unrounded - base.unrounded) < 1e-9, `${EVERY_PATH[i]}: ${s.unrounded}`);
      assert.equal(s.score, base.score, EVERY_PATH[i]);
    }
    const open = scores(await scan({ path: "none", refuse: [] }));
    assert.ok(open.unrounded > base.unrounded, "turning them away costs points");
    // Search crawlers and user fetchers, by robots.txt and at the edge: within the tolerance (the
    // robots.txt block of ChatGPT-User and Perplexity-User costs half).
    const both = [...search, "ChatGPT-User", "Claude-User", "Perplexity-User"];
    const fetch = await Promise.all(FETCH_PATHS.map((path) => scan({ path, refuse: both })));
    const edge = scores(fetch[1]);
    for (const [i, r] of fetch.entries()) {
      const s = scores(r);
      assert.ok(
        Math.abs(s.unrounded - edge.unrounded) <= TOLERANCE.unrounded,
        `${FETCH_PATHS[i]}: ${s.unrounded} vs ${edge.unrounded}`,
      );
      assert.ok(Math.abs(s.score - edge.score) <= TOLERANCE.rounded, FETCH_PATHS[i]);
    }
    // The three edge paths are exactly equal (no half cost there).
    for (const r of fetch.slice(1)) {
      assert.ok(Math.abs(scores(r).unrounded - edge.unrounded) < 1e-9);
    }
  },
);

withSites(
  "[access] property: the same search crawlers turned away by any two paths cost the same",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(SEARCH, { minLength: 1 }),
        fc.constantFrom(...EVERY_PATH),
        fc.constantFrom(...EVERY_PATH),
        async (refuse, p, q) => {
          const a = scores(await scan({ path: p, refuse }));
          const b = scores(await scan({ path: q, refuse }));
          assert.ok(
            Math.abs(a.unrounded - b.unrounded) < 1e-9,
            `${p} ${a.unrounded}, ${q} ${b.unrounded}`,
          );
          assert.equal(a.cap, b.cap);
          assert.equal(a.score, b.score);
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  },
);

withSites(
  "[access] property: the same search crawlers and fetchers turned away by robots.txt or the edge cost the same, within the tolerance",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...SEARCH, ...USER], { minLength: 1 }),
        fc.constantFrom(...FETCH_PATHS),
        fc.constantFrom(...FETCH_PATHS),
        async (refuse, p, q) => {
          const a = scores(await scan({ path: p, refuse }));
          const b = scores(await scan({ path: q, refuse }));
          const exact = !halfCost(refuse) || (p !== "robots" && q !== "robots");
          const d = Math.abs(a.unrounded - b.unrounded);
          assert.ok(exact ? d < 1e-9 : d <= TOLERANCE.unrounded, `${p}/${q}: ${d}`);
          assert.ok(Math.abs(a.score - b.score) <= (exact ? 0 : TOLERANCE.rounded));
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  },
);

withSites(
  "[access] property: refusing a superset of crawlers, by any path, never scores higher",
  async () => {
    // A base set and more crawlers, each set turned away by a path that can turn all of it away.
    const spec = fc.subarray([...SEARCH, ...USER], { maxLength: SEARCH.length + USER.length - 1 })
      .chain((base) =>
        fc.record({
          base: fc.constant(base),
          more: fc.subarray([...SEARCH, ...USER].filter((t) => !base.includes(t)), {
            minLength: 1,
          }),
          p: fc.constantFrom(...pathsFor(base)),
        }).chain(({ base, more, p }) =>
          fc.record({
            base: fc.constant(base),
            more: fc.constant(more),
            p: fc.constant(p),
            q: fc.constantFrom(...pathsFor([...base, ...more])),
          })
        )
      );
    await fc.assert(
      fc.asyncProperty(spec, async ({ base, more, p, q }) => {
        const less = scores(await scan({ path: base.length ? p : "none", refuse: base }));
        const superset = [...base, ...more];
        const most = scores(await scan({ path: q, refuse: superset }));
        const tol = halfCost(superset) && (p === "robots" || q === "robots") ? TOLERANCE : {
          unrounded: 1e-9,
          rounded: 0,
        };
        assert.ok(
          most.unrounded <= less.unrounded + tol.unrounded,
          `${q} ${superset}: ${most.unrounded} > ${p} ${base}: ${less.unrounded}`,
        );
        assert.ok(most.score <= less.score + tol.rounded, `${most.score} > ${less.score}`);
      }),
      { numRuns: 20, seed: SEED },
    );
  },
);

/** The paths that can turn every crawler of a set away (noindex only concerns search crawlers). */
function pathsFor(tokens: readonly string[]): Exclude<AccessPath, "none">[] {
  return tokens.every((t) => SEARCH.includes(t)) ? [...EVERY_PATH] : [...FETCH_PATHS];
}

withSites("[access] property: adding a thing a check asks for never lowers the score", async () => {
  const keys = Object.keys(ALL_FEATURES) as (keyof SiteFeatures)[];
  const features = fc.record(
    Object.fromEntries(keys.map((k) => [k, fc.boolean()])) as Record<
      keyof SiteFeatures,
      fc.Arbitrary<boolean>
    >,
  );
  await fc.assert(
    fc.asyncProperty(
      features.filter((f) => keys.some((k) => !f[k])),
      fc.nat(),
      fc.subarray(SEARCH, { maxLength: 2 }),
      async (f, pick, refuse) => {
        const missing = keys.filter((k) => !f[k]);
        const add = missing[pick % missing.length];
        const path = refuse.length ? "robots" as const : "none" as const;
        const before = scores(await scan({ path, refuse, features: f }));
        const after = scores(await scan({ path, refuse, features: { ...f, [add]: true } }));
        assert.ok(after.score >= before.score, `adding ${add}: ${before.score} -> ${after.score}`);
        assert.ok(
          after.unrounded >= before.unrounded - 1e-9,
          `adding ${add}: ${before.unrounded} -> ${after.unrounded}`,
        );
      },
    ),
    { numRuns: 20, seed: SEED },
  );
});

withSites(
  "[access] property: the same site scanned twice gives the same score and issues",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<AccessPath>("none", ...EVERY_PATH),
        fc.subarray(SEARCH),
        async (path, refuse) => {
          const spec = { path, refuse };
          const host = sites.add(spec);
          const twice = await Promise.all(
            [0, 1].map(() =>
              scanSite(host, { config: sites.config, now: () => NOW, pages: 3 }).then((o) =>
                o.record.result!
              )
            ),
          );
          assert.equal(twice[0].score, twice[1].score);
          assert.deepEqual(
            twice[0].topIssues.map((i) => [i.id, i.title, i.impact, i.worth]),
            twice[1].topIssues.map((i) => [i.id, i.title, i.impact, i.worth]),
          );
        },
      ),
      { numRuns: 8, seed: SEED },
    );
  },
);

withSites(
  "[access] property: the line under the score agrees with the products section",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...SEARCH, ...USER], { minLength: 0 }).chain((refuse) =>
          fc.record({ refuse: fc.constant(refuse), path: fc.constantFrom(...pathsFor(refuse)) })
        ),
        async ({ refuse, path }) => {
          const result = await scan({ path: refuse.length ? path : "none", refuse });
          const record = {
            domain: "example.test",
            status: "ok" as const,
            scannedAt: NOW.toISOString(),
            result,
            offSite: null,
          };
          const html = renderToString(h(ReportSummary, { record }));
          const doc = parseHTML(html).document;
          const line = doc.querySelector(".score-reason")!.textContent!.replace(/\s+/g, " ");
          const said = line.split("First fix:")[0];
          for (const p of PRODUCTS.filter((x) => x.major)) {
            const state = (count: string) =>
              doc.querySelector(`[data-product="${p.id}"] [data-count="${count}"]`)
                ?.getAttribute("data-state");
            const affected = ["no", "partly"].includes(state("search") ?? "") ||
              ["no", "partly"].includes(state("user") ?? "");
            assert.equal(
              said.includes(p.short),
              affected,
              `${p.short}: the line "${said}" vs the section (${state("search")}, ${
                state("user")
              })`,
            );
          }
          // The cause the line names is the path that turned them away.
          if (refuse.some((t) => CRAWLERS.find((c) => c.token === t)?.major)) {
            const words = path === "robots"
              ? /robots\.txt/
              : path === "meta" || path === "xrt"
              ? /noindex/
              : /your CDN/;
            assert.match(said, words, `${path}: ${said}`);
          }
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  },
);
