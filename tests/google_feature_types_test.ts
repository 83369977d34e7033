/**
 * Types as Google documents them, generated from the feature registry: every live feature's
 * complete items (lib/engines/structured/google/features/*.ts `complete`) are put through every type its
 * rules name and every schema.org subtype of those in the vocabulary, and each must be eligible
 * for the feature. A subtype is skipped only where the registry itself says why: Google's page
 * excludes it by name, schema.org supersedes it, or Google documents it more specifically for
 * another feature (BlogPosting is named by the Article page, so it is not a SocialMediaPosting
 * for the discussion forum feature). Those skips are counted and checked too.
 */
import assert from "node:assert/strict";
import { extractPage } from "../lib/engines/structured/extract.ts";
import { validateItems } from "../lib/engines/structured/validate.ts";
import { googleFeatures, typeFitsRule } from "../lib/engines/structured/google/registry.ts";
import type { FeatureRule, GoogleFeature } from "../lib/engines/structured/google/feature.ts";
import {
  asList,
  isObject,
  type JsonObject,
  type JsonValue,
  typesOf,
} from "../lib/engines/structured/terms.ts";
import { subtypesOf, typeInfo } from "../lib/engines/structured/vocabulary.ts";
import type { Eligibility } from "../lib/engines/structured/record.ts";

/** The home page, so that the site-name feature (home page only) reads its WebSite too. */
const PAGE = "https://example.com/";

/** The verdict of `feature` on the page's first item. */
function verdict(item: JsonObject, feature: string): Eligibility | undefined {
  const html = `<html><head><script type="application/ld+json">${
    JSON.stringify({ "@context": "https://schema.org", ...item })
  }</script></head><body></body></html>`;
  const x = extractPage(html, PAGE, "example.com");
  const { eligibility } = validateItems(x.detected, PAGE);
  return eligibility.find((e) =>
    e.source === "json-ld" && e.itemIndex === 0 && e.feature === feature
  );
}

/** A deep copy of `item` with every node typed exactly `[from]` retyped `to`; null when none is. */
function retyped(item: JsonObject, from: string, to: string): JsonObject | null {
  let found = false;
  const walk = (v: JsonValue): JsonValue => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x);
    const types = typesOf(v);
    if (types.length && types.includes(from)) {
      found = true;
      out["@type"] = types.length === 1 ? to : types.map((t) => (t === from ? to : t));
    }
    return out;
  };
  const copy = walk(item) as JsonObject;
  return found ? copy : null;
}

/** Whether any node of `item` is typed `type`. */
function holds(item: JsonValue, type: string): boolean {
  if (Array.isArray(item)) return item.some((x) => holds(x, type));
  if (!isObject(item)) return false;
  return typesOf(item).includes(type) || Object.values(item).some((x) => holds(x, type));
}

const live = googleFeatures().filter((f) => f.status !== "deprecated" && f.rules.length > 0);

/** Every (type named or subtype) a rule reads, and the subtypes it leaves to others. */
function walk(f: GoogleFeature, r: FeatureRule) {
  const read: { named: string; type: string }[] = [];
  const left: string[] = [];
  for (const named of r.types) {
    for (const type of new Set([named, ...subtypesOf(named)])) {
      if (typeFitsRule(type, f, r)) read.push({ named, type });
      else left.push(type);
    }
  }
  return { read, left };
}

Deno.test("[google types] every supported feature has complete items for each of its rules", () => {
  for (const f of live) {
    assert.ok(f.complete?.length, `${f.name}: complete items`);
    for (const r of f.rules) {
      assert.ok(r.types.length, `${f.name} (${r.nodes}): the types Google's page names`);
      for (const t of r.types) assert.ok(typeInfo(t), `${f.name}: ${t} is a schema.org type`);
      assert.ok(
        f.complete!.some((c) => r.types.some((t) => holds(c, t))),
        `${f.name} (${r.nodes}): a complete item holds one of ${r.types.join(", ")}`,
      );
    }
  }
});

for (const f of live) {
  Deno.test(`[google types] ${f.name}: every named type and subtype is eligible with a complete item`, () => {
    let checked = 0;
    for (const r of f.rules) {
      for (const { named, type } of walk(f, r).read) {
        // The complete item holding this named type, or one holding another type of the rule.
        const from = [named, ...r.types].find((t) => f.complete!.some((c) => holds(c, t)))!;
        const base = f.complete!.find((c) => holds(c, from))!;
        const item = retyped(base, from, type)!;
        const v = verdict(item, f.name);
        assert.ok(v, `${f.name}: a ${type} (in place of ${named}) is read for the feature`);
        assert.equal(
          v.status,
          "eligible",
          `${f.name}: a complete ${type} (in place of ${named}) is ${v.status}: ${
            v.reasons.join(" ")
          }`,
        );
        checked++;
      }
    }
    assert.ok(checked >= f.rules.length, `${f.name}: ${checked} types checked`);
  });
}

Deno.test("[google types] a BlogPosting or LiveBlogPosting with everything Article needs is eligible", () => {
  const article = googleFeatures().find((f) => f.name === "Article")!;
  for (const type of ["BlogPosting", "LiveBlogPosting", "NewsArticle", "TechArticle"]) {
    const item = retyped(article.complete![0], "Article", type)!;
    assert.equal(verdict(item, "Article")?.status, "eligible", type);
    // Not read as a discussion-forum post: Google's Article page names BlogPosting.
    assert.equal(verdict(item, "Discussion forum"), undefined, type);
  }
});

Deno.test("[google types] the subtypes a rule leaves out are each another feature's, superseded or excluded by name", () => {
  const named = new Set(
    googleFeatures().filter((f) => !f.overlay).flatMap((f) => [
      ...f.rules.flatMap((r) => r.types),
      ...(f.partTypes ?? []),
    ]),
  );
  let left = 0;
  for (const f of live) {
    for (const r of f.rules) {
      for (const type of walk(f, r).left) {
        left++;
        const info = typeInfo(type)!;
        const excluded = (r.excludes ?? []).some((e) => subtypesOf(e).includes(type));
        // Another feature's: the type or one of its ancestors below the rule's type is named
        // elsewhere.
        const claimed = [...named].some((n) =>
          !r.types.includes(n) && subtypesOf(n).includes(type) &&
          r.types.some((t) => n !== t && subtypesOf(t).includes(n))
        );
        assert.ok(
          info.supersededBy || excluded || claimed,
          `${f.name}: ${type} is left out without a reason`,
        );
      }
    }
  }
  // The walk leaves some out (LocalBusiness from Organization, SocialMediaPosting from Article...).
  assert.ok(left > 0);
  // And reads a few hundred: the vocabulary's subtypes, not a hand-kept list.
  const read = live.reduce(
    (n, f) => n + f.rules.reduce((m, r) => m + walk(f, r).read.length, 0),
    0,
  );
  assert.ok(read > 300, `${read} types read`);
  // Spot checks against what the pages say.
  const owner = (type: string) =>
    live.filter((f) => !f.overlay && f.rules.some((r) => typeFitsRule(type, f, r))).map((f) =>
      f.name
    );
  assert.deepEqual(owner("DiscussionForumPosting"), ["Discussion forum"]);
  assert.ok(owner("Restaurant").includes("Local business"));
  assert.ok(!owner("Restaurant").includes("Organization"));
  assert.ok(!owner("ClaimReview").includes("Review snippet"));
  assert.ok(!owner("BroadcastEvent").includes("Event"));
  assert.ok(!owner("UserComments").includes("Event"), "superseded");
  assert.deepEqual(asList(owner("EmployerAggregateRating")), ["Employer aggregate rating"]);
});
