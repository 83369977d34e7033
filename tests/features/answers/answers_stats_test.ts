/**
 * Answer presence's counting, with seeded answers: Wilson 95% intervals against published values,
 * what counts as a mention and a citation (registrable domains, never a longer name that ends the
 * same), k of N per question and per provider, a change flagged only when the intervals separate,
 * and the default questions built from a site's own facts.
 */
import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { separated, wilson } from "../../../lib/features/answers/wilson.ts";
import { namesSite, presenceOf, siteOf } from "../../../lib/features/answers/presence.ts";
import { changesSince, tally } from "../../../lib/features/answers/results.ts";
import type { AnswerRun, ProviderResult, Sample } from "../../../lib/features/answers/run_types.ts";
import type { AnswerSource } from "../../../lib/features/answers/provider.ts";
import {
  defaultQuestions,
  ownerCompetitors,
  ownerQuestions,
} from "../../../lib/features/answers/questions.ts";
import { factsOfPage } from "../../../lib/features/answers/site_facts.ts";
import { extractPageFacts } from "../../../lib/engines/html/page_facts.ts";
import { BadRequestError } from "../../../lib/kit/errors.ts";

const SITE = { domain: "good.test", brand: "Good Coffee Roasters", competitors: [] as string[] };

Deno.test("answers stats - Wilson 95% intervals match published values", () => {
  // Brown, Cai & DasGupta (2001) and any Wilson calculator: 1 of 3, 5 of 10, 0 of 15, 15 of 15.
  assertEquals(wilson(1, 3), { k: 1, n: 3, low: 0.0615, high: 0.7923 });
  assertEquals(wilson(5, 10), { k: 5, n: 10, low: 0.2366, high: 0.7634 });
  assertEquals(wilson(0, 15), { k: 0, n: 15, low: 0, high: 0.2039 });
  assertEquals(wilson(15, 15), { k: 15, n: 15, low: 0.7961, high: 1 });
  assertEquals(wilson(0, 0), { k: 0, n: 0, low: 0, high: 1 });
  throws(() => wilson(4, 3), RangeError);
});

Deno.test("answers stats - a change only when the intervals separate", () => {
  // One question asked 3 times: from 0 of 3 to 3 of 3 the intervals still overlap.
  assertEquals(separated(wilson(0, 3), wilson(3, 3)), null);
  // Asked 4 times, the extremes separate (0-49% against 51-100%).
  assertEquals([wilson(0, 4).high, wilson(4, 4).low], [0.4899, 0.5101]);
  assertEquals(separated(wilson(0, 4), wilson(4, 4)), "up");
  // Over 5 questions x 3 answers, the same swing is a change either way.
  assertEquals(separated(wilson(0, 15), wilson(15, 15)), "up");
  assertEquals(separated(wilson(14, 15), wilson(1, 15)), "down");
  // 7 of 15 against 9 of 15: noise.
  assertEquals(separated(wilson(7, 15), wilson(9, 15)), null);
  assertEquals(separated(wilson(0, 0), wilson(3, 3)), null);
});

const src = (url: string, kind: "cited" | "retrieved" = "cited", host?: string): AnswerSource => ({
  url,
  title: null,
  host: host ?? new URL(url).hostname,
  kind,
  rank: 1,
});

/** The four verdicts of a presence (the rank and marks are tested apart). */
const verdicts = (p: ReturnType<typeof presenceOf>) => ({
  mentioned: p.mentioned,
  cited: p.cited,
  competitorOnly: p.competitorOnly,
  retrievedNotCited: p.retrievedNotCited,
});

Deno.test("answers stats - a mention is the brand as a phrase or the domain, never a longer name", () => {
  assert(namesSite("Try GOOD  coffee roasters.", SITE));
  assert(namesSite("See good.test or shop.good.test", SITE));
  assert(
    namesSite("Good Coffee Roaster’s beans", {
      domain: "x.example",
      brand: "Good Coffee Roaster's",
    }),
  );
  assert(!namesSite("notgood.test sells coffee", SITE));
  assert(!namesSite("Good Coffee Roastersville is a town", SITE));
  assert(!namesSite("good.testing.example", SITE));
  // A brand under 3 characters is not looked for (too many false matches); the domain still is.
  assert(!namesSite("an ox is here", { domain: "ox.example", brand: "ox" }));
  assert(namesSite("visit ox.example", { domain: "ox.example", brand: "ox" }));
});

Deno.test("answers stats - cited means a cited source on the registrable domain", () => {
  assertEquals(siteOf("WWW.Shop.Example.co.uk"), "example.co.uk");
  assertEquals(siteOf("user.github.io"), "user.github.io");
  const a = (sources: AnswerSource[], text = "Some roasters.") =>
    presenceOf({ text, sources }, SITE);
  assertEquals(a([src("https://blog.good.test/x")]).cited, true);
  assertEquals(a([src("https://good.test.evil.example/")]).cited, false);
  assertEquals(verdicts(a([src("https://good.test/", "retrieved")])), {
    mentioned: false,
    cited: false,
    competitorOnly: false,
    retrievedNotCited: true,
  });
  // A source whose site is unknown (a redirect with no name) counts for no site.
  assertEquals(
    verdicts(a([{ ...src("https://vertexaisearch.cloud.google.com/r/1"), host: null }])),
    {
      mentioned: false,
      cited: false,
      competitorOnly: false,
      retrievedNotCited: false,
    },
  );
  // Competitor only: the site absent and another site cited; with a list, a listed one.
  assertEquals(a([src("https://rival.example/")]).competitorOnly, true);
  assertEquals(
    a([src("https://rival.example/")], "Good Coffee Roasters too.").competitorOnly,
    false,
  );
  const listed = { ...SITE, competitors: ["other.example"] };
  assertEquals(
    presenceOf({ text: "x", sources: [src("https://rival.example/")] }, listed).competitorOnly,
    false,
  );
  assertEquals(
    presenceOf({ text: "x", sources: [src("https://www.other.example/")] }, listed).competitorOnly,
    true,
  );
});

function sample(question: number, index: number, p: Partial<Sample["presence"]> | null): Sample {
  return {
    provider: "perplexity",
    question,
    index,
    at: 0,
    ok: p !== null,
    text: p ? "answer" : "",
    cut: false,
    sources: [],
    sourceTotal: { cited: 0, retrieved: 0 },
    queries: [],
    presence: p
      ? {
        mentioned: false,
        cited: false,
        competitorOnly: false,
        retrievedNotCited: false,
        citedRank: null,
        voice: [],
        citedSites: [],
        ...p,
      }
      : null,
    failure: p ? null : "server_error",
    status: p ? 200 : 500,
    code: null,
    usage: null,
    model: null,
  };
}

Deno.test("answers stats - k of N per question and overall; a failed call is not an absence", () => {
  const samples = [
    sample(0, 0, { mentioned: true, cited: true }),
    sample(0, 1, { mentioned: true }),
    sample(0, 2, { competitorOnly: true }),
    sample(1, 0, { cited: true }),
    sample(1, 1, null),
    sample(1, 2, { retrievedNotCited: true }),
  ];
  const t = tally(samples, 2);
  assertEquals(t.questions.map((q) => [q.asked, q.answered]), [[3, 3], [3, 2]]);
  assertEquals(t.questions[0].measures.mentioned, wilson(2, 3));
  assertEquals(t.questions[0].measures.cited, wilson(1, 3));
  assertEquals(t.questions[0].measures.competitorOnly, wilson(1, 3));
  assertEquals(t.questions[1].measures.cited, wilson(1, 2));
  assertEquals(t.overall.cited, wilson(2, 5));
  assertEquals(t.overall.retrievedNotCited, wilson(1, 5));
});

function runOf(questions: string[], samples: Sample[]): AnswerRun {
  const t = tally(samples, questions.length);
  const provider = {
    id: "perplexity",
    questions: t.questions,
    overall: t.overall,
  } as unknown as ProviderResult;
  return {
    questions: questions.map((text) => ({ text, basis: "", namesSite: false })),
    providers: [provider],
  } as unknown as AnswerRun;
}

Deno.test("answers stats - changes between runs: flagged only when intervals separate", () => {
  const qs = ["q one?", "q two?", "q three?", "q four?", "q five?"];
  const all = (cited: boolean) =>
    qs.flatMap((_, q) => [0, 1, 2].map((i) => sample(q, i, { cited })));
  const before = runOf(qs, all(false));
  const after = runOf(qs, all(true));
  const changes = changesSince(before, after, after.providers[0]);
  // Per question 0/3 -> 3/3 overlaps: no change; over the 15 answers it is one.
  assertEquals(changes.map((c) => [c.question, c.measure, c.direction]), [[null, "cited", "up"]]);
  // One answer fewer cited: still the same provider-wide rate within noise.
  const almost = runOf(
    qs,
    all(false).map((s, i) => i < 2 ? sample(s.question, s.index, { cited: true }) : s),
  );
  assertEquals(changesSince(before, almost, almost.providers[0]), []);
  // Different question sets: only the shared questions compare, never the overall rate.
  const other = runOf(["q one?", "another?"], [0, 1, 2].map((i) => sample(0, i, { cited: true })));
  assertEquals(changesSince(before, other, other.providers[0]), []);
  assertEquals(changesSince(null, after, after.providers[0]), []);
});

Deno.test("answers stats - default questions come from the site's own facts, with their basis", async () => {
  const html = await Deno.readTextFile(
    new URL("../../fixtures/sites/good.test/index.html", import.meta.url),
  );
  const facts = factsOfPage(extractPageFacts(html, "https://good.test/"), "good.test");
  assertEquals(facts.brand, {
    text: "Good Coffee Roasters",
    source: "the structured data's WebSite name",
  });
  assertEquals(facts.offers[0], { text: "Fresh Small-Batch Coffee", source: "the page title" });
  const qs = defaultQuestions(facts);
  assertEquals(qs.map((q) => [q.text, q.namesSite]), [
    ["What is Good Coffee Roasters?", true],
    ["Where can I find Fresh Small-Batch Coffee?", false],
  ]);
  assert(qs[1].basis.includes("the page title"));

  const shop = extractPageFacts(
    `<html><head><title>Beans | Corner Cafe</title><script type="application/ld+json">
      {"@context":"https://schema.org","@type":"CafeOrCoffeeShop","name":"Corner Cafe",
       "address":{"@type":"PostalAddress","addressLocality":"Leeds"},
       "makesOffer":{"@type":"Offer","itemOffered":{"@type":"Product","name":"Espresso beans"}}}
    </script></head><body></body></html>`,
    "https://corner.example/",
  );
  const cafe = defaultQuestions(factsOfPage(shop, "corner.example"));
  assertEquals(cafe.map((q) => q.text), [
    "What is Corner Cafe?",
    "Where can I find Espresso beans?",
    "Can you recommend a cafe or coffee shop in Leeds?",
  ]);
  // A page that states nothing: the domain is the name, one question.
  const bare = factsOfPage(
    extractPageFacts("<html><body>hi</body></html>", "https://x.example/"),
    "x.example",
  );
  assertEquals(defaultQuestions(bare).map((q) => q.text), ["What is x.example?"]);
});

Deno.test("answers stats - the owner's questions and competitors are checked", () => {
  const site = { domain: "good.test", brand: "Good Coffee Roasters" };
  const qs = ownerQuestions(["  Best   coffee subscription? ", "Is good.test any good?"], 5, site);
  assertEquals(qs.map((q) => [q.text, q.namesSite, q.basis]), [
    ["Best coffee subscription?", false, "written by the site's owner"],
    ["Is good.test any good?", true, "written by the site's owner"],
  ]);
  throws(() => ownerQuestions([], 5, site), BadRequestError);
  throws(() => ownerQuestions(["short"], 5, site), BadRequestError);
  throws(() => ownerQuestions(["Same question?", "same question?"], 5, site), BadRequestError);
  throws(
    () => ownerQuestions(Array(6).fill("A question here?").map((q, i) => q + i), 5, site),
    BadRequestError,
  );
  assertEquals(
    ownerCompetitors([
      "https://www.Rival.co.uk/beans",
      "rival.co.uk",
      "good.test",
      "shop.other.example",
    ], "good.test"),
    { domains: ["rival.co.uk", "other.example"], names: {} },
  );
  assertEquals(
    ownerCompetitors(["rival-roasters.example = Rival  Roasters"], "good.test"),
    { domains: ["rival-roasters.example"], names: { "rival-roasters.example": "Rival Roasters" } },
  );
  throws(() => ownerCompetitors(["rival.example = x"], "good.test"), BadRequestError);
  throws(() => ownerCompetitors(["not a domain"], "good.test"), BadRequestError);
});
