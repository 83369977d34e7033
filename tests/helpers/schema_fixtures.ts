/**
 * The Schema Markup Generator's fixture pages (tests/fixtures/schema/*.html): one small page per
 * supported type, valid and invalid, in JSON-LD, microdata and RDFa, plus pages without markup
 * whose content the generator has to use. Each is analysed as if served at
 * `https://schema.test/<name>`.
 */
import { analysePage } from "../../lib/engines/schema/scan.ts";
import type { Result } from "../../lib/engines/structured/record.ts";

const DIR = new URL("../fixtures/schema/", import.meta.url);

/** Every fixture's name (file name without .html), sorted. */
export function fixtureNames(): string[] {
  return [...Deno.readDirSync(DIR)].filter((e) => e.name.endsWith(".html"))
    .map((e) => e.name.slice(0, -5)).sort();
}

/** A fixture's HTML. */
export function fixtureHtml(name: string): string {
  return Deno.readTextFileSync(new URL(`${name}.html`, DIR));
}

/** The URL a fixture is analysed (and served) at. */
export function fixtureUrl(name: string): string {
  return `https://schema.test/${name}`;
}

/**
 * Fixtures whose markup belongs on a home page (site-name rules apply only there), and the URL
 * they are analysed at in the validation tests.
 */
export const HOME_FIXTURES: Record<string, string> = {
  jsonld_website_searchaction: "https://schema.test/",
};

/** Runs extraction, validation and generation on a fixture, offline (`url`: where it is read). */
export function analyseFixture(name: string, url = fixtureUrl(name)): Result {
  const html = fixtureHtml(name);
  return analysePage(html, {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    contentType: "text/html; charset=utf-8",
    redirects: 0,
    bytes: html.length,
    truncated: false,
    fetchMs: 1,
  }, "schema.test");
}
