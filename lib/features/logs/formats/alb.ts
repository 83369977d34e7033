/**
 * AWS Application Load Balancer access logs: space-separated, the request and the User-Agent
 * quoted (`type time elb client:port target:port request_processing_time target_processing_time
 * response_processing_time elb_status_code target_status_code received_bytes sent_bytes "request"
 * "user_agent" ...`). Source: "Access logs for your Application Load Balancer"
 * (https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-access-logs.html),
 * checked 2026-12-06.
 */
import type { HitSink, LineOutcome } from "../hit.ts";
import { bytesOf, quoted, requestLine, statusOf, stripPort } from "./fields.ts";

const SHAPE = /^(?:https?|h2|grpcs|wss?) \d{4}-\d\d-\d\dT/;

/** True when the line starts as an ALB entry does (its type, then an ISO 8601 time). */
export function looksLikeAlb(line: string): boolean {
  return SHAPE.test(line);
}

/** Reads one ALB line. */
export function readAlb(line: string, emit: HitSink): LineOutcome {
  // The first 12 fields hold no spaces; the request and the User-Agent follow, quoted.
  const cols: string[] = [];
  let at = 0;
  while (cols.length < 12) {
    const sp = line.indexOf(" ", at);
    if (sp < 0) return { bad: "fewer fields than an ALB entry has" };
    cols.push(line.slice(at, sp));
    at = sp + 1;
  }
  const request = quoted(line, at);
  const agent = request ? quoted(line, request.next + 1) : null;
  if (!request || !agent) return { bad: "no quoted request and User-Agent" };
  const time = Date.parse(cols[1]);
  // The status the client got is the load balancer's (elb_status_code).
  const status = statusOf(cols[8]);
  const bytes = bytesOf(cols[11]);
  if (Number.isNaN(time)) return { bad: "unreadable time" };
  if (Number.isNaN(status)) return { bad: "unreadable status" };
  if (Number.isNaN(bytes)) return { bad: "unreadable byte count" };
  const r = requestLine(request.value);
  let target = r?.target ?? "";
  if (/^[a-z]+:\/\//i.test(target)) {
    try {
      const u = new URL(target);
      target = u.pathname + u.search;
    } catch { /* kept as written */ }
  }
  emit({
    time,
    ip: stripPort(cols[3]),
    method: r?.method ?? "",
    target,
    status,
    bytes,
    userAgent: agent.value === "-" ? "" : agent.value,
  });
  return "ok";
}
