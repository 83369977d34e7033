/** Which address a request comes from, for the per-IP limit. */
import { isIP } from "node:net";

/**
 * The client IP: the connection's remote address, or, only when `trustProxy` is set (the service
 * runs behind one reverse proxy that appends to X-Forwarded-For), the right-most
 * X-Forwarded-For entry: the address that proxy saw. Left-most entries are client-supplied and
 * never trusted. IPv6 addresses are grouped by their /64, since one host usually owns a /64.
 */
export function clientIp(
  remote: string | undefined,
  forwardedFor: string | undefined,
  trustProxy: boolean,
): string {
  let ip = remote ?? "";
  if (trustProxy && forwardedFor) {
    const last = forwardedFor.split(",").map((s) => s.trim()).filter(Boolean).pop();
    if (last && isIP(stripPort(last))) ip = stripPort(last);
  }
  if (!ip) return "unknown";
  if (ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4) return ip.slice(7);
  if (isIP(ip) === 6) return `${ipv6Prefix64(ip)}::/64`;
  return ip;
}

function stripPort(s: string): string {
  const v6 = s.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (v6) return v6[1];
  const v4 = s.match(/^(\d+\.\d+\.\d+\.\d+):\d+$/);
  return v4 ? v4[1] : s;
}

function ipv6Prefix64(ip: string): string {
  const [head, tail = ""] = ip.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const full = [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t];
  return full.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(":");
}

/**
 * The /48 an IPv6 client belongs to, from {@link clientIp}'s "/64" form ("2001:db8:1:2::/64" ->
 * "2001:db8:1::/48"); null for IPv4 and anything else. One site or customer usually holds a
 * whole /48 (RIPE-690 recommends assigning a /48 or /56 to each end site), so rotating through
 * its /64s must not give a fresh pool each time: the caps of lib/kit/limits/limits.ts count the /48 beside
 * the /64.
 */
export function ipv6Prefix48(ip: string): string | null {
  const m = ip.match(/^([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/i);
  if (!m) return null;
  return `${[m[1], m[2], m[3]].map((g) => parseInt(g, 16).toString(16)).join(":")}::/48`;
}
