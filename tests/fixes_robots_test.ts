/**
 * robots.txt fixes on our own small fixtures, one per kind of file that real sites publish: the
 * fix changes exactly the verdicts of the crawlers it names, never deletes a line other crawlers
 * share, never invents a path, and says so in its text.
 */
import assert from "node:assert/strict";
import { codeBlocksOf } from "../lib/engines/visibility/fix_text.ts";
import { robotsFile } from "../lib/engines/visibility/robots.ts";
import {
  applyRobotsEdits,
  checkRobotsChange,
  robotsAllowFix,
  robotsFixHow,
  robotsVerdicts,
} from "../lib/engines/visibility/robots_fix.ts";
import { assertRobotsFixProperty } from "./helpers/fix_checks.ts";
import { fixResult } from "./helpers/fix_context.ts";

const ORIGIN = "https://example.test/";
const SEARCH = ["OAI-SearchBot", "Claude-SearchBot", "PerplexityBot"];
const verdict = (text: string, token: string, path = "/") =>
  robotsVerdicts(text, ORIGIN, [path]).get(`${token} ${path}`);

/** Kinds of robots.txt files, written for these tests. */
const FIXTURES: Record<string, string> = {
  "blanket disallow with training opt-outs": [
    "User-agent: GPTBot",
    "User-agent: CCBot",
    "User-agent: Google-Extended",
    "Disallow: /",
    "",
    "User-agent: *",
    "Disallow: /",
  ].join("\n"),
  "allowlist: named search engines allowed, everyone else out": [
    "User-agent: Googlebot",
    "User-agent: Bingbot",
    "Allow: /",
    "Disallow: /private/",
    "",
    "User-agent: *",
    "Disallow: /",
  ].join("\n"),
  "one group shared by search and training crawlers": [
    "# no AI at all",
    "User-agent: GPTBot",
    "User-agent: OAI-SearchBot",
    "User-agent: CCBot",
    "User-agent: PerplexityBot",
    "Disallow: /",
    "",
    "User-agent: *",
    "Disallow: /cgi-bin/",
  ].join("\n"),
  "shared group whose longer rule closes the home page": [
    "User-agent: OAI-SearchBot",
    "User-agent: GPTBot",
    "Disallow: /*",
    "",
    "User-agent: *",
    "Allow: /",
  ].join("\n"),
  "dedicated groups per crawler": [
    "User-agent: PerplexityBot",
    "Disallow: /",
    "Crawl-delay: 10",
    "",
    "User-agent: Claude-SearchBot",
    "Disallow: /",
    "Disallow: /drafts/",
    "",
    "User-agent: *",
    "Disallow: /search",
  ].join("\n"),
  "a User-agent line left dangling at the end": [
    "User-agent: *",
    "Disallow: /",
    "Disallow: /tmp/",
    "",
    "User-agent: GPTBot",
  ].join("\n"),
  "wildcard with private paths the site chose": [
    "User-agent: *",
    "Disallow: /",
    "Disallow: /account/",
    "Allow: /press/",
    "Disallow: /*?session=",
  ].join("\n"),
};

Deno.test("[fixes robots] on every kind of file, only the named crawlers change verdict", async (t) => {
  for (const [name, text] of Object.entries(FIXTURES)) {
    await t.step(name, () => {
      for (const tokens of [SEARCH, ["ChatGPT-User"], ["OAI-SearchBot"], ["CCBot"]]) {
        assertRobotsFixProperty(text, tokens, `${name} [${tokens.join(", ")}]`);
      }
    });
  }
});

Deno.test("[fixes robots] the training opt-outs of a shared group stay in force", () => {
  const text = FIXTURES["one group shared by search and training crawlers"];
  const fix = robotsAllowFix(text, ORIGIN, ["OAI-SearchBot", "PerplexityBot"])!;
  assert.ok(fix.verified);
  assert.deepEqual(fix.edits.map((e) => e.kind), ["append"], "a group is added, nothing deleted");
  assert.equal(verdict(fix.patched, "GPTBot"), false);
  assert.equal(verdict(fix.patched, "CCBot"), false);
  assert.equal(verdict(fix.patched, "OAI-SearchBot"), true);
  assert.equal(verdict(fix.patched, "OAI-SearchBot", "/cgi-bin/x"), true, "own group: no * rules");
});

Deno.test("[fixes robots] an allowlist keeps its Disallow: / and only gains the named crawlers", () => {
  const text = FIXTURES["allowlist: named search engines allowed, everyone else out"];
  const fix = robotsAllowFix(text, ORIGIN, ["OAI-SearchBot"])!;
  assert.ok(fix.verified);
  assert.match(fix.patched, /User-agent: \*\nDisallow: \/\n/, "the * group is untouched");
  assert.equal(verdict(fix.patched, "Claude-SearchBot"), false, "unnamed bots stay out");
  assert.equal(verdict(fix.patched, "SomeUnknownBot"), undefined);
  const how = robotsFixHow(fix, `${ORIGIN}robots.txt`);
  assert.doesNotMatch(how, /delete|remove/i, "nothing is to be deleted");
  assert.deepEqual(codeBlocksOf(how), [
    "# Let these crawlers read the site\nUser-agent: OAI-SearchBot\nAllow: /",
  ]);
});

Deno.test("[fixes robots] the * rules a crawler read stay with it in its new group; no /admin/ is invented", () => {
  const text = FIXTURES["wildcard with private paths the site chose"];
  const fix = robotsAllowFix(text, ORIGIN, ["OAI-SearchBot"])!;
  assert.ok(fix.verified);
  const [added] = codeBlocksOf(robotsFixHow(fix, `${ORIGIN}robots.txt`));
  assert.match(added, /Disallow: \/account\//);
  assert.match(added, /Disallow: \/\*\?session=/);
  assert.match(added, /Allow: \/press\//);
  assert.doesNotMatch(added, /^Disallow: \/$/m, "the line closing the home page is left out");
  assert.doesNotMatch(added, /admin/);
  assert.equal(verdict(fix.patched, "OAI-SearchBot", "/account/settings"), false);
  assert.equal(verdict(fix.patched, "OAI-SearchBot", "/about"), true);
});

Deno.test("[fixes robots] a crawler's own group is given corrected and whole", () => {
  const text = FIXTURES["dedicated groups per crawler"];
  const fix = robotsAllowFix(text, ORIGIN, ["PerplexityBot", "Claude-SearchBot"])!;
  assert.ok(fix.verified);
  assert.deepEqual(fix.edits.map((e) => e.kind), ["replace", "replace"]);
  const how = robotsFixHow(fix, `${ORIGIN}robots.txt`);
  // Bottom-up, so that the line numbers of the second step are still right after the first.
  assert.ok(how.indexOf("replace lines 5-8") < how.indexOf("replace lines 1-3"), how);
  assert.deepEqual(codeBlocksOf(how), [
    "User-agent: Claude-SearchBot\nDisallow: /drafts/\nAllow: /",
    "User-agent: PerplexityBot\nAllow: /",
  ]);
  assert.equal(
    verdict(fix.patched, "Claude-SearchBot", "/drafts/x"),
    false,
    "its own choices stay",
  );
});

Deno.test("[fixes robots] a shared group that adding cannot override loses only the named User-agent line", () => {
  const text = FIXTURES["shared group whose longer rule closes the home page"];
  const fix = robotsAllowFix(text, ORIGIN, ["OAI-SearchBot"])!;
  assert.ok(fix.verified);
  const del = fix.edits.filter((e) => e.kind === "delete");
  assert.deepEqual(del.map((e) => e.kind === "delete" && e.text), ["User-agent: OAI-SearchBot"]);
  assert.equal(verdict(fix.patched, "GPTBot"), false, "GPTBot keeps its group and its verdict");
  const how = robotsFixHow(fix, `${ORIGIN}robots.txt`);
  assert.match(how, /delete line 1 \("User-agent: OAI-SearchBot"\)/);
});

Deno.test("[fixes robots] a dangling User-agent at the end never joins the added group", () => {
  const text = FIXTURES["a User-agent line left dangling at the end"];
  const fix = robotsAllowFix(text, ORIGIN, ["OAI-SearchBot"])!;
  assert.ok(fix.verified);
  assert.equal(verdict(fix.patched, "GPTBot"), verdict(text, "GPTBot"));
  assert.equal(verdict(fix.patched, "GPTBot", "/tmp/x"), verdict(text, "GPTBot", "/tmp/x"));
});

Deno.test("[fixes robots] applying the edits by hand gives the file that was checked", () => {
  const text = FIXTURES["dedicated groups per crawler"];
  const fix = robotsAllowFix(text, ORIGIN, ["PerplexityBot"])!;
  assert.equal(applyRobotsEdits(text, fix.edits), fix.patched);
  assert.equal(robotsAllowFix(text, ORIGIN, ["GPTBot"]), null, "nothing to fix for an allowed bot");
});

Deno.test("[fixes robots] the scan's fixes: no 'remove these lines', no invented paths, the choice explained", async (t) => {
  const html =
    `<!doctype html><html lang="en"><head><title>Acme Tools | Acme</title></head><body><main><h1>Tools</h1></main></body></html>`;
  await t.step("blanket Disallow: / of a site closed to all", () => {
    const r = fixResult({
      url: ORIGIN,
      html,
      robots: FIXTURES["blanket disallow with training opt-outs"],
    });
    const blanket = r.topIssues.find((i) => i.id === "access.blanket_disallow")!;
    assert.doesNotMatch(blanket.fix.how, /line \d+: Disallow: \//);
    assert.doesNotMatch(blanket.fix.how, /\/admin\//);
    assert.match(blanket.fix.how, /training crawlers/i, "the choice is explained");
    const [group] = codeBlocksOf(blanket.fix.how);
    assert.match(group, /User-agent: OAI-SearchBot/);
    assert.doesNotMatch(group, /GPTBot|CCBot|Google-Extended/, "training opt-outs untouched");
    assert.doesNotMatch(group, /OAI-AdsBot/, "the ads checker is not asked for (never scored)");
    // The search crawlers' and assistants' fix is the same change of the same groups (one cause):
    // one issue that resolves all three, with one group to paste, never a second copy of it.
    assert.deepEqual(blanket.resolves!.map((x) => x.id).sort(), [
      "access.blanket_disallow",
      "access.search_crawlers",
      "access.user_fetchers",
    ]);
    assert.equal(codeBlocksOf(blanket.fix.how).length, 1);
    for (const id of ["access.search_crawlers", "access.user_fetchers"]) {
      assert.equal(r.topIssues.find((i) => i.id === id), undefined, id);
    }
  });
  await t.step("only the ads checker kept out: reported, no fix asked for", () => {
    const r = fixResult({ url: ORIGIN, html, robots: "User-agent: OAI-AdsBot\nDisallow: /\n" });
    const how = r.topIssues.map((i) => i.fix.how).join("\n\n");
    assert.doesNotMatch(how, /OAI-AdsBot/);
    assert.ok(
      !r.topIssues.some((i) => i.id.startsWith("access.")),
      r.topIssues.map((i) => i.id).join(),
    );
  });
  await t.step("allowlist: keep it, add to it", () => {
    const r = fixResult({
      url: ORIGIN,
      html,
      robots: FIXTURES["allowlist: named search engines allowed, everyone else out"],
    });
    const how = r.topIssues.map((i) => i.fix.how).join("\n\n");
    assert.match(how, /an allowlist\. Keep it/);
    assert.doesNotMatch(how, /Deleting the Disallow/);
  });
});

Deno.test("[fixes robots] a fix is checked on the whole file and on the sampled pages' real paths", () => {
  // A change that keeps every verdict on the file's own paths but moves one on a page the site
  // really has (/privacy, found by the audit, named by no rule).
  const original = "User-agent: *\nDisallow: /private\n";
  const patched = "User-agent: *\nDisallow: /priv\n";
  assert.equal(checkRobotsChange(original, patched, ORIGIN, []).ok, true, "the file's paths alone");
  const withPages = checkRobotsChange(original, patched, ORIGIN, [], ["/privacy"]);
  assert.equal(withPages.ok, false);
  assert.ok(withPages.collateral.includes("OAI-SearchBot"));
  // Groups naming only bots we do not track are read too: no reduced copy stands in for the file.
  const text = "User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n";
  assert.equal(robotsFile(text), robotsFile(text), "parsed once per text");
  assert.equal(verdict(text, "OAI-SearchBot", "/private/a"), false);
  assert.equal(verdict(text, "OAI-SearchBot", "/a"), true);
});
