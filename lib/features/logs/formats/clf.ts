/**
 * The Common Log Format (`%h %l %u %t "%r" %>s %b`) and the combined format that adds
 * `"%{Referer}i" "%{User-agent}i"`: Apache's, nginx's default `combined`, and Fastly's documented
 * defaults. Read from the Apache mod_log_config documentation
 * (https://httpd.apache.org/docs/current/mod/mod_log_config.html), nginx's `log_format combined`
 * (https://nginx.org/en/docs/http/ngx_http_log_module.html) and Fastly's "Useful log formats"
 * (https://www.fastly.com/documentation/guides/integrations/streaming-logs/useful-log-formats),
 * all checked 2026-12-06.
 */
import type { HitSink, LineOutcome } from "../hit.ts";
import { bytesOf, clfTime, quoted, requestLine, statusOf } from "./fields.ts";

/** `host ident user [time] "` at the start of a line: what every CLF line has. */
const SHAPE = /^\S+ \S+ \S+ \[[^\]]{20,40}\] "/;

/** True when the line has the Common Log Format's start. */
export function looksLikeClf(line: string): boolean {
  return SHAPE.test(line);
}

/** The parts of a CLF line; `rest` is what follows the byte count (the combined fields). */
function parts(line: string) {
  const sp = line.indexOf(" ");
  const open = line.indexOf("[", sp);
  const close = line.indexOf("]", open);
  if (sp <= 0 || open < 0 || close < 0) return null;
  const req = quoted(line, close + 2);
  if (!req) return null;
  const tail = line.slice(req.next).trimStart();
  const sp2 = tail.indexOf(" ");
  const statusText = sp2 < 0 ? tail : tail.slice(0, sp2);
  const afterStatus = sp2 < 0 ? "" : tail.slice(sp2 + 1);
  const sp3 = afterStatus.indexOf(" ");
  const bytesText = sp3 < 0 ? afterStatus : afterStatus.slice(0, sp3);
  return {
    ip: line.slice(0, sp),
    time: clfTime(line.slice(open + 1, close)),
    request: req.value,
    status: statusOf(statusText),
    bytes: bytesOf(bytesText),
    rest: sp3 < 0 ? "" : afterStatus.slice(sp3 + 1),
  };
}

/** Reads one CLF or combined line; `combined` says whether the User-Agent field is expected. */
export function readClf(line: string, emit: HitSink, combined: boolean): LineOutcome {
  const p = parts(line);
  if (!p) return { bad: "not a Common Log Format line" };
  if (Number.isNaN(p.time)) return { bad: "unreadable time" };
  if (Number.isNaN(p.status)) return { bad: "unreadable status" };
  if (Number.isNaN(p.bytes)) return { bad: "unreadable byte count" };
  let userAgent = "";
  if (combined) {
    const referer = quoted(p.rest, 0);
    const ua = referer ? quoted(p.rest, referer.next + 1) : null;
    if (!ua) return { bad: "no quoted User-Agent after the byte count" };
    userAgent = ua.value;
  }
  const r = requestLine(p.request);
  emit({
    time: p.time,
    ip: p.ip,
    method: r?.method ?? "",
    target: r?.target ?? "",
    status: p.status,
    bytes: p.bytes,
    userAgent,
  });
  return "ok";
}
