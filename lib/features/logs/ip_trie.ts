/**
 * A prefix tree of IP ranges, answering which lists hold an address in a number of steps that
 * depends on the address's length only, never on how many ranges were added: one read of a table
 * indexed by the address's first 16 bits (ranges of /16 or shorter are spread over it), then a
 * binary walk of at most 16 (IPv4) or 112 (IPv6) nodes for longer ranges, collecting the marks of
 * the lists on the way. Everything lives in flat typed arrays (each node's two children and its
 * mark side by side), and an IPv4 address is read by hand into one 32-bit number, so a lookup
 * allocates nothing. tests/bench/logs_bench.ts measures lookups per million hits with 100 and with
 * 100 000 ranges.
 */
import ipaddr from "ipaddr.js";

/** A dotted quad as an unsigned 32-bit number, read by hand; -1 when it is not one. */
export function ipv4Number(ip: string): number {
  let value = 0, part = 0, digits = 0, parts = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (!digits || parts === 3) return -1;
      value = value * 256 + part;
      parts++;
      part = digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      part = part * 10 + c - 48;
      if (part > 255) return -1;
      digits++;
    } else return -1;
  }
  if (parts !== 3 || !digits) return -1;
  return value * 256 + part;
}

/** Bytes of an address, or null when it is not one. IPv4-mapped IPv6 reads as IPv4. */
export function addressBytes(ip: string): number[] | null {
  const v4 = ipv4Number(ip);
  if (v4 >= 0) return [v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255];
  try {
    let a = ipaddr.parse(ip.trim());
    if (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress()) {
      a = (a as ipaddr.IPv6).toIPv4Address();
    }
    return a.toByteArray();
  } catch {
    return null;
  }
}

/** Entries of the first-level table: every value of an address's first 16 bits. */
const ROOT = 65_536;
/** Ints per node: the child for bit 0, the child for bit 1, the mark. */
const NODE = 3;

/** One family's tree. */
class Tree {
  /** Node below each first-16-bit value (0: none; node 0 is never a child). */
  #root = new Int32Array(ROOT);
  /** Marks of ranges of /16 or shorter, spread over the values they cover. */
  #rootMark = new Uint32Array(ROOT);
  /** Nodes, NODE ints each; node 0 is unused so that 0 means "no child". */
  #nodes = new Int32Array(NODE * 1024);
  #size = 1;

  #node(): number {
    if ((this.#size + 1) * NODE > this.#nodes.length) {
      const grown = new Int32Array(this.#nodes.length * 2);
      grown.set(this.#nodes);
      this.#nodes = grown;
    }
    return this.#size++;
  }

  /** Adds a range: `bits` leading bits of `bytes`, marked with `mask`. */
  add(bytes: number[], bits: number, mask: number): void {
    const head = (bytes[0] << 8) | bytes[1];
    if (bits <= 16) {
      const span = 1 << (16 - bits);
      const from = bits === 0 ? 0 : head & ~(span - 1) & 0xffff;
      for (let i = from; i < from + span; i++) this.#rootMark[i] |= mask;
      return;
    }
    let node = this.#root[head];
    if (!node) node = this.#root[head] = this.#node();
    for (let i = 16; i < bits; i++) {
      const bit = (bytes[i >> 3] >> (7 - (i & 7))) & 1;
      let child = this.#nodes[node * NODE + bit];
      if (!child) {
        child = this.#node();
        this.#nodes[node * NODE + bit] = child;
      }
      node = child;
    }
    this.#nodes[node * NODE + 2] |= mask;
  }

  /** The marks of every range holding the address given by its bytes. */
  lookupBytes(bytes: number[]): number {
    const head = (bytes[0] << 8) | bytes[1];
    let marks = this.#rootMark[head];
    let node = this.#root[head];
    const nodes = this.#nodes;
    const bits = bytes.length * 8;
    for (let i = 16; node && i < bits; i++) {
      marks |= nodes[node * NODE + 2];
      node = nodes[node * NODE + ((bytes[i >> 3] >> (7 - (i & 7))) & 1)];
    }
    return node ? marks | nodes[node * NODE + 2] : marks;
  }

  /** The same for an IPv4 address as a 32-bit number (no allocation). */
  lookup32(v4: number): number {
    const head = v4 >>> 16;
    let marks = this.#rootMark[head];
    let node = this.#root[head];
    const nodes = this.#nodes;
    for (let i = 15; node && i >= 0; i--) {
      marks |= nodes[node * NODE + 2];
      node = nodes[node * NODE + ((v4 >>> i) & 1)];
    }
    return node ? marks | nodes[node * NODE + 2] : marks;
  }
}

/** Ranges of up to 32 lists, IPv4 and IPv6, answering which lists hold an address. */
export class PrefixTrie {
  #v4 = new Tree();
  #v6 = new Tree();
  /** Ranges added. */
  size = 0;

  /**
   * Adds a CIDR range (`a.b.c.d/n`, `x::/n`, or a bare address) for list `list` (0..31). Returns
   * false for text that is not a range.
   */
  add(cidr: string, list: number): boolean {
    const slash = cidr.indexOf("/");
    const bytes = addressBytes(slash < 0 ? cidr : cidr.slice(0, slash));
    if (!bytes) return false;
    const bitsText = slash < 0 ? "" : cidr.slice(slash + 1);
    const bits = slash < 0 ? bytes.length * 8 : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (!Number.isInteger(bits) || bits < 0 || bits > bytes.length * 8) return false;
    (bytes.length === 4 ? this.#v4 : this.#v6).add(bytes, bits, (1 << list) >>> 0);
    this.size++;
    return true;
  }

  /** The lists (a bit mask) whose ranges hold the address; 0 when none or not an address. */
  lists(ip: string): number {
    const v4 = ipv4Number(ip);
    if (v4 >= 0) return this.#v4.lookup32(v4) >>> 0;
    const bytes = addressBytes(ip);
    if (!bytes) return 0;
    return (bytes.length === 4 ? this.#v4.lookupBytes(bytes) : this.#v6.lookupBytes(bytes)) >>> 0;
  }
}
