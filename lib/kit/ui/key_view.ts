/**
 * What a page may show of an API key (never its hash, never the key itself), and the one date
 * format the server and the islands both use, so hydration renders the same text.
 */
import type { ApiKeyEntry } from "../storage/store.ts";

/** A key as the dashboard and the key manager island show it. */
export interface KeyView {
  id: string;
  name: string;
  /** The first characters of the key, e.g. "uvk_3f9a2c". */
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** The public view of a stored key. */
export function keyView(entry: ApiKeyEntry): KeyView {
  return {
    id: entry.id,
    name: entry.name,
    prefix: entry.prefix,
    createdAt: entry.createdAt,
    lastUsedAt: entry.lastUsedAt,
    revokedAt: entry.revokedAt,
  };
}

/** "2026-11-21 10:00 UTC" (or `none` for null): the same on the server and in any browser. */
export function formatWhen(ms: number | null, none = "never"): string {
  if (ms === null || !Number.isFinite(ms)) return none;
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Newest first, active keys before revoked ones. */
export function sortKeys(keys: KeyView[]): KeyView[] {
  return [...keys].sort((a, b) =>
    (a.revokedAt === null ? 0 : 1) - (b.revokedAt === null ? 0 : 1) || b.createdAt - a.createdAt
  );
}
