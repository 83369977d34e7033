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
import type { TextScan } from "../text_scan.ts";

/** White space as a regular expression's `\s` means it. */
function isWhite(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
    c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * True when the line has the Common Log Format's start, `host ident user [time] "`: three fields
 * without white space, each followed by one space, a bracketed time of 20 to 40 characters, a
 * space and the request's opening quote. Every line of a log passes here, so it is read by hand
 * (one pass over the line's start, no regular expression): it is most of what a person's line
 * costs.
 */
export function looksLikeClf(line: string): boolean {
  let at = 0;
  for (let field = 0; field < 3; field++) {
    const start = at;
    // A field ends at its space; other white space, or the line's end (NaN), is not CLF.
    let c = line.charCodeAt(at);
    while (c === c && !isWhite(c)) c = line.charCodeAt(++at);
    if (at === start || c !== 32) return false;
    at++;
  }
  if (line.charCodeAt(at) !== 91) return false; // [
  const close = line.indexOf("]", at + 1);
  const inside = close - at - 1;
  return close > 0 && inside >= 20 && inside <= 40 && line.charCodeAt(close + 1) === 32 &&
    line.charCodeAt(close + 2) === 34;
}

/**
 * The same shape test for the line from `start` to `end` of a text being scanned, without making
 * the line: what every line of a log costs, so it makes three searches with the runtime's own
 * search (TextScan) and looks at a few characters by hand. For the combined format it also finds
 * the User-Agent: from the `" "` that follows the referer to the line's closing quote (the whole
 * agent, escapes included); when that cannot be found for sure (no closing quote at the end, an
 * escaped quote just before the `" "`), the whole line is to be tested. The ident and user fields
 * are read by hand, the host up to its first space (a tab inside it is not looked for here);
 * {@link looksLikeClf} and the reader check the line fully when it names a crawler.
 */
export function checkClfAt(
  scan: TextScan,
  start: number,
  end: number,
  combined: boolean,
): boolean {
  const t = scan.text;
  const a = scan.space(start);
  if (a <= start || a >= end) return false;
  // ident and user: no white space inside, one space after each.
  let at = a + 1;
  for (let field = 0; field < 2; field++) {
    const from = at;
    let c = at < end ? t.charCodeAt(at) : 32;
    while (c > 32) c = ++at < end ? t.charCodeAt(at) : 32;
    if (at === from || at >= end || c !== 32) return false;
    at++;
  }
  if (at + 2 >= end || t.charCodeAt(at) !== 91) return false; // [
  const close = scan.bracket(at + 1);
  const inside = close - at - 1;
  if (
    close < 0 || inside < 20 || inside > 40 || close + 2 >= end ||
    t.charCodeAt(close + 1) !== 32 || t.charCodeAt(close + 2) !== 34
  ) return false;
  scan.agentStart = scan.agentEnd = 0;
  if (!combined) return true;
  const sep = scan.fieldBreak(close + 3);
  const last = end - 1;
  if (sep < 0 || sep + 2 >= last || t.charCodeAt(last) !== 34 || t.charCodeAt(sep - 1) === 92) {
    scan.agentStart = -1;
    return true;
  }
  scan.agentStart = sep + 3;
  scan.agentEnd = last;
  return true;
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
