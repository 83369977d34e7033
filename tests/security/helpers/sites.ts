/**
 * Loopback web servers for the security suite, addressed by Host header like the fixture sites
 * (tests/fixtures/site_server.ts) but programmable per test: a table of host -> handler, a
 * fallback for any other name (e.g. `s1.test` ... `s100.test`), an optional delay, and a raw TCP
 * server for responses `Deno.serve` will not produce (enormous or dripping headers, garbage).
 * Everything listens on 127.0.0.1 only and is reached through SCAN_RESOLVE.
 */

/** One request a site server received. */
export interface SiteRequest {
  host: string;
  path: string;
  userAgent: string;
}

/** What a handler gets besides the request. */
export interface SiteCtx {
  host: string;
  url: URL;
  /** The server's own port. */
  port: number;
  /** Aborted when the server closes: endless streams must stop on it. */
  signal: AbortSignal;
}

export type SiteHandler = (req: Request, ctx: SiteCtx) => Response | Promise<Response>;

/** A running site server. */
export interface SiteServer {
  port: number;
  requests: SiteRequest[];
  /** Requests received for one host. */
  requestsTo(host: string): SiteRequest[];
  /** A SCAN_RESOLVE value mapping these host names to this server. */
  scanResolve(hosts: Iterable<string>): string;
  /** Adds or replaces the handler of a host. */
  route(host: string, handler: SiteHandler): void;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const HTML = "text/html; charset=utf-8";

/** Lowercased Host header without its port. */
function hostOf(req: Request): string {
  return (req.headers.get("host") ?? "").replace(/:\d+$/, "").toLowerCase().replace(/\.$/, "");
}

/** Waits `ms` unless the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Starts a site server on 127.0.0.1. `routes` maps host names to handlers; `fallback` answers
 * every other host (default 421). `delayMs` delays every response.
 */
export function startSiteServer(
  routes: Record<string, SiteHandler> = {},
  options: { fallback?: SiteHandler; delayMs?: number } = {},
): SiteServer {
  const table = new Map(Object.entries(routes).map(([h, f]) => [h.toLowerCase(), f]));
  const requests: SiteRequest[] = [];
  const stopping = new AbortController();
  let port = 0;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
    onError() {
      return new Response("site server error", { status: 500 });
    },
  }, async (req) => {
    const url = new URL(req.url);
    const host = hostOf(req);
    requests.push({
      host,
      path: url.pathname + url.search,
      userAgent: req.headers.get("user-agent") ?? "",
    });
    if (options.delayMs) await sleep(options.delayMs, stopping.signal);
    const handler = table.get(host) ?? options.fallback;
    if (!handler) return new Response(`no site called ${host}`, { status: 421 });
    return await handler(req, { host, url, port, signal: stopping.signal });
  });
  port = server.addr.port;
  let closing: Promise<void> | undefined;
  return {
    port,
    requests,
    requestsTo: (host) => requests.filter((r) => r.host === host),
    scanResolve: (hosts) => [...hosts].map((h) => `${h}=127.0.0.1:${port}`).join(","),
    route: (host, handler) => void table.set(host.toLowerCase(), handler),
    close() {
      closing ??= (async () => {
        stopping.abort();
        await server.shutdown();
      })();
      return closing;
    },
  };
}

/** A running raw TCP server. */
export interface RawServer {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** What a raw handler gets: the connection, the request head as text and a stop signal. */
export type RawHandler = (conn: Deno.Conn, head: string, signal: AbortSignal) => Promise<void>;

/**
 * A raw HTTP/1.1 responder on 127.0.0.1: reads the request head (up to 64 KiB) and hands the
 * connection to the handler of the request's Host, which writes whatever bytes it likes. The
 * connection is closed afterwards.
 */
export function startRawServer(routes: Record<string, RawHandler>): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const stopping = new AbortController();
  const conns = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();
  let accepted = 0;
  const serveConn = async (conn: Deno.Conn) => {
    try {
      const buf = new Uint8Array(64 * 1024);
      let head = "";
      while (!head.includes("\r\n\r\n") && head.length < 64 * 1024) {
        const n = await conn.read(buf);
        if (n === null) return;
        head += new TextDecoder().decode(buf.subarray(0, n));
      }
      const host = (head.match(/^host:\s*([^\r\n]+)/im)?.[1] ?? "").trim()
        .replace(/:\d+$/, "").toLowerCase();
      const handler = routes[host];
      if (!handler) {
        await conn.write(encoder.encode("HTTP/1.1 421 Misdirected\r\ncontent-length: 0\r\n\r\n"));
        return;
      }
      await handler(conn, head, stopping.signal);
    } catch {
      // The client went away: that is what most hostile responses end with.
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  const loop = (async () => {
    for await (const conn of listener) {
      accepted++;
      conns.add(conn);
      const task = serveConn(conn);
      tasks.add(task);
      task.finally(() => tasks.delete(task));
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    get accepted() {
      return accepted;
    },
    async close() {
      stopping.abort();
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await loop;
      await Promise.allSettled([...tasks]);
    },
  };
}

/** A SCAN_RESOLVE value for hosts served at 127.0.0.1:port. */
export function resolveEntries(hosts: Iterable<string>, port: number): string {
  return [...hosts].map((h) => `${h}=127.0.0.1:${port}`).join(",");
}

/** An HTML response. */
export function html(body: string | Uint8Array | ReadableStream<Uint8Array>, status = 200) {
  return new Response(body as BodyInit, { status, headers: { "content-type": HTML } });
}

/** A plain-text response. */
export function text(body: string | ReadableStream<Uint8Array>, status = 200, type = "text/plain") {
  return new Response(body as BodyInit, { status, headers: { "content-type": type } });
}

/** A redirect. */
export function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } });
}

/**
 * A decent, fully scorable home page for `host`: title, description, canonical, Open Graph,
 * JSON-LD, one h1, sections, ~200 words, About and Contact links. `extra` is inserted in <body>.
 */
export function decentPage(host: string, extra = ""): string {
  const words = Array.from(
    { length: 40 },
    (_, i) => `Sentence ${i} explains what ${host} offers and why readers care.`,
  ).join(" ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>${host} - a decent test site</title>
<meta name="description" content="A decent page served for ${host} by the security suite.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="https://${host}/">
<meta property="og:title" content="${host}"><meta property="og:site_name" content="${host}">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization",
"name":"${host}","url":"https://${host}/","logo":"https://${host}/logo.png"}</script>
</head><body><header><nav><a href="/about">About</a> <a href="/contact">Contact</a></nav></header>
<main><h1>${host}</h1><section><h2>What we do</h2><p>${words}</p></section>${extra}</main>
<footer>Contact us</footer></body></html>`;
}

/** robots.txt that welcomes everyone, optionally naming a sitemap. */
export function robotsTxt(sitemap?: string): string {
  return `User-agent: *\nAllow: /\n${sitemap ? `Sitemap: ${sitemap}\n` : ""}`;
}

/** A small valid sitemap. */
export function sitemapXml(host: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://${host}/</loc><lastmod>${new Date().toISOString().slice(0, 10)}</lastmod></url>
</urlset>`;
}

/** A decent site: home page, robots.txt, sitemap.xml, llms.txt; 404 elsewhere. */
export const decentSite: SiteHandler = (_req, { host, url }) => {
  switch (url.pathname) {
    case "/":
      return html(decentPage(host));
    case "/robots.txt":
      return text(robotsTxt(`https://${host}/sitemap.xml`));
    case "/sitemap.xml":
      return text(sitemapXml(host), 200, "application/xml");
    case "/llms.txt":
      return text(
        `# ${host}\n\n> A decent test site.\n\n## Pages\n\n- [About](https://${host}/about)\n`,
      );
    default:
      return html("<!doctype html><title>Not found</title><p>Not found</p>", 404);
  }
};

/**
 * A body stream that repeats `chunk` until `totalBytes` (Infinity: forever), stopping when the
 * reader cancels or `signal` aborts. Generated lazily: nothing is buffered.
 */
export function repeatStream(
  chunk: Uint8Array,
  totalBytes: number,
  signal: AbortSignal,
  head?: Uint8Array,
): ReadableStream<Uint8Array> {
  let sent = 0;
  let headSent = !head;
  return new ReadableStream({
    pull(controller) {
      if (signal.aborted || sent >= totalBytes) return controller.close();
      if (!headSent) {
        headSent = true;
        sent += head!.byteLength;
        return controller.enqueue(head!);
      }
      const n = Math.min(chunk.byteLength, totalBytes - sent);
      sent += n;
      controller.enqueue(n === chunk.byteLength ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A stream that sends `bytes` one byte every `everyMs`, then repeats forever until cancelled. */
export function dripStream(
  bytes: Uint8Array,
  everyMs: number,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      await sleep(everyMs, signal);
      if (signal.aborted) return controller.close();
      controller.enqueue(bytes.subarray(i % bytes.length, (i % bytes.length) + 1));
      i++;
    },
  });
}

export { encoder };
