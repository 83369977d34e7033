/** access.blanket_disallow: `User-agent: *` with `Disallow: /`, judged by the per-crawler verdicts. */
import assert from "node:assert/strict";
import { blanketDisallow } from "../../../../lib/engines/visibility/signals/access/blanket_disallow.ts";
import { answer, fixOf, pageCtx, reported } from "../../../helpers/signal_ctx.ts";

Deno.test("access.blanket_disallow - no robots.txt, or a * group that allows the home page, passes", () => {
  assert.equal(reported(blanketDisallow, pageCtx({ robots: null })).status, "pass");
  const open = pageCtx({ robots: "User-agent: *\nDisallow: /admin/\n" });
  assert.equal(reported(blanketDisallow, open).status, "pass");
});

Deno.test("access.blanket_disallow - Disallow: / for everyone fails, raises the gate, names the line", () => {
  const ctx = pageCtx({ robots: "# rules\nUser-agent: *\nDisallow: /\n" });
  const s = reported(blanketDisallow, ctx);
  assert.equal(s.status, "fail");
  assert.deepEqual(s.gate, { id: "blanket_disallow", cap: 20 });
  assert.deepEqual(s.evidence, ["line 3: Disallow: /"]);
  const fix = fixOf(blanketDisallow, ctx)!;
  assert.equal(fix.what, "Let AI search engines and assistants past the blanket Disallow: /");
  assert.match(fix.how, /User-agent: OAI-SearchBot/);
});

Deno.test("access.blanket_disallow - an allowlist is a warning without a gate and leaves the fix to the search crawlers", () => {
  const ctx = pageCtx({
    robots: "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nUser-agent: Bingbot\nAllow: /\n",
  });
  const s = reported(blanketDisallow, ctx);
  assert.equal(s.status, "warn");
  assert.equal(s.gate, null);
  assert.match(s.detail, /robots\.txt is an allowlist/);
  assert.ok(s.evidence.includes("Googlebot: allowed (line 6)"), s.evidence.join("; "));
  assert.equal(fixOf(blanketDisallow, ctx), null);
});

Deno.test("access.blanket_disallow - a 5xx robots.txt is left to access.robots_txt (info)", () => {
  const ctx = pageCtx({ robots: answer("/robots.txt", "", 500) });
  const s = reported(blanketDisallow, ctx);
  assert.equal(s.status, "info");
  assert.equal(s.maxPoints, 0);
});
