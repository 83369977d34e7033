/**
 * The access-log formats read, as one list: each with its id (what `--format` and the API's
 * `format` take), its name, the documentation its reader follows with the day it was read, the
 * cheap shape test every line of it passes, and its reader. detect.ts picks one from a log's
 * first lines; the caller may override the pick.
 */
import type { HitSink, LineOutcome } from "./hit.ts";
import { checkClfAt, looksLikeClf, readClf } from "./formats/clf.ts";
import { JSON_READERS, looksLikeJson, readJsonLine } from "./formats/json_formats.ts";
import { W3cReader } from "./formats/w3c.ts";
import { looksLikeAlb, readAlb } from "./formats/alb.ts";
import type { TextScan } from "./text_scan.ts";

import type { DatedSource } from "../../kit/dated_source.ts";
/** A format's reader for one log (some carry state, such as W3C's columns). */
export interface LineReader {
  /** Cheap: whether the line is of this format ("skip" for a line holding no request). */
  check(line: string): LineOutcome;
  /** Full: emits the hits of a line that passed `check`. */
  read(line: string, emit: HitSink): LineOutcome;
  /**
   * The fast path, for the formats most logs are in: checks the line from `start` to `end` of
   * `scan.text` in place, without making it, and on "ok" says where its User-Agent is
   * (`scan.agentStart`, `scan.agentEnd`), so a person's line is checked and dropped without a
   * string of its own. Without it, each line is made and given to `check`.
   */
  checkAt?(scan: TextScan, start: number, end: number): LineOutcome;
  /**
   * A Common Log Format reader: its people's lines may be counted over the log's bytes
   * (clf_bytes.ts), `combined` when a User-Agent ends each line.
   */
  clf?: { combined: boolean };
}

/** One log format, with its dated source: the documentation its reader follows. */
export interface LogFormat extends DatedSource {
  id: LogFormatId;
  name: string;
  /** False for formats that have no User-Agent field: crawlers cannot be told apart in them. */
  hasUserAgent: boolean;
  reader(): LineReader;
}

/** The id of a format. */
export type LogFormatId =
  | "combined"
  | "common"
  | "fastly"
  | "nginx_json"
  | "caddy"
  | "w3c"
  | "cloudfront"
  | "alb"
  | "cloudflare"
  | "vercel"
  | "netlify";

const CHECKED = "2026-12-06";

/** A blank line (cheap for the usual line, which starts with a printable character). */
const blank = (line: string) => line.length === 0 || (line.charCodeAt(0) <= 32 && !line.trim());

const clf = (combined: boolean): () => LineReader => () => ({
  clf: { combined },
  check: (line) =>
    looksLikeClf(line) ? "ok" : blank(line) ? "skip" : { bad: "not a Common Log Format line" },
  read: (line, emit) => readClf(line, emit, combined),
  checkAt: (scan, start, end) =>
    checkClfAt(scan, start, end, combined)
      ? "ok"
      : blank(scan.text.slice(start, end))
      ? "skip"
      : NOT_CLF,
});
const NOT_CLF = { bad: "not a Common Log Format line" } as const;

const json = (id: keyof typeof JSON_READERS): () => LineReader => () => ({
  check: (line) => blank(line) ? "skip" : looksLikeJson(line) ? "ok" : { bad: "not a JSON line" },
  read: (line, emit) => readJsonLine(line, emit, JSON_READERS[id]),
});

const w3c = (): LineReader => {
  const r = new W3cReader();
  return {
    check: (line) => blank(line) ? "skip" : r.check(line),
    read: (line, emit) => r.read(line, emit),
  };
};

/** Every format read, in the order the docs list them. */
export const FORMATS: readonly LogFormat[] = [
  {
    id: "combined",
    name: "Combined Log Format (Apache, nginx's default)",
    url: "https://httpd.apache.org/docs/current/mod/mod_log_config.html",
    checked: CHECKED,
    hasUserAgent: true,
    reader: clf(true),
  },
  {
    id: "common",
    name: "Common Log Format (no User-Agent: crawlers cannot be told apart)",
    url: "https://httpd.apache.org/docs/current/mod/mod_log_config.html",
    checked: CHECKED,
    hasUserAgent: false,
    reader: clf(false),
  },
  {
    id: "fastly",
    name: "Fastly (its NCSA combined format)",
    url:
      "https://www.fastly.com/documentation/guides/integrations/streaming-logs/useful-log-formats",
    checked: CHECKED,
    hasUserAgent: true,
    reader: clf(true),
  },
  {
    id: "nginx_json",
    name: "nginx JSON (log_format escape=json with nginx's variable names)",
    url: "https://nginx.org/en/docs/http/ngx_http_log_module.html",
    checked: CHECKED,
    hasUserAgent: true,
    reader: json("nginx_json"),
  },
  {
    id: "caddy",
    name: "Caddy JSON access log",
    url: "https://caddyserver.com/docs/caddyfile/directives/log",
    checked: CHECKED,
    hasUserAgent: true,
    reader: json("caddy"),
  },
  {
    id: "w3c",
    name: "W3C extended (IIS)",
    url: "https://learn.microsoft.com/en-us/windows/win32/http/w3c-logging",
    checked: CHECKED,
    hasUserAgent: true,
    reader: w3c,
  },
  {
    id: "cloudfront",
    name: "AWS CloudFront standard log",
    url:
      "https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/standard-logs-reference.html",
    checked: CHECKED,
    hasUserAgent: true,
    reader: w3c,
  },
  {
    id: "alb",
    name: "AWS Application Load Balancer",
    url:
      "https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-access-logs.html",
    checked: CHECKED,
    hasUserAgent: true,
    reader: () => ({
      check: (line) =>
        blank(line) ? "skip" : looksLikeAlb(line) ? "ok" : { bad: "not an ALB log line" },
      read: readAlb,
    }),
  },
  {
    id: "cloudflare",
    name: "Cloudflare Logpush HTTP requests (NDJSON)",
    url: "https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/",
    checked: CHECKED,
    hasUserAgent: true,
    reader: json("cloudflare"),
  },
  {
    id: "vercel",
    name: "Vercel log drain (JSON or NDJSON)",
    url: "https://vercel.com/docs/drains/reference/logs",
    checked: CHECKED,
    hasUserAgent: true,
    reader: json("vercel"),
  },
  {
    id: "netlify",
    name: "Netlify log drain, traffic logs (JSON or NDJSON)",
    url: "https://docs.netlify.com/manage/monitoring/log-drains/",
    checked: CHECKED,
    hasUserAgent: true,
    reader: json("netlify"),
  },
];

/** The format with this id. */
export function formatById(id: string): LogFormat | undefined {
  return FORMATS.find((f) => f.id === id);
}

/** The ids, for messages and schemas. */
export const FORMAT_IDS = FORMATS.map((f) => f.id) as [LogFormatId, ...LogFormatId[]];
