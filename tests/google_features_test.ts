/**
 * Google's rich-result features as modules in one registry (lib/engines/structured/google/): every entry
 * sourced and dated, the feature table in docs/schema.md generated from it, a feature added
 * through the registry alone reaching the table, the rules, eligibility and the docs, FAQ as
 * Google documents it since 2026-05-07, and one verdict per fact (an offer's price and currency).
 */
import assert from "node:assert/strict";
import { analysePage } from "../lib/engines/schema/scan.ts";
import type { Result } from "../lib/engines/structured/record.ts";
import {
  featureTableMarkdown,
  generatorPrimaryTypes,
  googleFeature,
  googleFeatures,
  registerGoogleFeature,
} from "../lib/engines/structured/google/registry.ts";
import { required } from "../lib/engines/structured/google/rule_kit.ts";
import { PAGE_TYPES } from "../lib/engines/structured/page_graph.ts";
import { analyseFixture } from "./helpers/schema_fixtures.ts";
import { datedSourceProblems } from "../lib/kit/dated_source.ts";

const URL_ = "https://shop.test/item";

function analyse(data: unknown, url = URL_): Result {
  const html = `<html><head><script type="application/ld+json">${
    JSON.stringify(data)
  }</script></head><body></body></html>`;
  return analysePage(html, {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 0,
  }, new URL(url).hostname);
}

Deno.test("[google features] every entry names Google's page and the day it was checked", () => {
  for (const f of googleFeatures()) {
    assert.deepEqual(datedSourceProblems(f), [], f.name);
    assert.match(f.url, /^https:\/\/developers\.google\.com\/search\//, f.name);
    if (f.status !== "supported") assert.ok(f.note, `${f.name}: what the status means`);
    if (f.status === "deprecated") assert.match(f.since ?? "", /^\d{4}-\d{2}/, f.name);
    if (f.status === "supported") assert.equal(f.since, null, f.name);
  }
});

Deno.test("[google features] a feature without a source or a date is refused by the check", () => {
  // The check above is real: the same assertions fail on an entry that lacks either.
  const recipe = googleFeature("Recipe")!;
  assert.deepEqual(datedSourceProblems({ ...recipe, url: "" }), ["no source URL"]);
  assert.deepEqual(datedSourceProblems({ ...recipe, checked: "" }), [
    "no checked-on date (YYYY-MM-DD)",
  ]);
});

Deno.test("[google features] FAQ is retired since 2026-05-07, as Google's FAQ page says", () => {
  const f = googleFeature("FAQ")!;
  assert.equal(f.status, "deprecated");
  assert.equal(f.since, "2026-05-07");
  const r = analyse({
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: [{
      "@type": "Question",
      name: "Do you ship abroad?",
      acceptedAnswer: { "@type": "Answer", text: "Yes, to 30 countries." },
    }],
  });
  const e = r.eligibility!.find((x) => x.feature === "FAQ")!;
  assert.equal(e.status, "not eligible");
  assert.match(e.reasons[0], /2026-05-07/);
  assert.match(e.reasons[0], /schema\.org\/FAQPage/, "what the markup may still do");
  assert.doesNotMatch(e.reasons.join(" "), /government and health sites get|restricted/);
  assert.equal(r.summary.errors, 0, "retired is a note, not an error");
  // Practice problems left Google too (changelog, 2026-01-06): a note, not rule findings.
  const quiz = analyse({ "@context": "https://schema.org", "@type": "Quiz", name: "Fractions" });
  assert.ok(quiz.deprecated.some((d) => d.feature === "Practice problem rich results"));
  assert.ok(!quiz.findings.some((x) => x.rule === "google:Practice problem"));
});

Deno.test("[google features] the generator's primary types come from the feature modules", () => {
  const types = generatorPrimaryTypes();
  for (const t of ["Article", "Product", "Event", "Recipe", "VideoObject"]) {
    assert.ok(types.includes(t), t);
  }
  for (const f of googleFeatures()) {
    if (f.status === "deprecated") {
      for (const t of f.generator?.primary ?? []) assert.ok(!types.includes(t), `${f.name}: ${t}`);
    }
  }
  // The visibility checker's "what is this page" types read the same modules.
  for (const t of types) assert.ok(PAGE_TYPES.includes(t), `PAGE_TYPES has ${t}`);
});

Deno.test("[google features] a feature added through the registry alone reaches the table, rules, eligibility and docs", () => {
  const remove = registerGoogleFeature({
    name: "Throwaway gadget",
    status: "supported",
    since: null,
    url: "https://developers.google.com/search/docs/appearance/structured-data/gadget",
    checked: "2026-11-26",
    rules: [{
      nodes: "a top-level Thing named Gadget",
      types: ["Thing"],
      where: (n) => n.parentTypes.length === 0,
      checks: [required("description", "what the gadget does")],
    }],
    generator: { primary: ["Thing"] },
  });
  try {
    assert.equal(googleFeature("Throwaway gadget")?.status, "supported");
    assert.ok(featureTableMarkdown().includes("| Throwaway gadget"), "the docs table lists it");
    assert.ok(generatorPrimaryTypes().includes("Thing"));
    const r = analyse({ "@context": "https://schema.org", "@type": "Thing", name: "Gizmo" });
    const e = r.eligibility!.find((x) => x.feature === "Throwaway gadget")!;
    assert.equal(e.status, "not eligible");
    assert.match(e.reasons[0], /description/);
    assert.equal(
      e.docs,
      "https://developers.google.com/search/docs/appearance/structured-data/gadget",
    );
    assert.ok(r.findings.some((f) => f.rule === "google:Throwaway gadget"));
  } finally {
    remove();
  }
  assert.equal(googleFeature("Throwaway gadget"), undefined);
  assert.ok(!featureTableMarkdown().includes("Throwaway gadget"));
});

const product = (offer: Record<string, unknown>) => ({
  "@context": "https://schema.org",
  "@type": "Product",
  name: "Kettle",
  image: "https://shop.test/kettle.jpg",
  offers: { "@type": "Offer", ...offer },
});

Deno.test("[google features] one verdict per fact: an unparsable price fails both product features, once", () => {
  const r = analyse(product({ price: "89.OO", priceCurrency: "USD" }));
  for (const feature of ["Product snippets", "Merchant listing"]) {
    const e = r.eligibility!.find((x) => x.feature === feature)!;
    assert.equal(e.status, "not eligible", feature);
    assert.ok(e.reasons.some((x) => x.includes("89.OO")), feature);
  }
  const price = r.findings.filter((f) => f.path === "Product.offers.price");
  assert.equal(price.length, 1, "one finding for one fact");
  assert.equal(price[0].severity, "error");
});

Deno.test("[google features] currencies are ISO 4217 codes; an invalid one is an error everywhere", () => {
  for (const bad of ["dollars", "usd", "XYZ", "$"]) {
    const r = analyse(product({ price: "89.00", priceCurrency: bad }));
    const f = r.findings.filter((x) => x.path === "Product.offers.priceCurrency");
    assert.equal(f.length, 1, bad);
    assert.equal(f[0].severity, "error", bad);
    for (const feature of ["Product snippets", "Merchant listing"]) {
      assert.equal(r.eligibility!.find((x) => x.feature === feature)!.status, "not eligible");
    }
  }
  const ok = analyse(product({ price: "89.00", priceCurrency: "CHF" }));
  assert.ok(!ok.findings.some((x) => x.path === "Product.offers.priceCurrency"));
});

Deno.test("[google features] merchant listings check shipping, returns and condition as Google documents", () => {
  const bare = analyse(product({ price: "89.00", priceCurrency: "EUR" }));
  const warned = bare.findings.filter((f) => f.rule === "google:Merchant listing").map((f) =>
    f.path
  );
  for (
    const p of [
      "Product.offers.shippingDetails",
      "Product.offers.hasMerchantReturnPolicy",
      "Product.offers.itemCondition",
    ]
  ) assert.ok(warned.includes(p), p);
  const condition = analyse(product({ price: "1", priceCurrency: "EUR", itemCondition: "new" }));
  assert.ok(
    condition.findings.some((f) =>
      f.path === "Product.offers.itemCondition" && /OfferItemCondition/.test(f.message)
    ),
  );
  // Google's complete example shape: no Merchant listing finding left.
  const full = analyseFixture("jsonld_product_valid");
  assert.deepEqual(full.findings.filter((f) => f.rule === "google:Merchant listing"), []);
  assert.equal(
    full.eligibility!.find((x) => x.feature === "Merchant listing")!.status,
    "eligible",
  );
});

Deno.test("[google features] author names as Google reads them: over 100 characters is no name", () => {
  const review = (name: string) => ({
    "@context": "https://schema.org",
    "@type": "Review",
    itemReviewed: { "@type": "Product", name: "Trail runner" },
    author: { "@type": "Person", name },
    reviewRating: { "@type": "Rating", ratingValue: 4 },
    datePublished: "2026-10-12",
  });
  const verdict = (r: Result, feature: string) =>
    r.eligibility?.find((e) => e.itemIndex === 0 && e.feature === feature);
  assert.equal(verdict(analyse(review("Bo Lind")), "Review snippet")?.status, "eligible");
  const long = "Best deals on trail running shoes, free shipping over 50 EUR, order today and save "
    .repeat(2);
  assert.ok(long.length > 100);
  const tooLong = verdict(analyse(review(long)), "Review snippet");
  assert.equal(tooLong?.status, "not eligible");
  assert.match(tooLong!.reasons.join(" "), /over 100 characters/);
  // Exactly 100 characters is still a name.
  assert.equal(verdict(analyse(review("A".repeat(100))), "Review snippet")?.status, "eligible");
  const article = (name: string) => ({
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: "How we roast",
    image: "https://shop.test/a.jpg",
    datePublished: "2026-10-12",
    dateModified: "2026-10-12",
    author: { "@type": "Person", name, url: "https://shop.test/anna" },
  });
  const intro = verdict(analyse(article("By Anna Reid")), "Article");
  assert.equal(intro?.status, "eligible with warnings");
  assert.match(intro!.reasons.join(" "), /without "By"/);
  const two = verdict(analyse(article("Willow Lane, Regula Felix")), "Article");
  assert.match(two!.reasons.join(" "), /names 2 people/);
  assert.equal(verdict(analyse(article("Poe, Ann")), "Article")?.status, "eligible");
});
