/**
 * The public entry point: scripts (and the shared corpus runners) import these names from
 * `mod.ts`, so each must exist and be the real implementation, whatever file it lives in.
 */
import assert from "node:assert/strict";
import * as mod from "../mod.ts";

Deno.test("[mod] exports the library API that scripts and the corpus runners use", () => {
  const functions = [
    "scanSite",
    "analyseSnapshot",
    "gradeFor",
    "analyseRobots",
    "validateLlmsTxt",
    "scanPage",
    "analysePage",
    "extractPage",
    "validateItems",
    "generateGraph",
    "loadConfig",
    "createGuardedFetcher",
    "checkOffSite",
    "turnstileVerifier",
  ] as const;
  for (const name of functions) assert.equal(typeof mod[name], "function", name);
  for (const name of ["OffSiteCache", "RedisLimiter", "LimiterUnavailableError", "ConfigError"]) {
    assert.equal(typeof mod[name as keyof typeof mod], "function", `${name} is a class`);
  }
  assert.ok(Array.isArray(mod.CRAWLERS) && mod.CRAWLERS.length > 10);
  assert.ok(mod.PILLARS.length > 0 && mod.GRADES.length === 5);
});

Deno.test("[mod] analysePage works on HTML in hand, without a fetch", () => {
  const html = `<html><head><title>Shop</title><script type="application/ld+json">
    {"@context":"https://schema.org","@type":"Organization","name":"Shop","url":"https://shop.example/"}
    </script></head><body><h1>Shop</h1></body></html>`;
  const page = {
    requestedUrl: "https://shop.example/",
    finalUrl: "https://shop.example/",
    status: 200,
    contentType: "text/html",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  };
  const result = mod.analysePage(html, page, "shop.example");
  assert.ok(JSON.stringify(result.detected).includes("Organization"));
});
