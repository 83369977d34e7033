/**
 * Which IP addresses the scanner may connect to.
 *
 * The scanner fetches URLs named by strangers, so every address it connects to must be a public
 * unicast address: never loopback, private networks, link-local (cloud metadata lives at
 * 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, multicast, documentation or reserved
 * ranges, nor an IPv6 form that embeds one of those (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
 *
 * @example
 * ```ts
 * isPublicAddress("8.8.8.8"); // true
 * isPublicAddress("::ffff:127.0.0.1"); // false
 * classifyAddress("169.254.169.254"); // "linkLocal"
 * ```
 * @module
 */
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";

/** The only range name that {@link isPublicAddress} accepts. */
export const PUBLIC_RANGE = "unicast";

/**
 * Names the range an IP address belongs to.
 *
 * Returns `"unicast"` for a public address and otherwise a descriptive range name such as
 * `"loopback"`, `"private"`, `"linkLocal"`, `"carrierGradeNat"`, `"uniqueLocal"`, `"reserved"`,
 * `"ipv4Mapped/loopback"` (an IPv6 form embedding a non-public IPv4 address) or `"invalid"` when
 * the text is not an IP address. Brackets (`[::1]`) and IPv6 zone ids (`fe80::1%eth0`) are
 * accepted.
 *
 * @example
 * ```ts
 * classifyAddress("10.1.2.3"); // "private"
 * classifyAddress("2002:7f00:1::"); // "6to4/loopback"
 * classifyAddress("not an ip"); // "invalid"
 * ```
 */
export function classifyAddress(ip: string): string {
  const text = dottedTailToHex(stripBrackets(ip.trim()));
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // ipaddr.parse also accepts the legacy IPv4 forms (0x7f.1, 2130706433, 0177.0.0.1) that the
    // OS resolver would accept too, so those are classified by the address they really mean.
    addr = ipaddr.parse(text);
  } catch {
    return "invalid";
  }
  return addr.kind() === "ipv4" ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6);
}

/**
 * True when the scanner may connect to this address: a global unicast address outside every
 * special-purpose range. Anything unparseable is not public.
 *
 * @example
 * ```ts
 * isPublicAddress("1.1.1.1"); // true
 * isPublicAddress("[::1]"); // false
 * isPublicAddress("example.com"); // false: not an IP address
 * ```
 */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === PUBLIC_RANGE;
}

/**
 * Returns the IP address written in a URL host (`"127.0.0.1"`, `"[::1]"`), without brackets, or
 * `null` when the host is a name to be resolved.
 *
 * Expects a host already normalised by WHATWG `URL` (which turns `0x7f.1`, `2130706433` and
 * `0177.0.0.1` into `127.0.0.1`), so only canonical literals need to be recognised here.
 *
 * @example
 * ```ts
 * parseHostLiteral(new URL("http://[::ffff:127.0.0.1]/").hostname); // "::ffff:7f00:1"
 * parseHostLiteral("example.com"); // null
 * ```
 */
export function parseHostLiteral(host: string): string | null {
  const text = stripBrackets(host.trim());
  return isIP(text) === 0 ? null : text;
}

function stripBrackets(text: string): string {
  return text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
}

/**
 * Rewrites an IPv6 address ending in a dotted quad ("::127.0.0.1") into hex groups ("::7f00:1"),
 * because ipaddr.js reads "::a.b.c.d" as the IPv4-mapped "::ffff:a.b.c.d" while the OS (and
 * inet_ntop, which prints IPv4-compatible addresses that way) means "::a.b.c.d".
 */
function dottedTailToHex(text: string): string {
  const m = text.match(/^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%[^]*)?$/);
  if (!m) return text;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number);
  if ([a, b, c, d].some((n) => n > 255)) return text;
  const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
  return `${m[1]}${hex(a, b)}:${hex(c, d)}${m[6] ?? ""}`;
}

function classifyV4(addr: ipaddr.IPv4): string {
  // ipaddr.js knows unspecified, broadcast, multicast, linkLocal, loopback, carrierGradeNat,
  // private and reserved (192.0.0/24, 192.0.2/24, 198.18/15, 198.51.100/24, 203.0.113/24,
  // 240/4, 192.88.99/24) plus as112/amt anycast; only its "unicast" is public.
  return addr.range();
}

/** Builds the IPv4 address held in the low 32 bits of an IPv6 address. */
function lowV4(addr: ipaddr.IPv6): ipaddr.IPv4 {
  const p = addr.parts;
  return new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
}

function embedded(prefix: string, v4: ipaddr.IPv4): string {
  const range = classifyV4(v4);
  // An IPv6 form that reaches a public IPv4 address is as public as that address.
  return range === PUBLIC_RANGE ? PUBLIC_RANGE : `${prefix}/${range}`;
}

function classifyV6(addr: ipaddr.IPv6): string {
  const range = addr.range();
  const p = addr.parts;
  switch (range) {
    case "ipv4Mapped":
      // ::ffff:a.b.c.d is connected to as a.b.c.d by dual-stack sockets.
      return embedded("ipv4Mapped", addr.toIPv4Address());
    case "rfc6052":
      // NAT64 well-known prefix 64:ff9b::/96 embeds the IPv4 address in the low 32 bits; the
      // local-use prefix 64:ff9b:1::/48 maps addresses of the operator's choosing, so never.
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0
        ? embedded("nat64", lowV4(addr))
        : "nat64LocalUse";
    case "6to4":
      // 2002:AABB:CCDD::/48 tunnels to the IPv4 address AA.BB.CC.DD.
      return embedded(
        "6to4",
        new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff]),
      );
    case "unicast":
      break;
    default:
      // unspecified, loopback, linkLocal, multicast, uniqueLocal (incl. fd00:ec2::254),
      // deprecatedSiteLocal, discard, rfc6145, teredo, benchmarking, reserved (2001:db8::/32),
      // orchid, segment routing, ...: none of them is a web server on the internet.
      return range;
  }
  // ::a.b.c.d (deprecated IPv4-compatible addresses, RFC 4291) sits in ::/96, which ipaddr.js
  // calls unicast; nothing legitimate uses it, and some stacks route it to the IPv4 address.
  if (p.slice(0, 6).every((part) => part === 0)) return "ipv4Compatible";
  // Only 2000::/3 is allocated as global unicast; the rest of the space is reserved by IANA.
  if ((p[0] & 0xe000) !== 0x2000) return "notGlobalUnicast";
  return PUBLIC_RANGE;
}
