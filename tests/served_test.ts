/**
 * Files as real servers send them, through the real guarded fetcher on loopback: sitemaps gzipped
 * (`.xml.gz` as a file, and `Content-Encoding: gzip`), several Sitemap lines of which some are bad,
 * a sitemap index, and pages in legacy encodings declared by header, <meta> or BOM.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { createGuardedFetcher } from "../lib/kit/net/guarded_fetch.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { takeSnapshot } from "../lib/engines/visibility/snapshot.ts";
import { analyseSnapshot } from "../lib/engines/visibility/scan.ts";
import type { Result } from "../lib/engines/visibility/record.ts";
import { decodeBody, prescanMetaCharset } from "../lib/kit/net/decode.ts";
import { page } from "./helpers/verdict_env.ts";

const NOW = new Date("2026-11-21T12:00:00Z");
const enc = new TextEncoder();

type Route = {
  body: Uint8Array | string;
  type?: string;
  headers?: Record<string, string>;
  status?: number;
};

async function withSite(
  routes: Record<string, Route>,
  fn: (scan: () => Promise<Result>) => Promise<void>,
) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    const r = routes[path];
    if (!r) {
      return new Response("not found", { status: 404, headers: { "content-type": "text/html" } });
    }
    const body = typeof r.body === "string" ? enc.encode(r.body) : r.body;
    return new Response(body as BodyInit, {
      status: r.status ?? 200,
      headers: { "content-type": r.type ?? "text/html; charset=utf-8", ...(r.headers ?? {}) },
    });
  });
  const fetcher = createGuardedFetcher({
    userAgent: "test",
    resolve: new Map([["news.test", { host: "127.0.0.1", port: server.addr.port }]]),
  });
  try {
    await fn(async () => {
      const snapshot = await takeSnapshot(normaliseTarget("http://news.test"), { fetcher });
      return analyseSnapshot(snapshot, null, NOW);
    });
  } finally {
    await fetcher.close();
    await server.shutdown();
  }
}

const sig = (r: Result, id: string) =>
  r.pillars.flatMap((p) => p.signals).find((s) => s.id === id)!;

const urlset = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
    Array.from({ length: n }, (_, i) =>
      `<url><loc>http://news.test/story/${i}</loc><lastmod>2026-11-0${1 + (i % 9)}</lastmod></url>`)
      .join("")
  }</urlset>`;

Deno.test("[served] gzipped sitemaps, a bad Sitemap line before a good one, and an index are read", async () => {
  const index =
    `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://news.test/posts.xml</loc><lastmod>2026-11-10</lastmod></sitemap></sitemapindex>`;
  await withSite({
    "/": { body: page() },
    "/robots.txt": {
      type: "text/plain",
      body:
        "User-agent: *\nAllow: /\n\nSitemap: http://news.test/gone.xml\nSitemap: http://[broken\nSitemap: http://news.test/sitemap_index.xml.gz\n",
    },
    // A .gz file as such: the body is the gzip file, no Content-Encoding.
    "/sitemap_index.xml.gz": { type: "application/x-gzip", body: new Uint8Array(gzipSync(index)) },
    // Content-Encoding: gzip: the transport is compressed, the file is XML.
    "/posts.xml": {
      type: "application/xml",
      headers: { "content-encoding": "gzip" },
      body: new Uint8Array(gzipSync(urlset(12))),
    },
  }, async (scan) => {
    const r = await scan();
    const s = sig(r, "discovery.sitemap");
    assert.equal(s.status, "pass", `${s.detail} ${s.evidence.join(" | ")}`);
    assert.ok(s.evidence.some((e) => e.includes("sitemap_index.xml.gz")));
    assert.ok(
      s.evidence.some((e) => e.startsWith("child http://news.test/posts.xml: urlset, 12 <loc>")),
    );
    assert.ok(s.evidence.some((e) => e.includes("gone.xml (HTTP 404)")));
    assert.equal(sig(r, "discovery.sitemap_in_robots").status, "pass");
  });
});

Deno.test("[served] a windows-1251 page declared in <meta> and a Shift_JIS page declared in the header are read, not mojibake", async () => {
  // "Привет" in windows-1251; "日本" in Shift_JIS.
  const cyr = new Uint8Array([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
  const html1251 = new Uint8Array([
    ...enc.encode(
      '<!doctype html><html lang="ru"><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><title>',
    ),
    ...cyr,
    ...enc.encode(" | News</title></head><body><h1>x</h1></body></html>"),
  ]);
  await withSite({ "/": { body: html1251, type: "text/html" } }, async (scan) => {
    const r = await scan();
    assert.match(sig(r, "technical.title").detail, /Привет/);
  });
  const sjis = new Uint8Array([0x93, 0xfa, 0x96, 0x7b]);
  const htmlSjis = new Uint8Array([
    ...enc.encode('<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>'),
    ...sjis,
    ...enc.encode("</title></head><body><h1>x</h1></body></html>"),
  ]);
  await withSite(
    { "/": { body: htmlSjis, type: "text/html; charset=Shift_JIS" } },
    async (scan) => {
      const r = await scan();
      assert.match(sig(r, "technical.title").detail, /日本/, "the header outranks the <meta>");
    },
  );
});

Deno.test("[served] decodeBody: BOM, then header, then <meta> prescan, then UTF-8 or windows-1252", () => {
  const gbk = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4]); // "中文"
  const withMeta = new Uint8Array([...enc.encode('<meta charset="gbk"><p>'), ...gbk]);
  assert.equal(decodeBody(withMeta, "text/html").text, '<meta charset="gbk"><p>中文');
  assert.equal(decodeBody(withMeta, "text/html").source, "meta");
  // The BOM outranks a contradicting header.
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode("é")]);
  assert.deepEqual(
    [decodeBody(bom, "text/html; charset=windows-1252").text, decodeBody(bom, null).source],
    ["é", "bom"],
  );
  // No declaration: valid UTF-8 is UTF-8, anything else windows-1252 (never U+FFFD soup).
  assert.equal(decodeBody(enc.encode("naïve"), "text/html").text, "naïve");
  assert.equal(decodeBody(enc.encode("a \uFFFD written as such"), "text/html").encoding, "utf-8");
  assert.equal(decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "text/html").text, "café");
  // A body cut in the middle of a character is still UTF-8.
  assert.equal(
    decodeBody(enc.encode("abc€").subarray(0, 5), "text/html", "", 1e6, true).encoding,
    "utf-8",
  );
  // Unknown labels fall through; comments are skipped by the prescan.
  assert.equal(decodeBody(enc.encode("x"), "text/html; charset=bogus-9").source, "default");
  assert.equal(
    prescanMetaCharset(enc.encode('<!-- <meta charset="koi8-r"> --><meta charset="euc-kr">')),
    "euc-kr",
  );
  assert.equal(prescanMetaCharset(enc.encode('<meta charset="utf-16">')), "utf-8");
  // A .gz file larger than the bound once inflated is cut there, not thrown away.
  const big = new Uint8Array(
    gzipSync("<urlset>" + "<url><loc>https://a.example/</loc></url>".repeat(20_000)),
  );
  const cut = decodeBody(big, "application/gzip", "https://a.example/sitemap.xml.gz", 100_000);
  assert.ok(cut.gunzipped && cut.cut);
  assert.ok(cut.text.startsWith("<urlset><url><loc>") && cut.text.length <= 100_000);
  assert.ok(cut.text.length > 1000, `${cut.text.length} characters kept`);
});
