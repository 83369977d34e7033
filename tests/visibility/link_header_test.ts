/** llms.txt v2 link relations from a Link header, and which llms.txt covers a page. */
import assert from "node:assert/strict";
import {
  coveringLlms,
  llmsScope,
  readLinkHeader,
} from "../../lib/engines/visibility/link_header.ts";

const BASE = "https://shop.example/docs/intro";

Deno.test("link header - markdown alternates and describedby are read, other relations are not", () => {
  const r = readLinkHeader(
    '</docs/intro.md>; rel="alternate"; type="text/markdown", </docs/llms.txt>; rel=describedby, ' +
      '</feed.xml>; rel="alternate"; type="application/rss+xml", <https://cdn.example/x.css>; rel=preload; as=style',
    BASE,
  );
  assert.deepEqual(r.markdown, ["https://shop.example/docs/intro.md"]);
  assert.deepEqual(r.describedBy, ["https://shop.example/docs/llms.txt"]);
});

Deno.test("link header - relation lists, quoted commas and junk do not throw", () => {
  const r = readLinkHeader(
    '<a.md>; title="a, b"; rel="alternate nofollow"; type="text/markdown; charset=utf-8", <javascript:x>; rel=describedby, <<>>;;',
    BASE,
  );
  assert.deepEqual(r.markdown, ["https://shop.example/docs/a.md"]);
  assert.deepEqual(r.describedBy, []);
});

Deno.test("llms.txt scope - a file covers its folder; the most specific file on the page's origin applies", () => {
  assert.equal(llmsScope("https://shop.example/llms.txt"), "/");
  assert.equal(llmsScope("https://shop.example/docs/llms.txt"), "/docs/");
  const files = ["https://shop.example/llms.txt", "https://shop.example/docs/llms.txt"];
  assert.equal(coveringLlms("https://shop.example/docs/a", files), files[1]);
  assert.equal(coveringLlms("https://shop.example/about", files), files[0]);
  assert.equal(coveringLlms("https://shop.example/docsx", [files[1]]), null);
  assert.equal(coveringLlms("https://other.example/docs/a", files), null);
});
