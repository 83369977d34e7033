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

Deno.test("[mod] robots.txt: parsed once, a verdict for any user-agent token and URL", () => {
  const parsed = mod.parseRobotsTxt([
    "User-agent: MyCrawler",
    "Disallow: /private",
    "Allow: /private/open$",
    "",
    "User-agent: *",
    "Disallow: /",
  ].join("\n"));
  // A token no registry knows, with its version, on absolute URLs and on paths.
  const mine = (url: string) => mod.robotsVerdict(parsed, "MyCrawler/2.1", url);
  assert.equal(mine("https://example.com/").allowed, true);
  assert.equal(mine("https://example.com/private/x?y=1").allowed, false);
  assert.equal(mine("/private/open").allowed, true);
  assert.equal(mine("/private/open").group, "specific");
  assert.equal(mine("/private/x").rule?.line, 2);
  // Any other token falls to the `*` group.
  const other = mod.robotsVerdict(parsed, "SomeOtherBot", "https://example.com/page");
  assert.deepEqual([other.allowed, other.group], [false, "wildcard"]);
  assert.equal(mod.productToken("MyCrawler/2.1 (+https://example.com/bot)"), "mycrawler");
});

Deno.test("[mod] the types analyseSnapshot takes are exported: a fetch outcome, a snapshot's parts", () => {
  const result: mod.FetchResult = {
    url: "https://example.com/",
    finalUrl: "https://example.com/",
    status: 404,
    headers: {},
    body: "",
    bytes: 0,
    truncated: false,
    redirects: [],
    ttfbMs: 1,
    totalMs: 1,
    remoteAddress: "93.184.216.34",
  };
  const answered: mod.FetchOutcome = { ok: true, result };
  const failed: mod.FetchOutcome = {
    ok: false,
    error: new mod.FetchError(
      "dns",
      "example.invalid does not resolve",
      "https://example.invalid/",
    ),
  };
  const target: mod.Target = mod.normaliseTarget("https://www.example.com/page");
  const snapshot: Pick<mod.Snapshot, "target" | "home" | "robots"> = {
    target,
    home: answered,
    robots: failed,
  };
  assert.equal(snapshot.target.domain, "example.com");
  assert.equal(failed.ok ? null : failed.error.kind, "dns");
});

Deno.test("[mod] every name mod.ts exports has its JSDoc", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", new URL("../mod.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  const doc = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    nodes: Record<
      string,
      { symbols: { name: string; declarations: { jsDoc?: { doc?: string } }[] }[] }
    >;
  };
  const mod_ = Object.entries(doc.nodes).find(([url]) => url.endsWith("/mod.ts"))![1];
  const names = mod_.symbols.map((s) => s.name);
  for (
    const name of ["parseRobotsTxt", "robotsVerdict", "Snapshot", "FetchOutcome", "FetchResult"]
  ) {
    assert.ok(names.includes(name), name);
  }
  const undocumented = mod_.symbols
    .filter((s) => !s.declarations.some((d) => d.jsDoc?.doc))
    .map((s) => s.name);
  assert.deepEqual(undocumented, []);
});
