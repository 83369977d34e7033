/**
 * What other features add to a report page (GET /report/{domain} and a kept scan's page,
 * lib/features/report/): each a section the app hands the page (AppDeps.reportSections, built in
 * lib/app/sections.ts), loaded for the page's record and reader, and placed where the service's
 * report gives its places (lib/service.ts ReportInserts: beside the summary, after it, at the
 * end). So the report feature, the services' report views and a section's feature never import
 * each other.
 */
import type { VNode } from "preact";
import type { ReportInserts } from "../../service.ts";
import type { StoredScan } from "../storage/store_types.ts";

/** What a report page shows, and to whom. */
export interface ReportPage {
  domain: string;
  stored: StoredScan;
  /**
   * Which page: the latest report of the domain, one kept scan's page (lib/kit/storage/history.ts)
   * or one page's report (a service that scans pages).
   */
  view: "latest" | "kept" | "page";
  /** The signed-in account reading it, with its session's form token; null for anyone else. */
  reader: { accountId: string; csrf: string } | null;
}

/** What a section shows on one page: a view per place, and whether it is the reader's own. */
export type ReportSectionParts = { [P in keyof ReportInserts]?: VNode } & {
  /** The page shows what only this reader may see: it is not cached (private, no-store). */
  private?: boolean;
  /** The page comes back by itself after this many seconds (something is in progress). */
  refreshSeconds?: number;
};

/** A section of the report page. */
export interface ReportSection {
  /** Its name (for tests and logs). */
  id: string;
  /** What it shows on `page`, or null for nothing. */
  load(page: ReportPage): Promise<ReportSectionParts | null>;
}

/**
 * The sections' parts of one page, each place in the list's order, whether any is private, and the
 * soonest reload any asks for.
 */
export async function loadSections(
  sections: readonly ReportSection[],
  page: ReportPage,
): Promise<{ inserts: ReportInserts; private: boolean; refreshSeconds: number | null }> {
  const parts = await Promise.all(sections.map((s) => s.load(page)));
  const inserts: ReportInserts = { lead: [], top: [], end: [] };
  let only = false;
  let refresh: number | null = null;
  for (const p of parts) {
    if (!p) continue;
    if (p.refreshSeconds !== undefined) {
      refresh = Math.min(refresh ?? p.refreshSeconds, p.refreshSeconds);
    }
    for (const place of ["lead", "top", "end"] as const) {
      const view = p[place];
      if (view) inserts[place].push(view);
    }
    only ||= p.private === true;
  }
  return { inserts, private: only, refreshSeconds: refresh };
}
