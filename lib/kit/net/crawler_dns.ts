/**
 * The resolver that checks a crawler's address by DNS (reverse lookup, then the forward lookup of
 * the name it gave): the one DNS path besides the fetcher's (lib/kit/net/resolve.ts), used by the
 * server-log reader (lib/features/logs/). It sends no HTTP request and connects to nothing; each
 * query has a deadline, answers are cached, and a caller's budget bounds how many it may ask.
 * Tests inject their own {@link DnsQueries}.
 */
import { lookup as dnsLookup, reverse as dnsReverse } from "node:dns/promises";

/** The two queries a check needs. */
export interface DnsQueries {
  /** PTR names of an address (empty when none). */
  reverse(ip: string): Promise<string[]>;
  /** Addresses of a name (empty when none). */
  forward(name: string): Promise<string[]>;
}

/** The system resolver's answers. */
export const systemDns: DnsQueries = {
  reverse: (ip) => dnsReverse(ip).catch(() => []),
  forward: (name) =>
    dnsLookup(name, { all: true, verbatim: true }).then((a) => a.map((x) => x.address)).catch(
      () => [],
    ),
};

/** What a forward-confirmed reverse lookup found. */
export type DnsCheck =
  /** The address's name ends with one of the suffixes and resolves back to the address. */
  | { outcome: "confirmed"; name: string }
  /** No name, a name outside the suffixes, or a name that does not resolve back. */
  | { outcome: "refuted"; name: string | null }
  /** The lookups did not answer in time or the budget was spent: nothing is known. */
  | { outcome: "unknown"; why: string };

/** Options of {@link createCrawlerDns}. */
export interface CrawlerDnsOptions {
  queries?: DnsQueries;
  /** Deadline of one query; default 2 000 ms. */
  timeoutMs?: number;
  /** Checks this resolver will run before answering "unknown"; default 2 000. */
  budget?: number;
}

/** A bounded, cached resolver for crawler checks. */
export interface CrawlerDns {
  /** Checks that `ip` has a name under one of `suffixes` that resolves back to it. */
  check(ip: string, suffixes: readonly string[]): Promise<DnsCheck>;
  /** Checks run (cache misses). */
  readonly spent: number;
}

/** True when `name` is `suffix` or ends with `.suffix` (a label boundary). */
export function underSuffix(name: string, suffix: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  const s = suffix.toLowerCase();
  return n === s || n.endsWith(`.${s}`);
}

/** Normalises an address for comparison (IPv6 written several ways). */
function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() ||
    (a.includes(":") && b.includes(":") && expand(a) === expand(b));
}

function expand(v6: string): string {
  const [head, tail = ""] = v6.toLowerCase().split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = new Array(Math.max(0, 8 - h.length - t.length)).fill("0");
  return [...h, ...(v6.includes("::") ? fill : []), ...t].map((x) => x.padStart(4, "0")).join(":");
}

/** Creates the resolver. */
export function createCrawlerDns(options: CrawlerDnsOptions = {}): CrawlerDns {
  const q = options.queries ?? systemDns;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const budget = options.budget ?? 2_000;
  const cache = new Map<string, Promise<DnsCheck>>();
  let spent = 0;
  const timed = <T>(p: Promise<T>): Promise<T | "timeout"> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((r) =>
      timer = setTimeout(() => r("timeout"), timeoutMs)
    );
    return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
  };
  const run = async (ip: string, suffixes: readonly string[]): Promise<DnsCheck> => {
    const names = await timed(q.reverse(ip));
    if (names === "timeout") return { outcome: "unknown", why: "the reverse lookup timed out" };
    const name = names.find((n) => suffixes.some((s) => underSuffix(n, s)));
    if (!name) return { outcome: "refuted", name: names[0] ?? null };
    const addresses = await timed(q.forward(name.replace(/\.$/, "")));
    if (addresses === "timeout") return { outcome: "unknown", why: "the forward lookup timed out" };
    return addresses.some((a) => sameAddress(a, ip))
      ? { outcome: "confirmed", name }
      : { outcome: "refuted", name };
  };
  return {
    check(ip, suffixes) {
      const key = `${ip} ${suffixes.join(",")}`;
      const known = cache.get(key);
      if (known) return known;
      if (spent >= budget) {
        return Promise.resolve({
          outcome: "unknown",
          why: "the DNS budget of this read was spent",
        });
      }
      spent++;
      const p = run(ip, suffixes).catch((e) => ({
        outcome: "unknown" as const,
        why: e instanceof Error ? e.message : String(e),
      }));
      cache.set(key, p);
      return p;
    },
    get spent() {
      return spent;
    },
  };
}
