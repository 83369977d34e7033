/**
 * Smoke test of the local fixture sites (tests/fixtures/site_server.ts). Requests go over raw TCP,
 * because Deno's fetch ignores a Host header.
 */
import assert from "node:assert/strict";
import { concatBytes as concat } from "./helpers/bytes.ts";
import { FIXTURE_HOSTS, startFixtureSites } from "./fixtures/site_server.ts";

const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const DEFAULT_SCANNER_UA = "Mozilla/5.0 (compatible; AIVisibilityBot/0.1.0; +https://example.com)";
const GPTBOT_UA =
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";

interface RawResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  text: string;
}

const STEP = { sanitizeOps: false, sanitizeResources: false } as const;

function requestBytes(host: string, path: string, userAgent: string): Uint8Array {
  return new TextEncoder().encode(
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${userAgent}\r\n` +
      `Accept: */*\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`,
  );
}

async function writeAll(conn: Deno.Conn, data: Uint8Array): Promise<void> {
  let written = 0;
  while (written < data.length) written += await conn.write(data.subarray(written));
}

function headerEnd(data: Uint8Array): number {
  for (let i = 0; i + 3 < data.length; i++) {
    if (data[i] === 13 && data[i + 1] === 10 && data[i + 2] === 13 && data[i + 3] === 10) return i;
  }
  return -1;
}

function parseHead(head: string): { status: number; headers: Headers } {
  const [statusLine, ...lines] = head.split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { status, headers };
}

function decodeChunked(data: Uint8Array): Uint8Array {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  while (offset < data.length) {
    let lineEnd = offset;
    while (!(data[lineEnd] === 13 && data[lineEnd + 1] === 10)) lineEnd++;
    const size = parseInt(new TextDecoder().decode(data.subarray(offset, lineEnd)), 16);
    if (!size) break;
    chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return concat(chunks);
}

/** GET over a fresh TCP connection with `Connection: close`, reading to EOF. */
async function get(
  port: number,
  host: string,
  path: string,
  userAgent = BROWSER_UA,
): Promise<RawResponse> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const chunks: Uint8Array[] = [];
  try {
    await writeAll(conn, requestBytes(host, path, userAgent));
    const buf = new Uint8Array(256 * 1024);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
  } finally {
    conn.close();
  }
  const data = concat(chunks);
  const end = headerEnd(data);
  assert.ok(end > 0, `no response head from ${host}${path}`);
  const { status, headers } = parseHead(new TextDecoder("latin1").decode(data.subarray(0, end)));
  let body = data.subarray(end + 4);
  if (headers.get("transfer-encoding")?.toLowerCase().includes("chunked")) {
    body = decodeChunked(body);
  }
  return { status, headers, body, text: new TextDecoder().decode(body) };
}

/** Opens a connection and reads only until the response head has arrived. */
async function getHead(
  port: number,
  host: string,
  path: string,
): Promise<{ conn: Deno.Conn; status: number; headers: Headers }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const chunks: Uint8Array[] = [];
  await writeAll(conn, requestBytes(host, path, BROWSER_UA));
  const buf = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) throw new Error("connection closed before the response head");
    chunks.push(buf.slice(0, n));
    const data = concat(chunks);
    const end = headerEnd(data);
    if (end >= 0) {
      const head = parseHead(new TextDecoder("latin1").decode(data.subarray(0, end)));
      return { conn, ...head };
    }
  }
}

function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
    .map((m) => JSON.parse(m[1]));
}

Deno.test("fixture sites serve each site's key behaviour and close cleanly", async (t) => {
  const sites = await startFixtureSites();
  const { port } = sites;
  try {
    await t.step({
      name: "exposes hosts, resolve map and SCAN_RESOLVE string",
      ...STEP,
      fn() {
        assert.deepEqual(sites.hosts, Object.keys(FIXTURE_HOSTS));
        assert.equal(sites.hosts.length, 18);
        assert.deepEqual(sites.resolve.get("good.test"), { host: "127.0.0.1", port });
        assert.ok(sites.scanResolve.split(",").includes(`slow.test=127.0.0.1:${port}`));
        assert.ok(sites.hosts.every((h) => h.endsWith(".test")));
      },
    });

    await t.step({
      name: "good.test is complete",
      ...STEP,
      async fn() {
        const home = await get(port, "good.test", "/");
        assert.equal(home.status, 200);
        assert.match(home.headers.get("content-type") ?? "", /^text\/html/);
        assert.equal(home.headers.get("x-robots-tag"), null);
        assert.ok(!home.text.includes("{{"), "date placeholders are filled");
        const title = /<title>(.*?)<\/title>/.exec(home.text)?.[1] ?? "";
        assert.ok(title.length >= 30 && title.length <= 60, title);
        const description = /name="description" content="([^"]*)"/.exec(home.text)?.[1] ?? "";
        assert.ok(description.length >= 120 && description.length <= 160, description);
        const [ld] = jsonLd(home.text) as { "@graph": { "@type": string }[] }[];
        const types = ld["@graph"].map((n) => n["@type"]);
        for (const type of ["Organization", "WebSite", "WebPage", "BreadcrumbList", "FAQPage"]) {
          assert.ok(types.includes(type), type);
        }
        assert.match(home.text, /<time datetime="\d{4}-\d{2}-\d{2}">/);

        const robots = await get(port, "good.test", "/robots.txt");
        assert.equal(robots.status, 200);
        assert.match(robots.headers.get("content-type") ?? "", /^text\/plain/);
        assert.match(robots.text, /^Sitemap: https:\/\/good\.test\/sitemap\.xml$/m);

        const sitemap = await get(port, "good.test", "/sitemap.xml");
        assert.equal(sitemap.status, 200);
        assert.match(sitemap.headers.get("content-type") ?? "", /^application\/xml/);
        assert.ok((sitemap.text.match(/<loc>/g) ?? []).length >= 5);
        const lastmods = [...sitemap.text.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) =>
          Date.parse(m[1])
        );
        assert.ok(lastmods.every((d) => Date.now() - d < 90 * 86_400_000), "recent lastmod");

        const llms = await get(port, "good.test", "/llms.txt");
        assert.equal(llms.status, 200);
        assert.match(llms.text, /^# Good Coffee Roasters\n\n> /);
        assert.match(llms.text, /^## Optional$/m);
        assert.match(llms.text, /^- \[[^\]]+\]\(https:\/\/good\.test\/[^)]*\): /m);
        assert.equal((await get(port, "good.test", "/llms-full.txt")).status, 200);

        for (const path of ["/about", "/contact", "/blog/", "/blog/pour-over-guide"]) {
          assert.equal((await get(port, "good.test", path)).status, 200, path);
        }
        const png = await get(port, "good.test", "/images/og-cover.png");
        assert.equal(png.headers.get("content-type"), "image/png");
        const missing = await get(port, "good.test", "/no-such-page");
        assert.equal(missing.status, 404);
        assert.match(missing.headers.get("content-type") ?? "", /^text\/html/);
        assert.equal((await get(port, "good.test", "/%2e%2e/good.test/index.html")).status, 404);
      },
    });

    await t.step({
      name: "robots.txt variants",
      ...STEP,
      async fn() {
        const search = await get(port, "blocks-search.test", "/robots.txt");
        assert.match(search.text, /User-agent: OAI-SearchBot\nDisallow: \//);
        assert.match(search.text, /User-agent: \*\nAllow: \//);
        const training = await get(port, "blocks-training.test", "/robots.txt");
        assert.match(training.text, /User-agent: meta-externalagent\nDisallow: \//);
        assert.equal(
          (await get(port, "blanket-disallow.test", "/robots.txt")).text,
          "User-agent: *\nDisallow: /\n",
        );
        assert.equal((await get(port, "robots-500.test", "/robots.txt")).status, 500);
        assert.equal((await get(port, "robots-500.test", "/")).status, 200);
        const broken = await get(port, "broken-robots.test", "/robots.txt");
        assert.equal(broken.status, 200);
        assert.match(broken.headers.get("content-type") ?? "", /^text\/html/);
        assert.match(broken.text, /<html/);
      },
    });

    await t.step({
      name: "edge-blocks-bots.test challenges crawlers only",
      ...STEP,
      async fn() {
        const bot = await get(port, "edge-blocks-bots.test", "/", GPTBOT_UA);
        assert.equal(bot.status, 403);
        assert.equal(bot.headers.get("cf-mitigated"), "challenge");
        assert.equal(bot.headers.get("server"), "cloudflare");
        assert.match(bot.text, /<title>Just a moment\.\.\.<\/title>/);
        const bing = await get(
          port,
          "edge-blocks-bots.test",
          "/",
          "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        );
        assert.equal(bing.status, 403);
        for (const ua of [BROWSER_UA, DEFAULT_SCANNER_UA]) {
          const page = await get(port, "edge-blocks-bots.test", "/", ua);
          assert.equal(page.status, 200, ua);
          assert.equal(page.headers.get("cf-mitigated"), null);
          assert.match(page.text, /Good Coffee Roasters/);
        }
        assert.equal(
          (await get(port, "edge-blocks-bots.test", "/robots.txt", GPTBOT_UA)).status,
          200,
        );
      },
    });

    await t.step({
      name: "page-level signals: noindex, js shell, weak page, malformed, huge",
      ...STEP,
      async fn() {
        const noindex = await get(port, "noindex.test", "/");
        assert.equal(noindex.headers.get("x-robots-tag"), "noindex");
        assert.match(noindex.text, /<meta name="robots" content="noindex, nofollow">/);

        const shell = await get(port, "js-shell.test", "/");
        assert.match(shell.text, /<div id="root"><\/div>/);
        const js = await get(port, "js-shell.test", "/static/js/main.js");
        assert.equal(js.status, 200);
        assert.match(js.headers.get("content-type") ?? "", /^text\/javascript/);
        assert.ok(js.body.length > 290_000 && js.body.length < 320_000, String(js.body.length));

        assert.equal((await get(port, "no-llms.test", "/")).status, 200);
        assert.equal((await get(port, "no-llms.test", "/llms.txt")).status, 404);
        assert.equal((await get(port, "no-llms.test", "/sitemap.xml")).status, 404);

        const malformed = await get(port, "malformed.test", "/");
        assert.equal(malformed.status, 200);
        assert.match(malformed.text, /<title>Mike's Discount Tyres/);
        assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(malformed.body));
        assert.ok(malformed.text.split('<div class="wrap">').length - 1 === 5000);

        const huge = await get(port, "huge.test", "/");
        assert.equal(huge.status, 200);
        assert.ok(huge.body.length > 5 * 1024 * 1024, String(huge.body.length));
        assert.match(huge.text.slice(0, 2000), /<title>[^<]+<\/title>/);
        const withLength = await get(port, "huge.test", "/with-length");
        assert.equal(Number(withLength.headers.get("content-length")), huge.body.length);
      },
    });

    await t.step({
      name: "redirects, errors and unknown hosts",
      ...STEP,
      async fn() {
        const loop1 = await get(port, "redirect-loop.test", "/");
        assert.equal(loop1.status, 301);
        assert.equal(loop1.headers.get("location"), "/a");
        const loop2 = await get(port, "redirect-loop.test", "/a");
        assert.equal(loop2.status, 302);
        assert.equal(loop2.headers.get("location"), "/");

        const priv = await get(port, "redirect-private.test", "/");
        assert.equal(priv.status, 302);
        assert.equal(priv.headers.get("location"), `http://127.0.0.1:${port}/`);

        const apex = await get(port, "good-redirect.test", "/");
        assert.equal(apex.status, 301);
        assert.equal(apex.headers.get("location"), "https://www.good-redirect.test/");
        assert.equal((await get(port, "www.good-redirect.test", "/")).status, 200);
        assert.equal((await get(port, "WWW.Good-Redirect.test:443", "/robots.txt")).status, 200);

        assert.equal((await get(port, "down.test", "/")).status, 503);
        assert.equal((await get(port, "down.test", "/robots.txt")).status, 503);
        assert.equal((await get(port, "unknown.test", "/")).status, 421);
        assert.equal((await get(port, `127.0.0.1:${port}`, "/")).status, 421);
      },
    });

    await t.step({
      name: "slow.test sends headers, then drips",
      ...STEP,
      async fn() {
        const started = performance.now();
        const { conn, status, headers } = await getHead(port, "slow.test", "/");
        try {
          assert.equal(status, 200);
          assert.match(headers.get("content-type") ?? "", /^text\/html/);
          assert.ok(performance.now() - started < 1000);
        } finally {
          conn.close();
        }
      },
    });

    await t.step({
      name: "records every request",
      ...STEP,
      fn() {
        assert.ok(
          sites.requests.some((r) =>
            r.host === "good.test" && r.path === "/" && r.userAgent === BROWSER_UA
          ),
        );
        assert.ok(
          sites.requests.some((r) =>
            r.host === "edge-blocks-bots.test" && r.userAgent === GPTBOT_UA
          ),
        );
        assert.ok(sites.requests.some((r) => r.host === "www.good-redirect.test"));
        assert.ok(sites.requests.some((r) => r.host === "127.0.0.1"));
      },
    });
  } finally {
    await sites.close();
  }
});

Deno.test("close() ends a response that is still dripping", async () => {
  const sites = await startFixtureSites();
  const { conn, status } = await getHead(sites.port, "slow.test", "/");
  try {
    assert.equal(status, 200);
    const started = performance.now();
    await sites.close();
    assert.ok(performance.now() - started < 2000);
    const buf = new Uint8Array(4096);
    while ((await conn.read(buf)) !== null) {
      // drain until the server closes the connection
    }
  } finally {
    conn.close();
  }
  await sites.close(); // idempotent
});

Deno.test("delayMs delays every response", async () => {
  const sites = await startFixtureSites({ delayMs: 150 });
  try {
    const started = performance.now();
    const res = await get(sites.port, "good.test", "/robots.txt");
    assert.equal(res.status, 200);
    assert.ok(performance.now() - started >= 140);
  } finally {
    await sites.close();
  }
});
