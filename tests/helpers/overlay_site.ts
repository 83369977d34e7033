/**
 * A site as its owner changes it: a loopback server that answers the files a test has written
 * (the owner's edits) and passes every other request, Host and User-Agent kept, to the server the
 * site came from (a fixture server, the corpus pages' server) or to a table of files in memory.
 * Point the scanner at it with `SCAN_RESOLVE=<resolve>` and scan again after each edit.
 */
import http from "node:http";

/** One answer of the overlay: a body and its content type (status 200). */
export interface OverlayFile {
  body: string;
  type: string;
}

/** The running overlay. */
export interface OverlaySite {
  /** SCAN_RESOLVE entries for `hosts`: "a.test=127.0.0.1:<port>,...". */
  resolve: string;
  port: number;
  /** Reads a URL as the site serves it now (edits included); null when it answers no 2xx. */
  read(url: string): Promise<string | null>;
  /** Serves `body` at the URL from now on (an owner's edit). */
  write(url: string, body: string): void;
  /** Forgets every edit: the site is as it came. */
  reset(): void;
  /** The edits made since the last reset, by URL. */
  edits: Map<string, OverlayFile>;
  close(): Promise<void>;
}

/** Where a request the overlay holds no edit for goes: a server's port, or files in memory. */
export type OverlayBackend = { port: number } | { files: Map<string, string> };

/** Content types by extension (text/html otherwise). */
function typeOf(path: string): string {
  if (path.endsWith(".txt")) return "text/plain; charset=utf-8";
  if (path.endsWith(".xml")) return "application/xml; charset=utf-8";
  if (path.endsWith(".md")) return "text/markdown; charset=utf-8";
  return "text/html; charset=utf-8";
}

/** `host` + path of a URL, the key of an edit ("a.test/robots.txt"). */
function keyOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.pathname}`;
}

/**
 * Asks the backend server for a path with the given Host and User-Agent; the answer streams
 * through as it arrives (a site that drips or never ends keeps doing so).
 */
function forward(port: number, host: string, path: string, userAgent: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path, headers: { host, "user-agent": userAgent } },
      (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined || k === "transfer-encoding" || k === "content-length") continue;
          headers.set(k, Array.isArray(v) ? v.join(", ") : v);
        }
        const status = res.statusCode ?? 502;
        const body = status === 204 || status === 304 ? null : new ReadableStream<Uint8Array>({
          start(controller) {
            res.on("data", (c: Uint8Array) => controller.enqueue(new Uint8Array(c)));
            res.on("end", () => controller.close());
            res.on("error", (e) => controller.error(e));
          },
          cancel() {
            req.destroy();
          },
        });
        resolve(new Response(body, { status, headers }));
      },
    );
    req.on("error", reject);
  });
}

/** Starts an overlay for `hosts` in front of `backend`. */
export function startOverlaySite(hosts: string[], backend: OverlayBackend): OverlaySite {
  const edits = new Map<string, OverlayFile>();
  const answer = async (host: string, path: string, ua: string) => {
    const edit = edits.get(`${host}${path.split("?")[0]}`);
    if (edit) {
      return new Response(edit.body, { headers: { "content-type": edit.type } });
    }
    if ("files" in backend) {
      const body = backend.files.get(`${host}${path.split("?")[0]}`);
      return body === undefined
        ? new Response("<!doctype html><title>Not found</title><h1>Not found</h1>", {
          status: 404,
          headers: { "content-type": "text/html; charset=utf-8" },
        })
        : new Response(body, { headers: { "content-type": typeOf(path) } });
    }
    return await forward(backend.port, host, path, ua);
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const host = (req.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
    return answer(host, url.pathname + url.search, req.headers.get("user-agent") ?? "");
  });
  const port = server.addr.port;
  return {
    port,
    resolve: hosts.map((h) => `${h}=127.0.0.1:${port}`).join(","),
    async read(url) {
      const u = new URL(url);
      const res = await answer(u.hostname, u.pathname, "Mozilla/5.0 (owner's browser)");
      const text = await res.text();
      return res.ok ? text : null;
    },
    write(url, body) {
      edits.set(keyOf(url), { body, type: typeOf(new URL(url).pathname) });
    },
    reset() {
      edits.clear();
    },
    edits,
    close: () => server.shutdown(),
  };
}
