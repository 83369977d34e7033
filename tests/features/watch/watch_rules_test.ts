/**
 * The watch's rules as pure functions: what is a regression (and what is noise), the schedule's
 * spread, the webhook bodies (Slack, Discord, JSON; bounded, escaped), the seal of webhook secrets
 * and the Standard Webhooks signature.
 */
import assert from "node:assert/strict";
import {
  CRAWLER_ACCESS_SOURCES,
  findRegressions,
} from "../../../lib/engines/history/regressions.ts";
import { nextSlot, offsetOf, PERIOD_MS } from "../../../lib/features/watch/schedule.ts";
import {
  MAX_BODY_BYTES,
  regressionEvent,
  renderBody,
} from "../../../lib/features/watch/payload.ts";
import { SecretBox } from "../../../lib/kit/auth/secret_box.ts";
import { newSigningSecret, sign, verify } from "../../../lib/features/watch/signature.ts";
import type { BaseRecord } from "../../../lib/service.ts";

interface Sig {
  id: string;
  status: string;
  evidence?: string[];
  gate?: { id: string; cap: number } | null;
  crawlers?: Row[];
}
interface Row {
  token: string;
  purpose: string;
  robots: string;
  preference: string | null;
  edgeRefused: boolean | null;
}

/** A visibility record with these signals (one pillar). */
function vis(
  score: number,
  grade: string,
  signals: Sig[],
  status: "ok" | "failed" = "ok",
): BaseRecord {
  return {
    domain: "example.com",
    status,
    scannedAt: "2026-11-20T10:00:00.000Z",
    result: status === "failed" ? null : {
      score,
      grade,
      label: "x",
      pillars: [{
        id: "access",
        title: "AI crawler access",
        score,
        points: score,
        weight: 100,
        signals: signals.map((s) => ({
          title: s.id,
          points: 0,
          maxPoints: 1,
          detail: "",
          evidence: [],
          gate: null,
          ...s,
        })),
      }],
      topIssues: [],
    },
    offSite: null,
  } as BaseRecord;
}

const open = (...tokens: string[]) => ({
  id: "access.search_crawlers",
  status: "pass",
  evidence: tokens.map((t) => `${t}: allowed`),
});

Deno.test("regressions - a crawler newly blocked by robots.txt is named, from the evidence", () => {
  const before = vis(90, "A", [open("OAI-SearchBot", "PerplexityBot")]);
  const after = vis(90, "A", [{
    id: "access.search_crawlers",
    status: "warn",
    evidence: ["OAI-SearchBot: blocked (line 5: Disallow: /)", "PerplexityBot: allowed"],
  }]);
  const { regressions } = findRegressions(before, after);
  assert.deepEqual(regressions.map((r) => [r.kind, r.subjects]), [["crawler_blocked", [
    "OAI-SearchBot",
  ]]]);
  assert.equal(regressions[0].text, "robots.txt now blocks OAI-SearchBot.");
  // The reverse is an improvement, not a regression.
  assert.deepEqual(findRegressions(after, before).regressions, []);
});

Deno.test("regressions - crawler access is read from a list of sources: robots.txt, preferences, the edge", () => {
  assert.deepEqual(CRAWLER_ACCESS_SOURCES.map((s) => s.id), ["robots", "preferences", "edge"]);
  const before = vis(90, "A", [{ id: "access.edge", status: "pass" }]);
  const after = vis(90, "A", [{
    id: "access.edge",
    status: "fail",
    gate: { id: "edge_blocks_ai", cap: 40 },
  }]);
  const kinds = findRegressions(before, after).regressions.map((r) => r.kind);
  assert.deepEqual(kinds, ["crawler_blocked", "new_gate"]);
  // Not observed (robots.txt timed out, the probe failed): nothing is compared, no false alarm.
  const unknown = vis(90, "A", [{ id: "access.search_crawlers", status: "unknown" }, {
    id: "access.edge",
    status: "unknown",
  }]);
  assert.deepEqual(findRegressions(vis(90, "A", [open("OAI-SearchBot")]), unknown).regressions, []);
});

/** The crawler matrix on `access.edge`: one row per crawler (search, user and training). */
function matrix(status: string, rows: Partial<Row>[]): Sig {
  return {
    id: "access.edge",
    status,
    crawlers: rows.map((r) => ({
      token: "X",
      purpose: "search",
      robots: "allowed",
      preference: null,
      edgeRefused: false,
      ...r,
    })),
  };
}

Deno.test("regressions - the edge per crawler, from the matrix: one search crawler newly refused is named, a training crawler is not", () => {
  const rows = (refused: string[]) =>
    [
      { token: "OAI-SearchBot", purpose: "search" },
      { token: "PerplexityBot", purpose: "search" },
      { token: "ChatGPT-User", purpose: "user" },
      { token: "GPTBot", purpose: "training" },
    ].map((r) => ({ ...r, edgeRefused: refused.includes(r.token) }));
  const before = vis(90, "A", [matrix("pass", rows([]))]);
  // A partial refusal warns (no gate): still a crawler newly blocked at the edge.
  const after = vis(90, "A", [matrix("warn", rows(["PerplexityBot", "GPTBot"]))]);
  const found = findRegressions(before, after).regressions;
  assert.deepEqual(found.map((r) => [r.kind, r.subjects]), [["crawler_blocked", [
    "PerplexityBot",
  ]]]);
  assert.equal(found[0].text, "the CDN or firewall now blocks PerplexityBot.");
  // Probes that got no answer compare nothing.
  const unanswered = vis(90, "A", [
    matrix("unknown", rows([]).map((r) => ({ ...r, edgeRefused: null }))),
  ]);
  assert.deepEqual(findRegressions(before, unanswered).regressions, []);
});

Deno.test("regressions - a declared preference newly saying no to an AI search crawler's purpose is one; training is the owner's choice", () => {
  const rows = (pref: string | null, trainPref: string | null) => [
    { token: "OAI-SearchBot", purpose: "search", preference: pref },
    { token: "ChatGPT-User", purpose: "user", preference: null },
    { token: "GPTBot", purpose: "training", preference: trainPref },
  ];
  const before = vis(90, "A", [matrix("pass", rows(null, null))]);
  const after = vis(90, "A", [matrix("pass", rows("no: search", "no: training"))]);
  const found = findRegressions(before, after).regressions;
  assert.deepEqual(found.map((r) => [r.kind, r.subjects]), [["crawler_blocked", [
    "OAI-SearchBot",
  ]]]);
  assert.match(found[0].text, /preferences now say no to the purpose of OAI-SearchBot/);
  assert.deepEqual(findRegressions(after, before).regressions, [], "lifting it is no regression");
  // robots.txt unreadable (every row unknown): preferences are not observed, nothing compared.
  const unread = vis(90, "A", [
    matrix("pass", rows("no: search", null).map((r) => ({ ...r, robots: "unknown" }))),
  ]);
  assert.deepEqual(findRegressions(before, unread).regressions, []);
});

Deno.test("regressions - score and grade drops, a failed scan; noise below minScoreDrop is not one", () => {
  const base = vis(90, "A", []);
  assert.deepEqual(findRegressions(base, vis(90, "A", [])).regressions, [], "unchanged");
  assert.deepEqual(findRegressions(base, vis(89.6, "A", [])).regressions, [], "0.4 points");
  assert.deepEqual(
    findRegressions(base, vis(85, "A", []), { minScoreDrop: 10 }).regressions,
    [],
    "under the watch's threshold",
  );
  assert.deepEqual(
    findRegressions(base, vis(70, "C", [])).regressions.map((r) => r.kind),
    ["grade_drop", "score_drop"],
  );
  assert.deepEqual(
    findRegressions(base, vis(0, "F", [], "failed")).regressions.map((r) => r.kind),
    ["scan_failed"],
  );
});

Deno.test("regressions - a rich result newly not eligible (schema records)", () => {
  const rec = (status: string) =>
    ({
      domain: "shop.example",
      url: "https://shop.example/p/1",
      status: "ok",
      scannedAt: "2026-11-20T10:00:00.000Z",
      result: {
        findings: [],
        summary: { items: 1, errors: 0, warnings: 0 },
        eligibility: [{
          source: "json-ld",
          itemIndex: 0,
          type: "Product",
          feature: "Product snippets",
          status,
          reasons: [],
          docs: null,
        }],
      },
    }) as BaseRecord;
  const { regressions } = findRegressions(rec("eligible with warnings"), rec("not eligible"));
  assert.deepEqual(regressions.map((r) => r.text), [
    "No longer eligible for Product: Product snippets.",
  ]);
  assert.deepEqual(findRegressions(rec("not eligible"), rec("eligible")).regressions, []);
});

Deno.test("schedule - each watch keeps its own slot, and slots spread over the period", () => {
  const id = crypto.randomUUID();
  const t = Date.parse("2026-11-26T12:00:00Z");
  const first = nextSlot(id, "daily", t);
  assert.ok(first > t && first <= t + PERIOD_MS.daily);
  assert.equal(nextSlot(id, "daily", first), first + PERIOD_MS.daily, "one period later");
  assert.equal(nextSlot(id, "daily", first - 1), first);
  assert.equal(offsetOf(id, "weekly"), offsetOf(id, "weekly"), "stable");
  // 2,400 watches created at the same minute: every hour of the day gets its share (~100).
  const perHour = new Array(24).fill(0);
  for (let i = 0; i < 2400; i++) {
    perHour[Math.floor((nextSlot(crypto.randomUUID(), "daily", t) - t) / 3600_000)]++;
  }
  assert.ok(Math.min(...perHour) > 50 && Math.max(...perHour) < 150, perHour.join(","));
});

function event(n = 1, text = "robots.txt now blocks OAI-SearchBot.") {
  return regressionEvent({
    id: "d1",
    now: Date.parse("2026-11-26T12:00:00Z"),
    service: "visibility",
    watch: {
      id: "w1",
      target: "example.com",
      schedule: "daily",
      domain: "example.com",
      pageUrl: null,
    },
    from: {
      scanId: "a",
      scannedAt: "x",
      status: "ok",
      score: 92,
      grade: "A",
      report: "https://c.example/r/a",
    },
    to: {
      scanId: "b",
      scannedAt: "y",
      status: "ok",
      score: 61,
      grade: "C",
      report: "https://c.example/r/b",
    },
    regressions: Array.from(
      { length: n },
      () => ({ kind: "crawler_blocked" as const, text, subjects: ["OAI-SearchBot"] }),
    ),
    diff: null,
    links: {
      report: "https://c.example/r/b",
      changes: "https://c.example/c",
      feed: "https://c.example/f",
    },
  });
}

Deno.test("payloads - Slack and Discord bodies are what their incoming webhooks accept, escaped", () => {
  const slack = JSON.parse(renderBody(event(1, "<@here> & <!channel>"), "slack"));
  assert.deepEqual(Object.keys(slack), ["text"]);
  assert.match(slack.text, /^\*example\.com regressed \(score 92 → 61\)\*\n/);
  assert.ok(slack.text.includes("&lt;@here&gt; &amp; &lt;!channel&gt;"));
  assert.ok(slack.text.includes("<https://c.example/r/b|Report>"));
  const discord = JSON.parse(renderBody(event(1, "@everyone **x**"), "discord"));
  assert.deepEqual(discord.allowed_mentions, { parse: [] });
  assert.ok(discord.content.includes("\\@everyone \\*\\*x\\*\\*"));
  const long = JSON.parse(renderBody(event(7, "y".repeat(900)), "discord"));
  assert.ok(long.content.length <= 2000);
  const json = JSON.parse(renderBody(event(), "json"));
  assert.equal(json.type, "watch.regression");
  assert.equal(json.to.score, 61);
  for (const format of ["json", "slack", "discord"] as const) {
    const body = renderBody(event(7, "z".repeat(50_000)), format);
    assert.ok(new TextEncoder().encode(body).length <= MAX_BODY_BYTES, format);
  }
});

Deno.test("secrets - sealed values open only with the same key and for the same watch", async () => {
  const box = new SecretBox("k".repeat(40));
  const sealed = await box.seal("whsec_abc", "watch-1");
  assert.ok(!sealed.includes("whsec_abc"));
  assert.equal(await box.open(sealed, "watch-1"), "whsec_abc");
  assert.equal(await box.open(sealed, "watch-2"), null, "bound to its watch");
  assert.equal(await new SecretBox("j".repeat(40)).open(sealed, "watch-1"), null);
  assert.notEqual(await box.seal("whsec_abc", "watch-1"), sealed, "a fresh IV each time");
});

Deno.test("signature - Standard Webhooks: v1,base64(HMAC-SHA256(id.timestamp.body)), timestamp checked", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  // The specification's own example (https://www.standardwebhooks.com/, checked 2026-11-26).
  assert.equal(
    sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}'),
    "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  );
  const s = newSigningSecret();
  const h = { id: "d", timestamp: "1000", signature: `v1,bogus ${sign(s, "d", 1000, "{}")}` };
  assert.ok(verify(s, h, "{}", 1000 + 299));
  assert.ok(!verify(s, h, "{}", 1000 + 301), "older than 5 minutes");
  assert.ok(!verify(s, { ...h, id: "e" }, "{}", 1000));
  assert.ok(!verify(newSigningSecret(), h, "{}", 1000));
});
