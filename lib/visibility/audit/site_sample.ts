/**
 * The site audit's sampled-pages table: duplicates marked on each page, and the
 * `discovery.site_sample` note that carries the table in its `pages` field (not scored).
 */
import { type Check, unscored } from "../check.ts";
import { pathShape } from "./sample.ts";
import type { AuditPage, AuditResult, PageReport } from "./types.ts";

/** "/a, /b, /c and 4 more". */
export function examples(pages: PageReport[], max = 3): string {
  const shown = pages.slice(0, max).map((p) => p.path).join(", ");
  return pages.length > max ? `${shown} and ${pages.length - max} more` : shown;
}

/** Adds "duplicate title/description" to the pages that share one with another page. */
export function withDuplicates(pages: PageReport[]): PageReport[] {
  const count = (key: (p: PageReport) => string | null) => {
    const m = new Map<string, number>();
    for (const p of pages) {
      const k = key(p);
      if (k) m.set(k, (m.get(k) ?? 0) + 1);
    }
    return m;
  };
  const titleKey = (p: PageReport) => p.title?.trim().toLowerCase() || null;
  const descKey = (p: PageReport) => p.description?.trim().toLowerCase() || null;
  const titles = count(titleKey), descs = count(descKey);
  return pages.map((p) => {
    const fails = [...p.fails];
    if ((titles.get(titleKey(p) ?? "") ?? 0) > 1) fails.push("duplicate title");
    if ((descs.get(descKey(p) ?? "") ?? 0) > 1) fails.push("duplicate description");
    return { ...p, fails };
  });
}

/** The sampled-pages table and how the sample was read (not scored). */
export function sampleNote(audit: AuditResult, pages: PageReport[]): Check {
  const read = pages.filter((p) => p.state === "read").length;
  const notes: string[] = [];
  if (audit.delayLimited) {
    notes.push(
      `robots.txt asks for a Crawl-delay of ${audit.crawlDelaySec} s, above the bound we wait, so only the home page was read`,
    );
  } else if (audit.crawlDelaySec) {
    notes.push(`pages were read ${audit.crawlDelaySec} s apart, as robots.txt's Crawl-delay asks`);
  }
  if (audit.budgetHit) {
    notes.push(
      `the audit's time budget (${
        (audit.budgetMs / 1000).toFixed(1)
      } s) ran out: the report describes the ${read} pages that arrived`,
    );
  }
  const robots = pages.filter((p) => p.state === "robots");
  if (robots.length) notes.push(`robots.txt keeps our crawler from ${examples(robots)}`);
  const detail = pages.length < 2
    ? "Only the home page was sampled" +
      (audit.candidates ? "." : ": no other page of the site was found in its sitemap or links.")
    : `Read ${read} of ${pages.length} sampled pages (home page included), chosen from ${audit.candidates} candidate URLs across ${
      new Set(pages.slice(1).map((p) => pathShape(p.url))).size
    } templates${notes.length ? `; ${notes.join("; ")}` : ""}.`;
  const check = unscored(
    "discovery.site_sample",
    "Pages sampled for the site audit",
    "info",
    pages.length < 2 && notes.length ? `${detail} (${notes.join("; ")})` : detail,
    // The table itself is the `pages` field (no copy of it in the evidence).
    [],
  );
  const rows: AuditPage[] = pages.map((p) => ({
    url: p.url,
    type: p.type,
    source: p.source,
    state: p.state,
    httpStatus: p.httpStatus,
    fails: p.fails,
  }));
  return { ...check, signal: { ...check.signal, pages: rows } };
}
