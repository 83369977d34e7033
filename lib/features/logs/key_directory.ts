/**
 * Web Bot Auth key directories fetched through the guarded fetcher
 * (`<agent>/.well-known/http-message-signatures-directory`, a JWKS), kept for an hour per agent.
 */
import type { GuardedFetcher } from "../../kit/net/types.ts";
import type { DirectoryKey, KeyDirectory } from "./web_bot_auth.ts";

const HOUR_MS = 3_600_000;

/** A key directory lookup over `fetcher`. */
export function keyDirectory(fetcher: GuardedFetcher, now: () => number = Date.now): KeyDirectory {
  const cache = new Map<string, { at: number; keys: Promise<DirectoryKey[]> }>();
  return (origin) => {
    const known = cache.get(origin);
    if (known && now() - known.at < HOUR_MS) return known.keys;
    const keys = fetcher.fetch(`${origin}/.well-known/http-message-signatures-directory`, {
      maxBytes: 64 * 1024,
      timeoutMs: 5_000,
      headers: { accept: "application/http-message-signatures-directory+json" },
    }).then((r) => {
      if (r.status !== 200) throw new Error(`the directory answered ${r.status}`);
      const body = JSON.parse(r.body) as { keys?: unknown };
      return Array.isArray(body.keys)
        ? body.keys.filter((k) => k && typeof k === "object") as DirectoryKey[]
        : [];
    });
    cache.set(origin, { at: now(), keys });
    return keys;
  };
}
