/**
 * What the watch tests need besides the app: a site whose robots.txt the test changes between two
 * scheduled scans (the pages of the good.test fixture, served as `watched.test` on loopback), and
 * a webhook receiver on loopback that records every delivery and answers with the status the test
 * sets. The app reaches the receiver as https://hooks.test/ through WEBHOOK_RESOLVE.
 */
import { join } from "node:path";

const SITE_DIR = join(import.meta.dirname!, "..", "fixtures", "sites", "good.test");

/** The watched site. */
export interface MutableSite {
  port: number;
  /** Replaces robots.txt from now on. */
  setRobots(text: string): void;
  /** The robots.txt of good.test with OAI-SearchBot disallowed. */
  readonly blockingRobots: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml",
  css: "text/css",
  svg: "image/svg+xml",
};

/** Serves good.test's files as `host` (its name replaced in every text), robots.txt mutable. */
export async function startMutableSite(host = "watched.test"): Promise<MutableSite> {
  const original = (await Deno.readTextFile(join(SITE_DIR, "robots.txt"))).replaceAll(
    "good.test",
    host,
  );
  let robots = original;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/robots.txt") {
      return new Response(robots, { headers: { "content-type": TYPES.txt } });
    }
    const file = path.endsWith("/") ? `${path}index.html` : path;
    if (file.includes("..")) return new Response("no", { status: 400 });
    try {
      const text = (await Deno.readTextFile(join(SITE_DIR, file))).replaceAll("good.test", host);
      const ext = file.split(".").pop() ?? "";
      return new Response(text, { headers: { "content-type": TYPES[ext] ?? TYPES.txt } });
    } catch {
      return new Response("not found", { status: 404, headers: { "content-type": TYPES.txt } });
    }
  });
  return {
    port: server.addr.port,
    setRobots: (text) => robots = text,
    blockingRobots: original.replace(
      "User-agent: OAI-SearchBot\nAllow: /",
      "User-agent: OAI-SearchBot\nDisallow: /",
    ),
    close: () => server.shutdown(),
  };
}

/** One delivery the receiver got. */
export interface Received {
  path: string;
  headers: Headers;
  body: string;
}

/** The webhook receiver. */
export interface Receiver {
  port: number;
  received: Received[];
  /** The status it answers with (200 by default). */
  status: number;
  close(): Promise<void>;
}

/** Starts a receiver on loopback. */
export function startReceiver(): Receiver {
  const r: Receiver = {
    port: 0,
    received: [],
    status: 200,
    close: () => server.shutdown(),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    r.received.push({
      path: new URL(req.url).pathname,
      headers: req.headers,
      body: await req.text(),
    });
    return new Response(r.status < 300 ? "ok" : "receiver is down <b>500</b>", {
      status: r.status,
    });
  });
  r.port = server.addr.port;
  return r;
}
