/**
 * The guarded fetcher against loopback servers only. Servers are reached through the `resolve`
 * map (site.test -> 127.0.0.1:port) or through an injected `lookup`; every test counts the
 * connections its "sentinel" listeners accept to prove that blocked requests never connect.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  BodyBuffer,
  createGuardedFetcher,
  findResolveTarget,
  type GuardedFetcherOptions,
  resolvePublicAddresses,
} from "../lib/kit/net/guarded_fetch.ts";
import { FetchError, type FetchErrorKind, type GuardedFetcher } from "../lib/kit/net/types.ts";

const UA = "AIVisibilityBot/test (+https://example.invalid/bot)";

interface TestServer {
  port: number;
  requests: Request[];
  close(): Promise<void>;
}

/** A Deno.serve server on 127.0.0.1 that records the requests it answers. */
function serve(handler: (req: Request, url: URL) => Response | Promise<Response>): TestServer {
  const requests: Request[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    requests.push(req);
    return handler(req, new URL(req.url));
  });
  return { port: server.addr.port, requests, close: () => server.shutdown() };
}

interface RawServer {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** A raw TCP listener for misbehaving responses, and as a sentinel that counts connections. */
function rawServer(
  onConnection: (conn: Deno.Conn) => Promise<void> = async () => {},
  hostname = "127.0.0.1",
  port = 0,
): RawServer {
  const listener = Deno.listen({ hostname, port });
  const conns = new Set<Deno.Conn>();
  const tasks: Promise<void>[] = [];
  let accepted = 0;
  const loop = (async () => {
    for await (const conn of listener) {
      accepted++;
      conns.add(conn);
      tasks.push(onConnection(conn).catch(() => {}));
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    get accepted() {
      return accepted;
    },
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
      await loop;
      await Promise.all(tasks);
    },
  };
}

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fetcherFor(
  sites: Record<string, number>,
  extra: Partial<GuardedFetcherOptions> = {},
): GuardedFetcher {
  const resolve = new Map(
    Object.entries(sites).map(([name, port]) => [name, { host: "127.0.0.1", port }]),
  );
  return createGuardedFetcher({ userAgent: UA, resolve, ...extra });
}

async function assertFetchError(
  promise: Promise<unknown>,
  kind: FetchErrorKind,
): Promise<FetchError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  assert.ok(error instanceof FetchError, `expected FetchError ${kind}, got ${error}`);
  assert.equal(error.kind, kind, error.message);
  return error;
}

Deno.test("[guarded_fetch] GET through the resolve map returns status, headers, body, timings", async () => {
  const server = serve((req) =>
    new Response(`hello ${req.headers.get("user-agent")}`, {
      status: 203,
      headers: { "x-test": "yes", "content-type": "text/plain; charset=utf-8" },
    })
  );
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const r = await fetcher.fetch("http://site.test/page?q=1");
    assert.equal(r.status, 203);
    assert.equal(r.url, "http://site.test/page?q=1");
    assert.equal(r.finalUrl, "http://site.test/page?q=1");
    assert.equal(r.headers["x-test"], "yes");
    assert.equal(r.body, `hello ${UA}`);
    assert.equal(r.bytes, encoder.encode(r.body).byteLength);
    assert.equal(r.truncated, false);
    assert.deepEqual(r.redirects, []);
    assert.equal(r.remoteAddress, "127.0.0.1");
    assert.ok(r.ttfbMs >= 0 && r.totalMs >= r.ttfbMs, `${r.ttfbMs} ${r.totalMs}`);
    const sent = server.requests[0].headers;
    assert.equal(sent.get("host"), "site.test");
    assert.match(sent.get("accept") ?? "", /^text\/html,.*\*\/\*;q=0\.8$/);
    assert.equal(sent.get("accept-encoding"), "gzip, deflate, br");
    assert.equal(sent.get("accept-language"), "en");

    // https:// on a mapped name is served over plain HTTP (the SCAN_RESOLVE rule); per-request
    // User-Agent and headers override the defaults; HEAD has no body.
    const head = await fetcher.fetch("https://site.test/", {
      method: "HEAD",
      userAgent: "GPTBot/1.0",
      headers: { "Accept-Language": "fr" },
    });
    assert.equal(head.status, 203);
    assert.equal(head.body, "");
    assert.equal(server.requests[1].method, "HEAD");
    assert.equal(server.requests[1].headers.get("user-agent"), "GPTBot/1.0");
    assert.equal(server.requests[1].headers.get("accept-language"), "fr");
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] direct loopback URLs are blocked before any connection", async () => {
  const sentinel = rawServer();
  const fetcher = fetcherFor({ "site.test": sentinel.port });
  try {
    for (
      const url of [
        `http://127.0.0.1:${sentinel.port}/`,
        `http://[::ffff:127.0.0.1]:${sentinel.port}/`,
        `http://0x7f.1:${sentinel.port}/`,
        `http://2130706433:${sentinel.port}/`,
        `http://localhost:${sentinel.port}/`,
      ]
    ) {
      await assertFetchError(fetcher.fetch(url), "blocked");
    }
    await assertFetchError(fetcher.fetch(`http://x@127.0.0.1:${sentinel.port}/`), "invalid_url");
    await sleep(20);
    assert.equal(sentinel.accepted, 0);
  } finally {
    await fetcher.close();
    await sentinel.close();
  }
});

Deno.test("[guarded_fetch] non-http schemes and bad methods are invalid_url", async () => {
  const fetcher = createGuardedFetcher({ userAgent: UA });
  try {
    for (const url of ["file:///etc/passwd", "ftp://example.com/", "gopher://x/", "data:,hi"]) {
      await assertFetchError(fetcher.fetch(url), "invalid_url");
    }
    await assertFetchError(fetcher.fetch("::not a url::"), "invalid_url");
    await assertFetchError(
      fetcher.fetch("http://site.test/", { method: "PUT" as "GET" }),
      "invalid_url",
    );
  } finally {
    await fetcher.close();
  }
});

Deno.test("[guarded_fetch] a POST sends its form body and never follows a redirect", async () => {
  let seen = "";
  const server = serve(async (req) => {
    seen = `${req.method} ${await req.text()}`;
    return new Response(null, { status: 302, headers: { location: "http://127.0.0.1:1/" } });
  });
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const r = await fetcher.fetch("http://site.test/verify", {
      method: "POST",
      body: new URLSearchParams({ secret: "s", response: "t" }),
    });
    assert.equal(r.status, 302);
    assert.equal(r.redirects.length, 0);
    assert.equal(seen, "POST secret=s&response=t");
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] a redirect chain is followed and recorded", async () => {
  const other = serve(() => new Response("landed"));
  const server = serve((_req, url) => {
    if (url.pathname === "/a") return Response.redirect("http://site.test/b", 301);
    if (url.pathname === "/b") {
      return new Response(null, { status: 302, headers: { location: "c?x=1" } });
    }
    return new Response(null, { status: 307, headers: { location: "//other.test/final" } });
  });
  const fetcher = fetcherFor({ "site.test": server.port, "other.test": other.port });
  try {
    const r = await fetcher.fetch("http://site.test/a");
    assert.equal(r.status, 200);
    assert.equal(r.body, "landed");
    assert.equal(r.finalUrl, "http://other.test/final");
    assert.deepEqual(r.redirects, [
      { url: "http://site.test/a", status: 301, location: "http://site.test/b" },
      { url: "http://site.test/b", status: 302, location: "http://site.test/c?x=1" },
      { url: "http://site.test/c?x=1", status: 307, location: "http://other.test/final" },
    ]);
  } finally {
    await fetcher.close();
    await server.close();
    await other.close();
  }
});

Deno.test("[guarded_fetch] redirects to loopback, localhost and metadata are blocked", async () => {
  const sentinel = rawServer();
  const targets = [
    `http://127.0.0.1:${sentinel.port}/`,
    `http://localhost:${sentinel.port}/`,
    "http://169.254.169.254/latest/meta-data/",
    `http://[::1]:${sentinel.port}/`,
    `http://0177.0.0.1:${sentinel.port}/`,
    `http://[fd00:ec2::254]/`,
  ];
  const server = serve((_req, url) =>
    new Response(null, {
      status: 302,
      headers: { location: targets[Number(url.searchParams.get("i"))] },
    })
  );
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    for (let i = 0; i < targets.length; i++) {
      const error = await assertFetchError(fetcher.fetch(`http://site.test/?i=${i}`), "blocked");
      assert.match(error.message, /not public|localhost/);
    }
    const file = serve(() =>
      new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } })
    );
    const f2 = fetcherFor({ "site.test": file.port });
    await assertFetchError(f2.fetch("http://site.test/"), "invalid_url");
    await f2.close();
    await file.close();
    await sleep(20);
    assert.equal(sentinel.accepted, 0);
  } finally {
    await fetcher.close();
    await server.close();
    await sentinel.close();
  }
});

Deno.test("[guarded_fetch] redirect caps: 5 succeed, 6 fail, loops fail, maxRedirects clamps", async () => {
  // /n/K redirects K more times before answering 200; /loop redirects to itself.
  const server = serve((_req, url) => {
    if (url.pathname === "/loop") return Response.redirect("http://site.test/loop", 302);
    const left = Number(url.pathname.split("/")[2]);
    if (left === 0) return new Response("done");
    return Response.redirect(`http://site.test/n/${left - 1}`, 302);
  });
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const five = await fetcher.fetch("http://site.test/n/5");
    assert.equal(five.body, "done");
    assert.equal(five.redirects.length, 5);

    await assertFetchError(fetcher.fetch("http://site.test/n/6"), "too_many_redirects");
    const before = server.requests.length;
    await assertFetchError(fetcher.fetch("http://site.test/loop"), "too_many_redirects");
    assert.equal(server.requests.length - before, 6, "initial request + 5 followed hops");

    await assertFetchError(
      fetcher.fetch("http://site.test/n/6", { maxRedirects: 50 }),
      "too_many_redirects",
    );
    await assertFetchError(
      fetcher.fetch("http://site.test/n/1", { maxRedirects: 0 }),
      "too_many_redirects",
    );
    assert.equal((await fetcher.fetch("http://site.test/n/2", { maxRedirects: 2 })).status, 200);
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] names resolving to private addresses are blocked before connecting", async () => {
  const sentinel = rawServer();
  const calls: string[] = [];
  const answers: Record<string, string[]> = {
    "loop.test": ["127.0.0.1"],
    "private.test": ["10.0.0.1"],
    "metadata.test": ["169.254.169.254"],
    "v6.test": ["::1"],
    "mixed.test": ["127.0.0.1", "192.168.1.1"],
    "empty.test": [],
  };
  const fetcher = createGuardedFetcher({
    userAgent: UA,
    lookup: (hostname) => {
      calls.push(hostname);
      if (!(hostname in answers)) {
        return Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
      }
      return Promise.resolve(
        answers[hostname].map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
      );
    },
  });
  try {
    for (const name of ["loop.test", "private.test", "metadata.test", "v6.test", "mixed.test"]) {
      const error = await assertFetchError(
        fetcher.fetch(`http://${name}:${sentinel.port}/`),
        "blocked",
      );
      assert.equal(error.url, `http://${name}:${sentinel.port}/`);
    }
    await assertFetchError(fetcher.fetch(`http://empty.test:${sentinel.port}/`), "dns");
    await assertFetchError(fetcher.fetch(`http://nowhere.test:${sentinel.port}/`), "dns");
    // One lookup per connection attempt, and none of them connected.
    assert.deepEqual(calls, [
      "loop.test",
      "private.test",
      "metadata.test",
      "v6.test",
      "mixed.test",
      "empty.test",
      "nowhere.test",
    ]);
    await sleep(20);
    assert.equal(sentinel.accepted, 0);
  } finally {
    await fetcher.close();
    await sentinel.close();
  }
});

Deno.test("[guarded_fetch] the connection goes to the checked address (no DNS rebinding)", async () => {
  // Loopback stands in for "public" here (isAllowedAddress test seam): 127.0.0.1 is allowed,
  // 127.0.0.2 is not. The name "rebind.test" does not exist in real DNS, so a connection by
  // name instead of by the checked address would fail.
  const server = serve(() => new Response("ok", { headers: { connection: "close" } }));
  const sentinel = rawServer(undefined, "127.0.0.2", server.port);
  const answers = ["127.0.0.1", "127.0.0.2"];
  let calls = 0;
  const fetcher = createGuardedFetcher({
    userAgent: UA,
    isAllowedAddress: (ip) => ip === "127.0.0.1",
    lookup: () => Promise.resolve([{ address: answers[Math.min(calls++, 1)], family: 4 }]),
  });
  try {
    const first = await fetcher.fetch(`http://rebind.test:${server.port}/`);
    assert.equal(first.body, "ok");
    assert.equal(first.remoteAddress, "127.0.0.1");
    assert.equal(calls, 1);
    // The server closed the connection, so the next request connects (and looks up) again;
    // this time the name "rebinds" to a forbidden address and nothing connects to it.
    await assertFetchError(fetcher.fetch(`http://rebind.test:${server.port}/`), "blocked");
    assert.equal(calls, 2);
    await sleep(20);
    assert.equal(sentinel.accepted, 0);
    assert.equal(server.requests.length, 1);
  } finally {
    await fetcher.close();
    await server.close();
    await sentinel.close();
  }
});

/** A response body that never ends. */
function endless(chunkSize = 16 * 1024): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(chunkSize).fill(97);
  return new ReadableStream({ pull: (c) => c.enqueue(chunk) });
}

Deno.test("[guarded_fetch] an endless body is cut at maxBytes and at the 5 MiB default", async () => {
  const server = serve(() =>
    new Response(endless(), { headers: { "content-type": "text/plain" } })
  );
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const small = await fetcher.fetch("http://site.test/", { maxBytes: 64 * 1024 });
    assert.equal(small.truncated, true);
    assert.equal(small.bytes, 64 * 1024);
    assert.equal(small.body.length, 64 * 1024);

    const big = await fetcher.fetch("http://site.test/");
    assert.equal(big.truncated, true);
    assert.equal(big.bytes, 5 * 1024 * 1024);

    const exact = serve(() => new Response("x".repeat(1000)));
    const f2 = fetcherFor({ "site.test": exact.port });
    const whole = await f2.fetch("http://site.test/", { maxBytes: 1000 });
    assert.equal(whole.truncated, false);
    assert.equal(whole.bytes, 1000);
    await f2.close();
    await exact.close();
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] a body sent one byte per chunk is read whole into one buffer", async () => {
  const size = 64 * 1024;
  const server = serve(() => {
    let sent = 0;
    return new Response(
      new ReadableStream({
        pull: (c) => {
          if (sent++ < size) c.enqueue(new Uint8Array([98]));
          else c.close();
        },
      }),
      { headers: { "content-type": "text/plain" } },
    );
  });
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const r = await fetcher.fetch("http://site.test/", { maxBytes: size - 10 });
    assert.equal(r.truncated, true);
    assert.equal(r.body, "b".repeat(size - 10));
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] BodyBuffer: one-byte appends, the cap, and a buffer no larger than the cap", () => {
  const buffer = new BodyBuffer(300_000);
  for (let i = 0; i < 300_000; i++) assert.equal(buffer.append(new Uint8Array([i & 0xff])), true);
  assert.equal(buffer.append(new Uint8Array([1])), false);
  const bytes = buffer.bytes();
  assert.equal(bytes.byteLength, 300_000);
  assert.equal(bytes.buffer.byteLength, 300_000, "the buffer never grows past the cap");
  assert.equal(bytes[299_999], 299_999 & 0xff);
  const partial = new BodyBuffer(10);
  assert.equal(partial.append(new Uint8Array(4).fill(1)), true);
  assert.equal(partial.append(new Uint8Array(8).fill(2)), false);
  assert.deepEqual([...partial.bytes()], [1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
  assert.equal(new BodyBuffer(10).bytes().byteLength, 0);
});

Deno.test("[guarded_fetch] a gzip bomb is cut at maxBytes without inflating it whole", async () => {
  // Endless concatenated gzip members of 1 MiB of zeros each (~1 KB each on the wire): the
  // request can only finish if the fetcher stops inflating at maxBytes.
  const member = gzipSync(new Uint8Array(1024 * 1024), { level: 9 });
  const server = serve(() =>
    new Response(new ReadableStream({ pull: (c) => c.enqueue(member) }), {
      headers: { "content-encoding": "gzip", "content-type": "text/html" },
    })
  );
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const before = Deno.memoryUsage().rss;
    const r = await fetcher.fetch("http://site.test/", { maxBytes: 64 * 1024 });
    const grown = Deno.memoryUsage().rss - before;
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 64 * 1024);
    assert.equal(r.body, "\0".repeat(64 * 1024));
    assert.ok(grown < 256 * 1024 * 1024, `memory grew by ${grown} bytes`);
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] slow-drip bodies and silent servers end at the timeout", async () => {
  // The server has not sent its 200 bytes (5 s of drips) when the fetch gives up: the timeout
  // ended it, not the server (read as an event, not as a time: a loaded machine may run late).
  let dripped = false;
  const drip = rawServer(async (conn) => {
    await conn.write(encoder.encode("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"));
    for (let i = 0; i < 200; i++) {
      await sleep(25);
      await conn.write(encoder.encode("a"));
    }
    dripped = true;
  });
  const silent = rawServer(async () => {}); // accepts and never answers
  const fetcher = fetcherFor({ "drip.test": drip.port, "silent.test": silent.port });
  try {
    let start = performance.now();
    await assertFetchError(fetcher.fetch("http://drip.test/", { timeoutMs: 400 }), "timeout");
    let elapsed = performance.now() - start;
    assert.ok(!dripped, "the fetch gave up while the server was still dripping");
    // Not before its timeout (a timer never fires early: the lower bound holds on any machine).
    assert.ok(elapsed >= 350, `drip ended after ${elapsed} ms`);

    // A server that never answers: only the timeout can end this fetch.
    start = performance.now();
    await assertFetchError(fetcher.fetch("http://silent.test/", { timeoutMs: 300 }), "timeout");
    elapsed = performance.now() - start;
    assert.ok(elapsed >= 250, `silent ended after ${elapsed} ms`);
  } finally {
    await fetcher.close();
    await drip.close();
    await silent.close();
  }
});

Deno.test("[guarded_fetch] the caller's AbortSignal aborts the request", async () => {
  const silent = rawServer(async () => {});
  const fetcher = fetcherFor({ "silent.test": silent.port }, { requestTimeoutMs: 5_000 });
  try {
    const start = performance.now();
    await assertFetchError(
      fetcher.fetch("http://silent.test/", { signal: AbortSignal.timeout(150) }),
      "timeout",
    );
    assert.ok(performance.now() - start < 2000);
    const accepted = silent.accepted;

    const aborted = new AbortController();
    aborted.abort();
    await assertFetchError(
      fetcher.fetch("http://silent.test/", { signal: aborted.signal }),
      "timeout",
    );
    await sleep(20);
    assert.equal(silent.accepted, accepted, "an aborted request does not connect");
  } finally {
    await fetcher.close();
    await silent.close();
  }
});

Deno.test("[guarded_fetch] enormous headers and refused connections are network errors", async () => {
  const big = rawServer(async (conn) => {
    const head = `HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(200_000)}\r\nContent-Length: 0\r\n\r\n`;
    await conn.write(encoder.encode(head));
  });
  const closed = rawServer();
  const closedPort = closed.port;
  await closed.close();
  const fetcher = fetcherFor({ "big.test": big.port, "refused.test": closedPort });
  try {
    const error = await assertFetchError(fetcher.fetch("http://big.test/"), "network");
    assert.match(error.message, /HEADERS_OVERFLOW/);
    await assertFetchError(fetcher.fetch("http://refused.test/"), "network");
  } finally {
    await fetcher.close();
    await big.close();
  }
});

Deno.test("[guarded_fetch] invalid UTF-8 and latin1 bodies decode without throwing", async () => {
  const bodies: Record<string, [Uint8Array<ArrayBuffer>, string]> = {
    "/bad-utf8": [new Uint8Array([0x41, 0xff, 0xfe, 0x42, 0xc3]), "text/html; charset=utf-8"],
    "/latin1": [new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset="ISO-8859-1"'],
    "/bogus": [encoder.encode("caf\u00e9"), "text/html; charset=no-such-charset"],
    "/none": [encoder.encode("caf\u00e9"), "text/html"],
  };
  const server = serve((_req, url) => {
    const [bytes, type] = bodies[url.pathname];
    return new Response(bytes, { headers: { "content-type": type } });
  });
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    assert.equal((await fetcher.fetch("http://site.test/bad-utf8")).body, "A\uFFFD\uFFFDB\uFFFD");
    assert.equal((await fetcher.fetch("http://site.test/latin1")).body, "caf\u00e9");
    assert.equal((await fetcher.fetch("http://site.test/bogus")).body, "caf\u00e9");
    assert.equal((await fetcher.fetch("http://site.test/none")).body, "caf\u00e9");
  } finally {
    await fetcher.close();
    await server.close();
  }
});

Deno.test("[guarded_fetch] resolvePublicAddresses checks literals, names, time-outs and aborts", async () => {
  const never = () => new Promise<never>(() => {});
  assert.deepEqual(await resolvePublicAddresses("[2606:4700:4700::1111]"), [
    { address: "2606:4700:4700::1111", family: 6 },
  ]);
  await assertFetchError(resolvePublicAddresses("127.0.0.1"), "blocked");
  await assertFetchError(resolvePublicAddresses("localhost"), "blocked");
  await assertFetchError(resolvePublicAddresses("x.localhost"), "blocked");
  await assertFetchError(resolvePublicAddresses("slow.test", never, { timeoutMs: 50 }), "dns");
  const controller = new AbortController();
  const pending = resolvePublicAddresses("slow.test", never, { signal: controller.signal });
  controller.abort();
  await assertFetchError(pending, "timeout");
  const answers = await resolvePublicAddresses(
    "ok.test",
    () => Promise.resolve([{ address: "127.0.0.1", family: 4 }, { address: "junk", family: 4 }]),
    { isAllowedAddress: (ip) => ip === "127.0.0.1" },
  );
  assert.deepEqual(answers, [{ address: "127.0.0.1", family: 4 }]);
  const map = new Map([["shop.test", { host: "127.0.0.1", port: 4507 }]]);
  assert.deepEqual(findResolveTarget("SHOP.test.", map), { host: "127.0.0.1", port: 4507 });
  assert.equal(findResolveTarget("other.test", map), undefined);
});

Deno.test("[guarded_fetch] close() aborts connects stuck in DNS", async () => {
  const signals: AbortSignal[] = [];
  const fetcher = createGuardedFetcher({
    userAgent: UA,
    lookup: (_hostname, signal) => {
      if (signal) signals.push(signal);
      return new Promise<never>(() => {});
    },
  });
  const start = performance.now();
  await assertFetchError(fetcher.fetch("http://stuck.test/", { timeoutMs: 100 }), "timeout");
  assert.ok(performance.now() - start < 2000);
  assert.equal(signals.length, 1);
  // The request gave up, but its connect (and its 10 s timer) lives on until close().
  assert.equal(signals[0].aborted, false);
  await fetcher.close();
  assert.equal(signals[0].aborted, true);
  await assertFetchError(fetcher.fetch("http://stuck.test/"), "network");
});

Deno.test("[guarded_fetch] answers are tried in order, each checked address connected to", async () => {
  // 127.0.0.2 refuses (nothing listens there), so the fetcher falls back to the next answer.
  const server = serve(() => new Response("second answer"));
  const fetcher = createGuardedFetcher({
    userAgent: UA,
    isAllowedAddress: (ip) => ip === "127.0.0.1" || ip === "127.0.0.2",
    lookup: () =>
      Promise.resolve([{ address: "127.0.0.2", family: 4 }, { address: "127.0.0.1", family: 4 }]),
  });
  try {
    const r = await fetcher.fetch(`http://two.test:${server.port}/`);
    assert.equal(r.body, "second answer");
    assert.equal(r.remoteAddress, "127.0.0.1");
  } finally {
    await fetcher.close();
    await server.close();
  }
});

/** Self-signed for tls.test (valid for 100 years): no CA trusts it. */
const UNTRUSTED_CERT = `-----BEGIN CERTIFICATE-----
MIIBkzCCATigAwIBAgIUamQ4n52rPf+/9kzhmvmEmUERVw0wCgYIKoZIzj0EAwIw
EzERMA8GA1UEAwwIdGxzLnRlc3QwIBcNMjYxMTIxMDU1OTUyWhgPMjEyNjEwMjgw
NTU5NTJaMBMxETAPBgNVBAMMCHRscy50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAELs6Sp7k+o1QfKlNFR6oDs3QD7yb3kaHxDG0tvxHnf1CGkrN3rTT0jK3K
YaZ0mymEeYdgzdszB4wTYPp39vJwSaNoMGYwHQYDVR0OBBYEFAQ+jqiXVWCgcDV4
AhTAJL2z87sYMB8GA1UdIwQYMBaAFAQ+jqiXVWCgcDV4AhTAJL2z87sYMA8GA1Ud
EwEB/wQFMAMBAf8wEwYDVR0RBAwwCoIIdGxzLnRlc3QwCgYIKoZIzj0EAwIDSQAw
RgIhAJ0ikIolyKn4WNsyhyd9jpAUj64Q0beWN9NoJYAUhL0EAiEA7aWBX3JvAi+G
iU+raQmsVDKhDr3/WUUI8LJuin4Vv70=
-----END CERTIFICATE-----`;
const UNTRUSTED_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgP0vSzSzzdzvqboTT
Qrow2h6qWJ6o84I4HKjRCK9PoD6hRANCAAQuzpKnuT6jVB8qU0VHqgOzdAPvJveR
ofEMbS2/Eed/UIaSs3etNPSMrcphpnSbKYR5h2DN2zMHjBNg+nf28nBJ
-----END PRIVATE KEY-----`;

Deno.test("[guarded_fetch] https connects with TLS to the checked address and verifies the certificate", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: UNTRUSTED_CERT, key: UNTRUSTED_KEY, onListen() {} },
    () => new Response("should not be read"),
  );
  const plain = serve(() => new Response("plain http"));
  const fetcher = createGuardedFetcher({
    userAgent: UA,
    isAllowedAddress: (ip) => ip === "127.0.0.1",
    lookup: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
  });
  try {
    const untrusted = await assertFetchError(
      fetcher.fetch(`https://tls.test:${server.addr.port}/`),
      "network",
    );
    assert.match(untrusted.message, /CERT|certificate|SELF_SIGNED|UnknownIssuer/i);
    // A server that does not speak TLS at all fails the handshake.
    await assertFetchError(fetcher.fetch(`https://tls.test:${plain.port}/`), "network");
  } finally {
    await fetcher.close();
    await server.shutdown();
    await plain.close();
  }
});

Deno.test("[guarded_fetch] repeated X-Robots-Tag lines are kept apart, in order", async () => {
  const server = rawServer(async (conn) => {
    await conn.read(new Uint8Array(4096));
    const body = "<html></html>";
    await conn.write(encoder.encode(
      "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-robots-tag: googlebot: nosnippet\r\n" +
        `x-robots-tag: noindex\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    ));
    conn.close();
  });
  const fetcher = fetcherFor({ "site.test": server.port });
  try {
    const r = await fetcher.fetch("http://site.test/");
    assert.deepEqual(r.headerLines?.["x-robots-tag"], ["googlebot: nosnippet", "noindex"]);
    assert.equal(r.headers["x-robots-tag"], "googlebot: nosnippet, noindex");
  } finally {
    await fetcher.close();
    await server.close();
  }
});
