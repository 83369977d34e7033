import assert from "node:assert/strict";
import { InvalidTargetError, normaliseTarget } from "../lib/kit/net/target.ts";

Deno.test("[domain] the same site always lands on the same record", () => {
  const forms = [
    "example.com",
    "EXAMPLE.com",
    "example.com.",
    "https://example.com/",
    "http://example.com:8080/some/path?q=1#x",
    "www.example.com",
    "https://WWW.Example.COM./about",
    "  example.com  ",
  ];
  for (const f of forms) assert.equal(normaliseTarget(f).domain, "example.com", f);
});

Deno.test("[domain] IDN becomes punycode and www. is kept for the scan URL", () => {
  const t = normaliseTarget("https://www.Bücher.example/shop");
  assert.equal(t.domain, "xn--bcher-kva.example");
  assert.equal(t.host, "www.xn--bcher-kva.example");
  assert.equal(t.url, "https://www.xn--bcher-kva.example/");
});

Deno.test("[domain] http is kept when asked for, https is the default", () => {
  assert.equal(normaliseTarget("http://example.com").url, "http://example.com/");
  assert.equal(normaliseTarget("example.com").url, "https://example.com/");
});

Deno.test("[domain] www.com itself is not stripped to a bare TLD", () => {
  assert.equal(normaliseTarget("www.com").domain, "www.com");
});

Deno.test("[domain] input that names no public domain is refused with a reason", async (t) => {
  const bad: [string, RegExp][] = [
    ["", /empty/],
    ["ftp://example.com", /only http and https/],
    ["javascript:alert(1)", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
    ["127.0.0.1", /IP addresses/],
    ["http://2130706433/", /IP addresses/],
    ["http://0x7f.1/", /IP addresses/],
    ["[::1]", /IP addresses/],
    ["http://[::ffff:127.0.0.1]/", /IP addresses/],
    ["localhost", /no dot/],
    ["http://user:pass@example.com", /user name or password/],
    ["http://public.example@127.0.0.1", /user name or password/],
    ["exa mple.com", /not a valid/],
    ["-bad-.com", /not a valid/],
    [`${"a".repeat(64)}.com`, /not a valid/],
    ["x".repeat(3000), /longer than/],
  ];
  for (const [input, reason] of bad) {
    await t.step(JSON.stringify(input.slice(0, 40)), () => {
      assert.throws(() => normaliseTarget(input), (e) => {
        assert.ok(e instanceof InvalidTargetError);
        assert.match(e.message, reason);
        return true;
      });
    });
  }
});
