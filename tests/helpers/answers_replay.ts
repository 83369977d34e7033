/**
 * A local replay server standing in for the four vendors' APIs, on loopback: the app reaches it
 * through the guarded fetcher's test resolve map (ANSWERS_RESOLVE="api.openai.com=127.0.0.1:port,
 * ..."), exactly as scans reach the fixture sites through SCAN_RESOLVE. It answers each vendor's
 * documented endpoint with the fixtures of tests/fixtures/answers/<vendor>/ in the order a test
 * scripts, checks that each request has the shape the vendor documents (its path, its auth
 * header, its body's required fields; otherwise a 400 as the vendor would), and records every
 * request it got.
 */
import { join } from "node:path";
import type { ProviderId } from "../../lib/features/answers/provider.ts";

const DIR = join(import.meta.dirname!, "..", "fixtures", "answers");

/** Each vendor's host. */
export const VENDOR_HOSTS: Record<ProviderId, string> = {
  openai: "api.openai.com",
  perplexity: "api.perplexity.ai",
  anthropic: "api.anthropic.com",
  gemini: "generativelanguage.googleapis.com",
};

/** A fixture file. */
export interface VendorFixture {
  doc: string;
  checked: string;
  note: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** One request the server got. */
export interface ReplayRequest {
  vendor: ProviderId | null;
  host: string;
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** The running server. */
export interface Replay {
  port: number;
  /** The ANSWERS_RESOLVE value sending all four hosts here. */
  resolve: string;
  requests: ReplayRequest[];
  /** What the vendor answers next, in order; the last one repeats once the list is used up. */
  script(vendor: ProviderId, fixtures: string[]): void;
  /**
   * A fixture chosen by the request's body (its question), before the script: null leaves the
   * request to the script. The canary tests answer the fixed canary questions this way.
   */
  route(vendor: ProviderId, pick: ((body: unknown) => string | null) | null): void;
  close(): Promise<void>;
}

/** Reads a fixture. */
export async function loadFixture(vendor: ProviderId, name: string): Promise<VendorFixture> {
  return JSON.parse(await Deno.readTextFile(join(DIR, vendor, `${name}.json`)));
}

/** Why a request is not what the vendor documents, or null. */
function malformed(vendor: ProviderId, req: Request, path: string, body: unknown): string | null {
  const b = (body ?? {}) as Record<string, unknown>;
  const tools = Array.isArray(b.tools) ? b.tools as Record<string, unknown>[] : [];
  const bearer = /^Bearer \S+$/.test(req.headers.get("authorization") ?? "");
  switch (vendor) {
    case "openai":
      if (path !== "/v1/responses") return "path";
      if (!bearer) return "authorization";
      if (typeof b.model !== "string" || typeof b.input !== "string") return "model/input";
      return tools[0]?.type === "web_search" ? null : "tools";
    case "perplexity":
      if (path !== "/chat/completions") return "path";
      if (!bearer) return "authorization";
      return typeof b.model === "string" && Array.isArray(b.messages) ? null : "model/messages";
    case "anthropic":
      if (path !== "/v1/messages") return "path";
      if (!req.headers.get("x-api-key")) return "x-api-key";
      if (req.headers.get("anthropic-version") !== "2023-06-01") return "anthropic-version";
      if (typeof b.max_tokens !== "number" || !Array.isArray(b.messages)) return "body";
      return String(tools[0]?.type ?? "").startsWith("web_search_") && tools[0]?.name ===
          "web_search"
        ? null
        : "tools";
    case "gemini":
      if (!/^\/v1beta\/models\/[^/]+:generateContent$/.test(path)) return "path";
      if (!req.headers.get("x-goog-api-key")) return "x-goog-api-key";
      if (!Array.isArray(b.contents)) return "contents";
      return tools[0] && "google_search" in tools[0] ? null : "tools";
  }
}

/** Starts the replay server. */
export function startReplay(): Replay {
  const scripts = new Map<ProviderId, string[]>();
  const routes = new Map<ProviderId, (body: unknown) => string | null>();
  const requests: ReplayRequest[] = [];
  const byHost = new Map(
    Object.entries(VENDOR_HOSTS).map(([v, h]) => [h, v as ProviderId]),
  );
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
    const vendor = byHost.get(host) ?? null;
    const text = await req.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch { /* recorded as null */ }
    requests.push({
      vendor,
      host,
      method: req.method,
      path: url.pathname,
      headers: req.headers,
      body,
    });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { "content-type": "application/json", ...headers },
      });
    if (!vendor) return json(404, { error: { message: `unknown host ${host}` } });
    if (req.method !== "POST") return json(405, { error: { message: "POST only" } });
    const problem = malformed(vendor, req, url.pathname, body);
    if (problem) return json(400, { error: { type: "invalid_request_error", message: problem } });
    const routed = routes.get(vendor)?.(body) ?? null;
    const queue = scripts.get(vendor) ?? ["answer"];
    const name = routed ?? (queue.length > 1 ? queue.shift()! : queue[0]);
    const fixture = await loadFixture(vendor, name);
    return json(fixture.status, fixture.body, fixture.headers);
  });
  const port = server.addr.port;
  return {
    port,
    resolve: Object.values(VENDOR_HOSTS).map((h) => `${h}=127.0.0.1:${port}`).join(","),
    requests,
    script: (vendor, fixtures) => scripts.set(vendor, [...fixtures]),
    route: (vendor, pick) => {
      if (pick) routes.set(vendor, pick);
      else routes.delete(vendor);
    },
    close: () => server.shutdown(),
  };
}
