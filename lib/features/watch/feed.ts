/**
 * The public Atom feed (RFC 4287) of a domain's changes: one entry per kept scan that changed
 * something against the scan before it of the same target (a score or grade change, an issue fixed
 * or new, a verdict changed, a scan failing or recovering), newest first, regressions named as
 * such. Read from the kept scans alone (lib/kit/storage/history.ts), so it needs no credentials and
 * holds only what the public records and /api/report/<domain>/changes.json already say; anyone
 * can poll it with a feed reader, whoever watches the domain.
 *
 * Bounded: the newest {@link FEED_SCANS} kept scans are read (so at most that many entries), and a
 * rendered feed is kept in memory per store until the domain's newest scan changes.
 */
import { diffRecords } from "../../engines/history/diff.ts";
import {
  changesFeedPath,
  changesJsonPath,
  reportPagePath,
  scanPagePath,
} from "../../kit/report_urls.ts";
import { type HistoryEntry, targetOf } from "../../kit/storage/history.ts";
import type { Store } from "../../kit/storage/store.ts";
import { findRegressions } from "../../engines/history/regressions.ts";

/** Kept scans read for one feed (the entries are at most one fewer). */
export const FEED_SCANS = 21;

/** Where a domain's feed is served (the one path template, lib/kit/report_urls.ts). */
export const feedPath = changesFeedPath;

/** A rendered feed and its validator. */
export interface RenderedFeed {
  xml: string;
  /** Changes exactly when the newest kept scan does. */
  etag: string;
}

/** Text safe inside XML: escaped, and without the characters XML 1.0 forbids. */
export function xmlText(s: string): string {
  return s
    // deno-lint-ignore no-control-regex
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const cache = new WeakMap<Store, Map<string, RenderedFeed>>();
const CACHED_FEEDS = 200;

/** The feed of `domain`, or null when it has no kept scan. */
export async function changesFeed(
  store: Store,
  domain: string,
  options: { origin: string; title: string },
): Promise<RenderedFeed | null> {
  const [newest] = await store.history.list(domain, 1);
  if (!newest) return null;
  const etag = `"${newest.id}"`;
  const feeds = cache.get(store) ?? new Map<string, RenderedFeed>();
  cache.set(store, feeds);
  const key = `${options.origin}\n${domain}`;
  const hit = feeds.get(key);
  if (hit?.etag === etag) return hit;
  const entries = await store.history.list(domain, FEED_SCANS);
  const items: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const newer = entries[i];
    const older = entries.slice(i + 1).find((e) => targetOf(domain, e) === targetOf(domain, newer));
    if (!older) continue;
    const item = await entryXml(store, domain, older, newer, options.origin);
    if (item) items.push(item);
  }
  const self = `${options.origin}${feedPath(domain)}`;
  const xml = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `  <id>${xmlText(self)}</id>`,
    `  <title>${xmlText(`${options.title}: changes of ${domain}`)}</title>`,
    `  <subtitle>${
      xmlText("Each entry is a scan that changed something against the scan before it.")
    }</subtitle>`,
    `  <updated>${xmlText(newest.scannedAt)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${
      xmlText(`${options.origin}${reportPagePath(domain)}`)
    }"/>`,
    `  <author><name>${xmlText(options.title)}</name></author>`,
    ...items,
    `</feed>`,
    "",
  ].join("\n");
  const rendered = { xml, etag };
  if (feeds.size >= CACHED_FEEDS) feeds.clear();
  feeds.set(key, rendered);
  return rendered;
}

async function entryXml(
  store: Store,
  domain: string,
  older: HistoryEntry,
  newer: HistoryEntry,
  origin: string,
): Promise<string | null> {
  // Most rescans change nothing: the lines of the history say so without reading the records.
  if (
    older.status === newer.status && older.score === newer.score && older.grade === newer.grade &&
    older.issues === newer.issues && JSON.stringify(older.pillars) === JSON.stringify(newer.pillars)
  ) return null;
  const [a, b] = await Promise.all([store.history.get(older.id), store.history.get(newer.id)]);
  if (!a || !b) return null;
  const diff = diffRecords(a.record, b.record, { from: older.id, to: newer.id });
  const { regressions } = findRegressions(a.record, b.record);
  const changed = diff.scoreChange !== 0 || diff.gradeChanged || diff.fixed.length ||
    diff.new.length || diff.changed.length || older.status !== newer.status;
  if (!changed) return null;
  const what = newer.url && newer.url !== `https://${domain}/` ? `${newer.url}: ` : "";
  const score = newer.score !== null && older.score !== null
    ? ` (score ${Math.round(older.score)} → ${Math.round(newer.score)})`
    : "";
  const title = regressions.length
    ? `Regression: ${what}${regressions[0].text.replace(/\.$/, "")}${score}`
    : `${what}${diff.summary[0] ?? "Changed"}`;
  const lines = [
    ...regressions.map((r) => `Regression: ${r.text}`),
    ...diff.summary,
  ].slice(0, 12);
  return [
    `  <entry>`,
    `    <id>urn:uuid:${xmlText(newer.id)}</id>`,
    `    <title>${xmlText(title.slice(0, 300))}</title>`,
    `    <updated>${xmlText(newer.scannedAt)}</updated>`,
    `    <link rel="alternate" type="text/html" href="${
      xmlText(`${origin}${scanPagePath(domain, newer.id)}`)
    }"/>`,
    `    <link rel="related" type="application/json" href="${
      xmlText(`${origin}${changesJsonPath(domain, older.id, newer.id)}`)
    }"/>`,
    ...(regressions.length ? [`    <category term="regression"/>`] : []),
    `    <summary type="text">${xmlText(lines.join("\n").slice(0, 4000))}</summary>`,
    `  </entry>`,
  ].join("\n");
}
