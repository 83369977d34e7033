/**
 * Access logs written one JSON object per line (NDJSON), or a JSON array of entries per line (a
 * log drain's batch saved as it came): nginx's JSON `log_format` (its variables' names), Caddy's
 * structured access log, Cloudflare Logpush's HTTP requests dataset, Vercel's and Netlify's log
 * drains. Each reader maps its documented field names onto a {@link LogHit}; the sources, with the
 * day each was read, are in formats.ts.
 *
 * A line is parsed as JSON only when it may hold a crawler (the caller asks); every other line is
 * only checked for its shape, so a person's line is never taken apart.
 */
import type { HitSink, LineOutcome, LogHit, SignatureHeaders } from "../hit.ts";
import { anyTime, bytesOf, requestLine, statusOf, stripPort } from "./fields.ts";

/** A JSON object (the entry of a log line). */
type Entry = Record<string, unknown>;

/** True when the line is a JSON object or array, judged by its ends only. */
export function looksLikeJson(line: string): boolean {
  const s = line.trim();
  const a = s.charCodeAt(0), z = s.charCodeAt(s.length - 1);
  return (a === 123 && z === 125) || (a === 91 && z === 93);
}

/** The first of `keys` that `o` has as a string or number. */
function pick(o: Entry, keys: readonly string[]): unknown {
  for (const k of keys) {
    const v = o[k];
    if (v !== undefined && v !== null && v !== "") return v;
  }
  return undefined;
}

const str = (v: unknown): string =>
  typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] : "";

const obj = (v: unknown): Entry | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? v as Entry : undefined;

/** A header's value from a map of headers (any case; arrays take their first value). */
function header(headers: Entry | undefined, name: string): string {
  if (!headers) return "";
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return str(v);
  return "";
}

/** The Web Bot Auth headers of a request's header map, when all three are there. */
function signatureOf(headers: Entry | undefined, authority: string): SignatureHeaders | undefined {
  const signature = header(headers, "signature");
  const signatureInput = header(headers, "signature-input");
  const signatureAgent = header(headers, "signature-agent");
  return signature && signatureInput && signatureAgent
    ? { signature, signatureInput, signatureAgent, authority }
    : undefined;
}

/** Maps one entry to a hit, or says why it cannot (or null: an entry that is not a request). */
type EntryReader = (e: Entry) => LogHit | string | null;

/** Checks the fields every hit needs. */
function complete(h: LogHit): LogHit | string {
  if (!h.ip) return "no client address";
  if (Number.isNaN(h.time)) return "unreadable time";
  if (Number.isNaN(h.status)) return "unreadable status";
  if (Number.isNaN(h.bytes)) return "unreadable byte count";
  return h;
}

/** nginx `log_format ... escape=json` with the variables' own names (the common practice). */
const nginx: EntryReader = (e) => {
  const request = str(pick(e, ["request"]));
  const line = request ? requestLine(request) : null;
  const host = str(pick(e, ["host", "http_host", "server_name"]));
  const flat: Entry = {
    signature: e.http_signature,
    "signature-input": e.http_signature_input,
    "signature-agent": e.http_signature_agent,
  };
  return complete({
    ip: stripPort(str(pick(e, ["remote_addr", "client_ip", "clientip", "remote_ip"]))),
    time: anyTime(
      pick(e, ["time_iso8601", "time_local", "timestamp", "@timestamp", "msec", "time"]),
    ),
    method: str(pick(e, ["request_method", "method", "verb"])) || line?.method || "",
    target: str(pick(e, ["request_uri", "uri"])) || line?.target || "",
    status: statusOf(pick(e, ["status", "response"])),
    bytes: bytesOf(pick(e, ["body_bytes_sent", "bytes_sent", "bytes"])),
    userAgent: str(pick(e, ["http_user_agent", "user_agent", "agent"])),
    signature: signatureOf(flat, host),
  });
};

/** Caddy's access log (`http.log.access`): `ts`, `request.{client_ip,method,host,uri,headers}`. */
const caddy: EntryReader = (e) => {
  const r = obj(e.request);
  if (!r) return "no request object";
  const headers = obj(r.headers);
  const host = str(r.host);
  return complete({
    ip: stripPort(str(pick(r, ["client_ip", "remote_ip"]))),
    time: anyTime(e.ts),
    method: str(r.method),
    target: str(r.uri),
    status: statusOf(e.status),
    bytes: bytesOf(e.size),
    userAgent: header(headers, "user-agent"),
    signature: signatureOf(headers, host),
  });
};

/** Cloudflare Logpush `http_requests`: ClientIP, ClientRequest*, EdgeResponse*, EdgeStartTimestamp. */
const cloudflare: EntryReader = (e) => {
  const headers = obj(e.RequestHeaders);
  const host = str(e.ClientRequestHost);
  return complete({
    ip: str(e.ClientIP),
    time: anyTime(pick(e, ["EdgeStartTimestamp", "EdgeEndTimestamp"])),
    method: str(e.ClientRequestMethod),
    target: str(pick(e, ["ClientRequestURI", "ClientRequestPath"])),
    status: statusOf(e.EdgeResponseStatus),
    bytes: bytesOf(e.EdgeResponseBytes),
    userAgent: str(e.ClientRequestUserAgent),
    signature: signatureOf(headers, host),
  });
};

/** Vercel's log drain: requests carry a `proxy` object (other entries are build or function logs). */
const vercel: EntryReader = (e) => {
  const p = obj(e.proxy);
  if (!p) return null;
  return complete({
    ip: str(p.clientIp),
    time: anyTime(pick(p, ["timestamp"]) ?? e.timestamp),
    method: str(p.method),
    target: str(p.path),
    status: statusOf(pick(p, ["statusCode"]) ?? e.statusCode),
    bytes: bytesOf(pick(p, ["responseByteSize", "bytes"])),
    userAgent: str(p.userAgent),
  });
};

/** Netlify's log drain: traffic entries (`log_type: "traffic"`); other types are not requests. */
const netlify: EntryReader = (e) => {
  if (e.log_type !== undefined && e.log_type !== "traffic") return null;
  const url = str(pick(e, ["url", "path", "request_path"]));
  let target = url;
  if (/^https?:\/\//i.test(url)) {
    try {
      const u = new URL(url);
      target = u.pathname + u.search;
    } catch { /* kept as written */ }
  }
  return complete({
    ip: str(e.client_ip),
    time: anyTime(pick(e, ["timestamp", "time"])),
    method: str(pick(e, ["method", "request_method"])),
    target,
    status: statusOf(pick(e, ["status_code", "status"])),
    bytes: bytesOf(pick(e, ["response_size", "bytes"])),
    userAgent: str(e.user_agent),
  });
};

/** The JSON readers, by format id. */
export const JSON_READERS = { nginx_json: nginx, caddy, cloudflare, vercel, netlify } as const;

/** The id of a JSON log format. */
export type JsonFormatId = keyof typeof JSON_READERS;

/** Reads one JSON line with `reader`: each entry (an object, or each of an array's) is a hit. */
export function readJsonLine(line: string, emit: HitSink, reader: EntryReader): LineOutcome {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { bad: "not valid JSON" };
  }
  const entries = Array.isArray(value) ? value : [value];
  let emitted = 0;
  let problem = "";
  for (const item of entries) {
    const e = obj(item);
    if (!e) {
      problem ||= "not a JSON object";
      continue;
    }
    const hit = reader(e);
    if (hit === null) continue;
    if (typeof hit === "string") problem ||= hit;
    else {
      emit(hit);
      emitted++;
    }
  }
  if (problem && !emitted) return { bad: problem };
  return emitted ? "ok" : "skip";
}

/**
 * Which JSON format an entry is, from the fields only that format writes, or null. Used on the
 * first lines to detect the format (detect.ts).
 */
export function jsonFormatOf(line: string): JsonFormatId | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const e = obj(Array.isArray(value) ? value[0] : value);
  if (!e) return null;
  if ("ClientIP" in e || "EdgeStartTimestamp" in e || "ClientRequestURI" in e) return "cloudflare";
  if (obj(e.request) && ("ts" in e || String(e.logger ?? "").startsWith("http.log.access"))) {
    return "caddy";
  }
  if ("proxy" in e || ("deploymentId" in e && "projectId" in e)) return "vercel";
  if ("log_type" in e || ("client_ip" in e && "status_code" in e)) return "netlify";
  if ("remote_addr" in e || "http_user_agent" in e || "request_uri" in e) return "nginx_json";
  return null;
}
