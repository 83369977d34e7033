/**
 * The connection guard's caps (lib/kit/net/conn_guard.ts) for this process as it really runs: the
 * total from the free file descriptors and the memory plan's share for connection buffers, the
 * per-address share well below the total, so no one address can take every slot.
 */
import ipaddr from "ipaddr.js";
import { cutAt } from "../text/trim.ts";

/** Descriptors one guarded connection can hold: the client's, the guard's upstream socket, and
 * the HTTP server's end of it. */
export const DESCRIPTORS_PER_CONNECTION = 3;
/** Descriptors kept for everything else (the store, the scans' fetches, threads, logs). */
export const DESCRIPTOR_RESERVE = 512;
/**
 * The most one connection can hold in memory, in KiB: a request head held while it arrives
 * (MAX_HEAD_BYTES, 16 KiB), the guard's two read buffers at their largest (16 KiB each) and
 * Deno.serve's own buffers for an active connection (about 27 KiB, measured: docs/connections.md).
 */
export const CONNECTION_KIB = 80;
/** The total never goes above this, whatever the limits allow. */
export const MAX_TOTAL = 20_000;

/** The caps, and one line saying how they were chosen. */
export interface ConnectionLimits {
  max: number;
  /** Per client address (an IPv6 /64 is one address); 0: none (behind a proxy). */
  perIp: number;
  describe: string;
}

/**
 * The caps. `setting` is the configuration's (MAX_CONNECTIONS, 0 = derive; MAX_CONNECTIONS_PER_IP,
 * null = derive, 0 = none); `free` what lib/kit/net/fd_limit.ts counted (null: could not count, 1024
 * assumed); `connectionMb` the memory plan's share for connections.
 */
export function connectionLimits(
  setting: { max: number; perIp: number | null },
  free: { free: number; how: string } | null,
  connectionMb: number,
): ConnectionLimits {
  const fds = free?.free ?? 1024;
  const byFds = Math.floor((fds - DESCRIPTOR_RESERVE) / DESCRIPTORS_PER_CONNECTION);
  const byMemory = Math.floor((connectionMb * 1024) / CONNECTION_KIB);
  let max: number;
  let why: string;
  if (setting.max > 0) {
    max = setting.max;
    why = "MAX_CONNECTIONS";
  } else {
    max = Math.max(16, Math.min(MAX_TOTAL, byFds, byMemory));
    const fdsSaid = free ? free.how : "1024 file descriptors assumed (none could be counted)";
    why = byFds <= byMemory
      ? `${fdsSaid}, ${DESCRIPTORS_PER_CONNECTION} each, ${DESCRIPTOR_RESERVE} kept`
      : `${connectionMb} MB of the memory plan at ${CONNECTION_KIB} KiB each; ${fdsSaid}`;
    if (max === MAX_TOTAL) why += `; at most ${MAX_TOTAL}`;
  }
  // One address may hold a sixteenth of the slots (4 to 256), never more than half.
  const half = Math.max(1, Math.floor(max / 2));
  let perIp: number;
  let perWhy: string;
  if (setting.perIp === 0) {
    perIp = 0;
    perWhy = "no per-address cap (MAX_CONNECTIONS_PER_IP=0, or TRUST_PROXY=1: every connection " +
      "is the proxy's)";
  } else if (setting.perIp !== null) {
    perIp = Math.min(setting.perIp, half);
    perWhy = perIp < setting.perIp
      ? `${perIp} per client address (MAX_CONNECTIONS_PER_IP=${setting.perIp} lowered to half ` +
        "the total, so one address cannot take every slot)"
      : `${perIp} per client address (MAX_CONNECTIONS_PER_IP)`;
  } else {
    perIp = Math.min(half, Math.max(4, Math.min(256, Math.floor(max / 16))));
    perWhy = `${perIp} per client address (an IPv6 /64 counts as one)`;
  }
  return { max, perIp, describe: `at most ${max} open (${why}), ${perWhy}` };
}

/**
 * The address a connection counts against: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * as its IPv4 one), an IPv6 address as its /64, the block one subscriber usually has whole.
 */
export function addressKey(hostname: string): string {
  if (!hostname.includes(":")) return hostname;
  let addr: ipaddr.IPv6;
  try {
    addr = ipaddr.IPv6.parse(cutAt(hostname, "%"));
  } catch {
    return hostname;
  }
  if (addr.isIPv4MappedAddress()) return addr.toIPv4Address().toString();
  const p = addr.parts;
  return `${p[0].toString(16)}:${p[1].toString(16)}:${p[2].toString(16)}:${p[3].toString(16)}::/64`;
}
