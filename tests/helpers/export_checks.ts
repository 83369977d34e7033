/** Checks the export tests share (tests/features/report/export_test.ts, tests/cli_export_test.ts). */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";

/**
 * The self-contained, no-script check: a document with a CSP of `default-src 'none'` (styles
 * inline), and nothing that runs, loads or submits: no script, handler, link, import or url(),
 * no element that fetches, only http(s) hrefs.
 */
export function assertSelfContained(html: string, where: string) {
  assert.match(html, /^<!doctype html>/i, where);
  const doc = new DOMParser().parseFromString(html, "text/html");
  const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]');
  assert.ok(csp, `${where}: CSP meta`);
  assert.match(csp.getAttribute("content")!, /default-src 'none'/);
  assert.doesNotMatch(csp.getAttribute("content")!, /script-src|unsafe-eval/);
  for (const tag of ["script", "link", "iframe", "object", "embed", "img", "base", "form", "svg"]) {
    assert.equal(doc.querySelectorAll(tag).length, 0, `${where}: no <${tag}>`);
  }
  assert.doesNotMatch(html, /<script\b/i, `${where}: no script tag at all`);
  for (const el of doc.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      assert.ok(!/^on/i.test(attr.name), `${where}: no ${attr.name} handler`);
      assert.notEqual(attr.name.toLowerCase(), "src", `${where}: nothing loaded`);
      if (attr.name === "style") assert.fail(`${where}: no style attribute`);
    }
  }
  for (const a of doc.querySelectorAll("a")) {
    assert.match(a.getAttribute("href") ?? "", /^https?:\/\//, `${where}: only http(s) links`);
  }
  const styles = [...doc.querySelectorAll("style")].map((s) => s.textContent).join("\n");
  assert.ok(styles.length > 200, `${where}: styles are inlined`);
  assert.doesNotMatch(styles, /@import|url\(|https?:/i, `${where}: the styles load nothing`);
  assert.match(styles, /@media print/, `${where}: print styles`);
}
