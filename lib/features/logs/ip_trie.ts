/**
 * A binary prefix tree of IP ranges: each range marks the node at its prefix length with the bit
 * of the list it came from, and a lookup walks at most 32 (IPv4) or 128 (IPv6) nodes, collecting
 * the marks on its way. A lookup's cost depends on the address length only, never on how many
 * ranges were added (tests/bench/logs_bench.ts measures it per million hits).
 */
import ipaddr from "ipaddr.js";

/** A dotted quad's four bytes, read by hand (the common case), or null. */
function quad(ip: string): number[] | null {
  const out = [0, 0, 0, 0];
  let part = 0, value = 0, digits = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (!digits || part === 3) return null;
      out[part++] = value;
      value = digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      value = value * 10 + c - 48;
      if (value > 255) return null;
      digits++;
    } else return null;
  }
  if (part !== 3 || !digits) return null;
  out[3] = value;
  return out;
}

/** Bytes of an address, or null when it is not one. IPv4-mapped IPv6 reads as IPv4. */
export function addressBytes(ip: string): number[] | null {
  const v4 = quad(ip);
  if (v4) return v4;
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

/** One family's tree, in flat typed arrays (two children and a mark per node). */
class Tree {
  #zero = new Int32Array(1024).fill(-1);
  #one = new Int32Array(1024).fill(-1);
  #mark = new Uint32Array(1024);
  #size = 1;

  #grow() {
    const n = this.#zero.length * 2;
    const grow = <T extends Int32Array | Uint32Array>(a: T, fill: number): T => {
      const b = new (a.constructor as { new (n: number): T })(n);
      b.fill(fill as never);
      b.set(a);
      return b;
    };
    this.#zero = grow(this.#zero, -1);
    this.#one = grow(this.#one, -1);
    this.#mark = grow(this.#mark, 0);
  }

  add(bytes: number[], bits: number, mask: number) {
    let node = 0;
    for (let i = 0; i < bits; i++) {
      const bit = (bytes[i >> 3] >> (7 - (i & 7))) & 1;
      const next = bit ? this.#one : this.#zero;
      let child = next[node];
      if (child < 0) {
        if (this.#size >= this.#zero.length) this.#grow();
        child = this.#size++;
        (bit ? this.#one : this.#zero)[node] = child;
      }
      node = child;
    }
    this.#mark[node] |= mask;
  }

  lookup(bytes: number[]): number {
    let node = 0;
    let marks = this.#mark[0];
    const bits = bytes.length * 8;
    for (let i = 0; i < bits; i++) {
      const bit = (bytes[i >> 3] >> (7 - (i & 7))) & 1;
      node = bit ? this.#one[node] : this.#zero[node];
      if (node < 0) break;
      marks |= this.#mark[node];
    }
    return marks;
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
    const bits = slash < 0 ? bytes.length * 8 : Number(cidr.slice(slash + 1));
    if (!Number.isInteger(bits) || bits < 0 || bits > bytes.length * 8) return false;
    (bytes.length === 4 ? this.#v4 : this.#v6).add(bytes, bits, 1 << list);
    this.size++;
    return true;
  }

  /** The lists (a bit mask) whose ranges hold the address; 0 when none or not an address. */
  lists(ip: string): number {
    const bytes = addressBytes(ip);
    if (!bytes) return 0;
    return (bytes.length === 4 ? this.#v4 : this.#v6).lookup(bytes);
  }
}
