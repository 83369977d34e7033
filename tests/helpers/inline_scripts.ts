/**
 * The page CSP allows no inline script but one: lib/kit/ui/comfort_script.ts, by its hash. This check
 * finds every inline `<script>` of a page and fails unless each one's SHA-256 (computed here, not
 * taken from the module) is listed in the page's script-src, and no 'unsafe-inline' is.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

/** Asserts that the browser would run every inline script of `html` under `csp`, and only those. */
export function assertInlineScriptsHashed(html: string, csp: string): void {
  const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"));
  assert.ok(scriptSrc, "a script-src directive");
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
  assert.ok(inline.length <= 1, `one inline script at most, found ${inline.length}`);
  for (const [, body] of inline) {
    // The HTML serialiser must not have escaped anything (the hash is of the exact text).
    assert.doesNotMatch(body, /&(amp|lt|gt|quot|#\d+);/);
    const hash = createHash("sha256").update(body, "utf8").digest("base64");
    assert.ok(
      scriptSrc.includes(`'sha256-${hash}'`),
      `the inline script's hash is in ${scriptSrc}`,
    );
  }
}
