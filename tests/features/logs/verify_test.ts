/**
 * Verification of crawler hits: the prefix tree, the address lists from a directory, a fetch
 * (through the guarded fetcher, to a loopback endpoint) or the shipped snapshot, reverse DNS with
 * forward confirmation, and Web Bot Auth signatures.
 */
import assert from "node:assert/strict";
import { PrefixTrie } from "../../../lib/features/logs/ip_trie.ts";
import {
  loadRanges,
  memoryRangeCache,
  parseRangeList,
} from "../../../lib/features/logs/ip_ranges.ts";
import { createCrawlerDns, underSuffix } from "../../../lib/kit/net/crawler_dns.ts";
import { createGuardedFetcher } from "../../../lib/kit/net/guarded_fetch.ts";
import { checkSignature, jwkThumbprint } from "../../../lib/features/logs/web_bot_auth.ts";
import { createJudge } from "../../../lib/features/logs/judge.ts";
import { CRAWLERS } from "../../../lib/engines/visibility/crawlers.ts";
import type { LogHit } from "../../../lib/features/logs/hit.ts";
import { RANGE_FILES } from "./log_fixtures.ts";

Deno.test("[logs/verify] the prefix tree answers which lists hold an address", () => {
  const t = new PrefixTrie();
  assert.ok(t.add("192.0.2.0/24", 0));
  assert.ok(t.add("192.0.2.128/25", 3));
  assert.ok(t.add("2001:db8::/32", 1));
  assert.ok(t.add("198.51.100.7", 2));
  assert.ok(!t.add("not-a-range/8", 0));
  assert.ok(!t.add("192.0.2.0/33", 0));
  assert.equal(t.lists("192.0.2.5"), 0b0001);
  assert.equal(t.lists("192.0.2.200"), 0b1001);
  assert.equal(t.lists("::ffff:192.0.2.5"), 0b0001);
  assert.equal(t.lists("2001:db8:ffff::1"), 0b0010);
  assert.equal(t.lists("198.51.100.7"), 0b0100);
  assert.equal(t.lists("198.51.100.8"), 0);
  assert.equal(t.lists("junk"), 0);
});

Deno.test("[logs/verify] vendor lists in the published shape, and what is not one", () => {
  assert.deepEqual(parseRangeList(JSON.stringify(RANGE_FILES["bots.json"])), {
    creationTime: "2026-11-02T00:00:00Z",
    cidrs: ["192.0.2.128/25", "2001:db8:c1::/48"],
  });
  assert.equal(parseRangeList("<html>"), "not JSON");
  assert.equal(parseRangeList('{"x":1}'), "no list of prefixes");
});

Deno.test("[logs/verify] without a directory or network, the dated snapshot decides OpenAI's crawlers", async () => {
  const ranges = await loadRanges();
  const gpt = ranges.lists.find((l) => l.fileName === "gptbot.json")!;
  assert.equal(gpt.from, "snapshot");
  assert.equal(gpt.asOf, "2025-10-30T11:00:00Z");
  const judge = createJudge({ ranges, dns: null, keys: null });
  const crawler = CRAWLERS.find((c) => c.token === "GPTBot")!;
  const hit = (ip: string): LogHit => ({
    time: 0,
    ip,
    method: "GET",
    target: "/",
    status: 200,
    bytes: 0,
    userAgent: "GPTBot",
  });
  assert.deepEqual(judge(hit("20.171.206.9"), crawler), {
    verdict: "verified",
    basis: "ip_ranges",
  });
  // The snapshot may be older than the vendor's list: outside it is not proof of a spoof.
  assert.deepEqual(judge(hit("203.0.113.9"), crawler), {
    verdict: "unverifiable",
    basis: "none",
    why:
      "not in the shipped copy of the vendor's address list, and its current list could not be loaded",
  });
  // Perplexity's list is in no snapshot: PerplexityBot is unverifiable, and says why.
  const perplexity = CRAWLERS.find((c) => c.token === "PerplexityBot")!;
  assert.deepEqual(judge(hit("203.0.113.9"), perplexity), {
    verdict: "unverifiable",
    basis: "none",
    why: "the vendor's address list could not be loaded",
  });
});

Deno.test("[logs/verify] lists are fetched through the guarded fetcher, kept with the date fetched, and refreshed after a day", async () => {
  let asked = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    asked++;
    const name = new URL(req.url).pathname.slice(1);
    const body = RANGE_FILES[name];
    return body ? Response.json(body) : new Response("no", { status: 404 });
  });
  const port = server.addr.port;
  const fetcher = createGuardedFetcher({
    userAgent: "test",
    resolve: new Map([["ranges.test", { host: "127.0.0.1", port }]]),
  });
  const cache = memoryRangeCache();
  let now = Date.UTC(2026, 11, 1);
  const src = {
    fetcher,
    cache,
    now: () => now,
    snapshot: false,
    urlOf: (l: { fileName: string }) => `http://ranges.test/${l.fileName}`,
  };
  try {
    const first = await loadRanges(src);
    const bots = first.lists.find((l) => l.fileName === "bots.json")!;
    assert.equal(bots.from, "fetched");
    assert.equal(bots.ranges, 2);
    assert.equal(bots.asOf, "2026-11-02T00:00:00Z");
    const missing = first.lists.find((l) => l.fileName === "bingbot.json")!;
    assert.equal(missing.from, "unavailable");
    assert.equal(missing.problem, "answered 404");
    const n = asked;
    await loadRanges(src);
    assert.equal(
      asked,
      n + (first.lists.length - 3),
      "cached lists are not fetched again within a day",
    );
    now += 86_400_001;
    await loadRanges(src);
    assert.ok(asked > 2 * n, "refreshed after a day");
  } finally {
    await fetcher.close();
    await server.shutdown();
  }
});

Deno.test("[logs/verify] reverse DNS: the name must be under the suffix and resolve back", async () => {
  assert.ok(underSuffix("crawl-1.googlebot.com.", "googlebot.com"));
  assert.ok(!underSuffix("evilgooglebot.com", "googlebot.com"));
  const dns = createCrawlerDns({
    queries: {
      reverse: (ip) =>
        Promise.resolve(
          ({
            "192.0.2.1": ["a.googlebot.com."],
            "192.0.2.2": ["b.googlebot.com."],
            "192.0.2.3": ["x.evilgooglebot.com."],
          } as Record<string, string[]>)[ip] ?? [],
        ),
      forward: (name) =>
        Promise.resolve(name === "a.googlebot.com" ? ["192.0.2.1"] : ["198.51.100.1"]),
    },
    budget: 4,
  });
  assert.deepEqual(await dns.check("192.0.2.1", ["googlebot.com"]), {
    outcome: "confirmed",
    name: "a.googlebot.com.",
  });
  assert.deepEqual(await dns.check("192.0.2.2", ["googlebot.com"]), {
    outcome: "refuted",
    name: "b.googlebot.com.",
  });
  assert.deepEqual(await dns.check("192.0.2.3", ["googlebot.com"]), {
    outcome: "refuted",
    name: "x.evilgooglebot.com.",
  });
  assert.deepEqual(await dns.check("192.0.2.4", ["googlebot.com"]), {
    outcome: "refuted",
    name: null,
  });
  assert.equal(dns.spent, 4);
  assert.deepEqual(await dns.check("192.0.2.1", ["googlebot.com"]), {
    outcome: "confirmed",
    name: "a.googlebot.com.",
  });
  assert.deepEqual(await dns.check("192.0.2.5", ["googlebot.com"]), {
    outcome: "unknown",
    why: "the DNS budget of this read was spent",
  });
});

Deno.test("[logs/verify] a lookup that never answers is unknown, never spoofed", async () => {
  const dns = createCrawlerDns({
    queries: { reverse: () => new Promise(() => {}), forward: () => Promise.resolve([]) },
    timeoutMs: 20,
  });
  assert.deepEqual(await dns.check("192.0.2.1", ["googlebot.com"]), {
    outcome: "unknown",
    why: "the reverse lookup timed out",
  });
});

/** Signs a request the way Web Bot Auth does (RFC 9421 base over the covered components). */
async function signed(path: string, keyPair: CryptoKeyPair, kid: string): Promise<LogHit> {
  const created = Date.UTC(2026, 11, 1) / 1000;
  const params = `("@authority" "@method" "@path" "signature-agent");created=${created};expires=${
    created + 3600
  };keyid="${kid}";tag="web-bot-auth"`;
  const base = [
    `"@authority": shop.test`,
    `"@method": GET`,
    `"@path": ${path}`,
    `"signature-agent": "https://chatgpt.com"`,
    `"@signature-params": ${params}`,
  ].join("\n");
  const sig = new Uint8Array(
    await crypto.subtle.sign("Ed25519", keyPair.privateKey, new TextEncoder().encode(base)),
  );
  return {
    time: (created + 10) * 1000,
    ip: "203.0.113.50",
    method: "GET",
    target: path,
    status: 200,
    bytes: 0,
    userAgent: "Mozilla/5.0 ChatGPT-User/1.0",
    signature: {
      signature: `sig1=:${btoa(String.fromCharCode(...sig))}:`,
      signatureInput: `sig1=${params}`,
      signatureAgent: `"https://chatgpt.com"`,
      authority: "shop.test",
    },
  };
}

Deno.test("[logs/verify] Web Bot Auth: a valid signature verifies; a changed path or unknown key does not", async () => {
  const keyPair = await crypto.subtle.generateKey("Ed25519", true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", keyPair.publicKey);
  const key = { kty: "OKP", crv: "Ed25519", x: jwk.x! };
  const kid = await jwkThumbprint(key);
  const directory = (origin: string) =>
    origin === "https://chatgpt.com"
      ? Promise.resolve([key])
      : Promise.reject(new Error("unknown agent"));
  const hit = await signed("/blog/a", keyPair, kid);
  assert.deepEqual(await checkSignature(hit, directory), {
    outcome: "valid",
    agent: "https://chatgpt.com",
  });
  const tampered = { ...hit, target: "/blog/b" };
  assert.deepEqual(await checkSignature(tampered, directory), {
    outcome: "invalid",
    agent: "https://chatgpt.com",
    why: "bad signature",
  });
  const otherKey = await signed("/blog/a", keyPair, "not-a-known-key");
  assert.equal((await checkSignature(otherKey, directory)).outcome, "invalid");
  const late = { ...hit, time: hit.time + 5 * 3600_000 };
  assert.deepEqual(await checkSignature(late, directory), {
    outcome: "invalid",
    agent: "https://chatgpt.com",
    why: "expired before the request",
  });
  // The judge takes a valid signature from OpenAI's agent as proof for OpenAI's ChatGPT-User,
  // even from an address outside OpenAI's lists.
  const judge = createJudge({
    ranges: await loadRanges({ snapshot: false }),
    dns: null,
    keys: directory,
  });
  const chatgpt = CRAWLERS.find((c) => c.token === "ChatGPT-User")!;
  assert.deepEqual(await judge(hit, chatgpt), {
    verdict: "verified",
    basis: "web_bot_auth",
    signature: "valid",
  });
  const j = await judge(tampered, chatgpt);
  assert.equal(j.verdict, "unverifiable");
  assert.equal(j.signature, "invalid");
});

Deno.test("[logs/verify] every list of the shipped snapshot is one the registry names, with where and when it was read", async () => {
  const snapshot = JSON.parse(
    await Deno.readTextFile(
      new URL("../../../lib/features/logs/ip_ranges_snapshot.json", import.meta.url),
    ),
  ) as { lists: Record<string, { url: string; readFrom: string; readOn: string }> };
  const { RANGE_LISTS } = await import("../../../lib/features/logs/verify_sources.ts");
  for (const [file, list] of Object.entries(snapshot.lists)) {
    const named = RANGE_LISTS.find((l) => l.fileName === file);
    assert.ok(named, `${file} is not a list the registry names`);
    assert.equal(list.url, named.url, file);
    assert.match(list.readOn, /^\d{4}-\d\d-\d\d$/, file);
    assert.ok(list.readFrom.length > 10, file);
  }
  const ranges = await loadRanges();
  for (const file of ["gptbot.json", "searchbot.json", "chatgpt-user.json", "bots.json"]) {
    const l = ranges.lists.find((x) => x.fileName === file)!;
    assert.equal(l.from, "snapshot", file);
    assert.ok(l.ranges > 10, file);
  }
});
