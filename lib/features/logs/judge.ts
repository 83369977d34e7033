/**
 * Judges a crawler hit: verified, spoofed or unverifiable, and how. In order: a valid Web Bot
 * Auth signature from an agent the crawler's vendor runs; the vendor's published ranges (in them:
 * verified; outside every list the vendor publishes for it, all current: spoofed; a list known only
 * from the shipped snapshot verifies but never refutes); reverse DNS with
 * forward confirmation where the vendor documents it; otherwise unverifiable, with the reason.
 * Nothing is guessed: a list that could not be loaded or a lookup that did not answer leaves the
 * hit unverifiable.
 */
import type { Crawler } from "../../engines/visibility/crawlers.ts";
import type { CrawlerDns } from "../../kit/net/crawler_dns.ts";
import type { LogHit } from "./hit.ts";
import type { Basis, Verdict } from "./aggregate.ts";
import { currentMask, loadedMask, type LoadedRanges } from "./ip_ranges.ts";
import { listsOf, REVERSE_DNS, SIGNING_AGENTS } from "./verify_sources.ts";
import { checkSignature, type KeyDirectory, type SignatureCheck } from "./web_bot_auth.ts";

/** A verdict with how it was reached. */
export interface Judgement {
  verdict: Verdict;
  basis: Basis;
  why?: string;
  signature?: SignatureCheck["outcome"];
}

/** What judging needs. */
export interface JudgeDeps {
  ranges: LoadedRanges;
  /** Reverse DNS checks; null where the reader may not query DNS (offline, tests). */
  dns: CrawlerDns | null;
  /** Web Bot Auth key directories; null to leave signatures unchecked. */
  keys: KeyDirectory | null;
}

/** A judge for one read (the loaded lists' mask computed once). */
export function createJudge(deps: JudgeDeps) {
  const loaded = loadedMask(deps.ranges);
  const current = currentMask(deps.ranges);
  return (hit: LogHit, crawler: Crawler): Judgement | Promise<Judgement> => {
    if (hit.signature && deps.keys) return bySignature(hit, crawler);
    return byAddress(hit, crawler);
  };

  async function bySignature(hit: LogHit, crawler: Crawler): Promise<Judgement> {
    const check = await checkSignature(hit, deps.keys!);
    if (check.outcome === "valid") {
      const host = new URL(check.agent).hostname;
      const agent = SIGNING_AGENTS.find((a) => a.host === host);
      if (agent?.vendor === crawler.vendor) {
        return { verdict: "verified", basis: "web_bot_auth", signature: "valid" };
      }
    }
    const j = await byAddress(hit, crawler);
    return { ...j, signature: check.outcome };
  }

  function byAddress(hit: LogHit, crawler: Crawler): Judgement | Promise<Judgement> {
    const lists = listsOf(crawler.token);
    if (lists) {
      const usable = lists & loaded;
      if (usable) {
        if (deps.ranges.trie.lists(hit.ip) & usable) {
          return { verdict: "verified", basis: "ip_ranges" };
        }
        // Outside every list the vendor publishes for it, each current: spoofed. A list known
        // only from the shipped snapshot cannot refute (the vendor may have added ranges).
        if ((lists & current) === lists) return { verdict: "spoofed", basis: "ip_ranges" };
      }
    }
    const rule = REVERSE_DNS[crawler.token];
    if (rule && deps.dns) {
      return deps.dns.check(hit.ip, rule.suffixes).then((c): Judgement =>
        c.outcome === "confirmed"
          ? { verdict: "verified", basis: "reverse_dns" }
          : c.outcome === "refuted"
          ? { verdict: "spoofed", basis: "reverse_dns" }
          : { verdict: "unverifiable", basis: "none", why: c.why }
      );
    }
    if (lists & loaded) {
      return {
        verdict: "unverifiable",
        basis: "none",
        why:
          "not in the shipped copy of the vendor's address list, and its current list could not be loaded",
      };
    }
    if (lists) {
      return {
        verdict: "unverifiable",
        basis: "none",
        why: "the vendor's address list could not be loaded",
      };
    }
    if (rule) {
      return { verdict: "unverifiable", basis: "none", why: "reverse DNS was not checked here" };
    }
    return {
      verdict: "unverifiable",
      basis: "none",
      why: "its vendor publishes no address list or DNS rule to check it by",
    };
  }
}
