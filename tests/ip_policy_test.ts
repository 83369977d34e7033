/**
 * Table tests of the address policy and of the synchronous URL checks. Nothing here opens a
 * connection: public addresses are only classified, never contacted.
 */
import assert from "node:assert/strict";
import { classifyAddress, isPublicAddress, parseHostLiteral } from "../lib/kit/net/ip_policy.ts";
import { assertFetchableUrl } from "../lib/kit/net/guarded_fetch.ts";
import { FetchError } from "../lib/kit/net/types.ts";

/** [address, expected range name]; only "unicast" is public. */
const ADDRESSES: [string, string][] = [
  // IPv4 special ranges
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.20.10.5", "private"],
  ["172.31.255.254", "private"],
  ["192.168.0.1", "private"],
  ["192.168.255.255", "private"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.0.1", "linkLocal"],
  ["169.254.169.254", "linkLocal"],
  ["100.64.0.1", "carrierGradeNat"],
  ["100.127.255.254", "carrierGradeNat"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.18.0.1", "reserved"],
  ["198.19.255.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "broadcast"],
  // Legacy IPv4 spellings mean what the OS resolver would make of them
  ["127.1", "loopback"],
  ["2130706433", "loopback"],
  ["0x7f.0.0.1", "loopback"],
  ["0177.0.0.1", "loopback"],
  // IPv6 special ranges
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["fc00::1", "uniqueLocal"],
  ["fd00:ec2::254", "uniqueLocal"],
  ["fe80::1", "linkLocal"],
  ["fe80::1%eth0", "linkLocal"],
  ["fec0::1", "deprecatedSiteLocal"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2001::1", "teredo"],
  ["100::1", "discard"],
  ["4000::1", "notGlobalUnicast"],
  // IPv6 forms embedding an IPv4 address
  ["::ffff:127.0.0.1", "ipv4Mapped/loopback"],
  ["::ffff:7f00:1", "ipv4Mapped/loopback"],
  ["::ffff:169.254.169.254", "ipv4Mapped/linkLocal"],
  ["::ffff:10.0.0.1", "ipv4Mapped/private"],
  ["::127.0.0.1", "ipv4Compatible"],
  ["::7f00:1", "ipv4Compatible"],
  ["::8.8.8.8", "ipv4Compatible"],
  ["64:ff9b::7f00:1", "nat64/loopback"],
  ["64:ff9b::a9fe:a9fe", "nat64/linkLocal"],
  ["64:ff9b:1::808:808", "nat64LocalUse"],
  ["2002:7f00:1::", "6to4/loopback"],
  ["2002:a00:1::1", "6to4/private"],
  ["2002:a9fe:a9fe::", "6to4/linkLocal"],
  // Not addresses at all
  ["", "invalid"],
  ["localhost", "invalid"],
  ["example.com", "invalid"],
  ["256.1.1.1", "invalid"],
  ["1.1.1.1.1", "invalid"],
  ["::g", "invalid"],
  // Public (classified only: never contacted)
  ["8.8.8.8", "unicast"],
  ["1.1.1.1", "unicast"],
  ["93.184.216.34", "unicast"],
  ["172.15.255.255", "unicast"],
  ["172.32.0.1", "unicast"],
  ["100.63.255.255", "unicast"],
  ["100.128.0.1", "unicast"],
  ["169.253.1.1", "unicast"],
  ["2606:4700:4700::1111", "unicast"],
  ["2001:4860:4860::8888", "unicast"],
  ["::ffff:8.8.8.8", "unicast"],
  ["64:ff9b::808:808", "unicast"],
  ["2002:808:808::", "unicast"],
];

Deno.test("[ip_policy] classifies every address of the table", () => {
  assert.ok(ADDRESSES.length >= 60);
  const wrong = ADDRESSES
    .filter(([ip, range]) => classifyAddress(ip) !== range)
    .map(([ip, range]) => `${ip}: expected ${range}, got ${classifyAddress(ip)}`);
  assert.deepEqual(wrong, []);
});

Deno.test("[ip_policy] isPublicAddress is true only for unicast", () => {
  for (const [ip, range] of ADDRESSES) {
    assert.equal(isPublicAddress(ip), range === "unicast", ip);
  }
});

Deno.test("[ip_policy] parseHostLiteral recognises IP hosts only", () => {
  assert.equal(parseHostLiteral("127.0.0.1"), "127.0.0.1");
  assert.equal(parseHostLiteral("[::1]"), "::1");
  assert.equal(parseHostLiteral(new URL("http://[::ffff:127.0.0.1]/").hostname), "::ffff:7f00:1");
  assert.equal(parseHostLiteral(new URL("http://0x7f.1/").hostname), "127.0.0.1");
  assert.equal(parseHostLiteral("example.com"), null);
  assert.equal(parseHostLiteral("127.0.0.1.nip.io"), null);
});

/** URLs the fetcher must refuse before any network activity, with the expected error kind. */
const REFUSED_URLS: [string, "blocked" | "invalid_url"][] = [
  ["http://127.0.0.1/", "blocked"],
  ["http://127.0.0.1:8080/admin", "blocked"],
  ["http://0.0.0.0/", "blocked"],
  ["http://10.0.0.1/", "blocked"],
  ["http://172.16.0.1/", "blocked"],
  ["http://172.31.0.1/", "blocked"],
  ["http://192.168.1.1/", "blocked"],
  ["http://169.254.169.254/latest/meta-data/", "blocked"],
  ["http://100.64.0.1/", "blocked"],
  ["http://224.0.0.1/", "blocked"],
  ["http://[::1]/", "blocked"],
  ["http://[::]/", "blocked"],
  ["http://[fd00:ec2::254]/", "blocked"],
  ["http://[fe80::1]/", "blocked"],
  ["http://[fc00::1]/", "blocked"],
  ["http://[::ffff:127.0.0.1]/", "blocked"],
  ["http://[::ffff:7f00:1]/", "blocked"],
  ["http://[64:ff9b::7f00:1]/", "blocked"],
  ["http://[2002:7f00:1::]/", "blocked"],
  // Spellings that WHATWG URL normalises to 127.0.0.1
  ["http://2130706433/", "blocked"],
  ["http://0x7f.1/", "blocked"],
  ["http://0177.0.0.1/", "blocked"],
  ["http://127.1/", "blocked"],
  ["http://127.0.0.1./", "blocked"],
  ["https://0x7f000001/", "blocked"],
  ["http://localhost/", "blocked"],
  ["http://LOCALHOST./", "blocked"],
  ["http://api.localhost/", "blocked"],
  // Userinfo, schemes other than http(s), garbage
  ["http://public@127.0.0.1/", "invalid_url"],
  ["http://user:pass@example.com/", "invalid_url"],
  ["file:///etc/passwd", "invalid_url"],
  ["gopher://127.0.0.1:6379/_INFO", "invalid_url"],
  ["ftp://example.com/", "invalid_url"],
  ["javascript:alert(1)", "invalid_url"],
  ["data:text/html,<p>hi</p>", "invalid_url"],
  ["ws://example.com/", "invalid_url"],
  ["not a url", "invalid_url"],
  ["", "invalid_url"],
  ["http://", "invalid_url"],
];

Deno.test("[ip_policy] assertFetchableUrl refuses private, legacy and non-http URLs", () => {
  for (const [url, kind] of REFUSED_URLS) {
    assert.throws(
      () => assertFetchableUrl(url),
      (error: unknown) => error instanceof FetchError && error.kind === kind,
      `${url} should be refused as ${kind}`,
    );
  }
});

Deno.test("[ip_policy] assertFetchableUrl accepts public URLs without touching the network", () => {
  for (
    const url of [
      "http://8.8.8.8/",
      "https://1.1.1.1/dns-query",
      "https://[2606:4700:4700::1111]/",
      "https://example.com/path?q=1#frag",
      "HTTP://EXAMPLE.COM:8080/",
    ]
  ) {
    assert.ok(assertFetchableUrl(url) instanceof URL, url);
  }
});

Deno.test("[ip_policy] the resolve map lets mapped names through, and only them", () => {
  const resolve = new Map([["site.test", { host: "127.0.0.1", port: 4507 }]]);
  assert.equal(assertFetchableUrl("http://site.test/", resolve).hostname, "site.test");
  assert.equal(assertFetchableUrl("https://SITE.test./a", resolve).pathname, "/a");
  assert.throws(() => assertFetchableUrl("http://127.0.0.1:4507/", resolve), FetchError);
  assert.throws(() => assertFetchableUrl("http://public@site.test/", resolve), FetchError);
});
