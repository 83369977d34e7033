/**
 * The report page's history (lib/kit/web/report_sections.ts): after a second scan, what changed
 * against the scan before the one shown leads the page (beside the summary) and follows it in full,
 * and the kept scans close it, the one shown marked. A service that scans pages (the schema
 * service) keeps a history per page: the kept scans are this page's, followed by the site's other
 * pages, each with its own report. Before a second scan it shows nothing.
 */
import type { Store } from "../../kit/storage/store.ts";
import type { ServiceDef } from "../../service.ts";
import type { ReportSection } from "../../kit/web/report_sections.ts";
import { pageReportPath } from "../../kit/report_urls.ts";
import { changesOf, historyOf, pagesOf } from "../../engines/history/service.ts";
import { ChangeLead } from "./views/report_change_lead.tsx";
import { ReportChanges, ReportHistory } from "./views/report_changes.tsx";
import { SitePages } from "./views/site_pages.tsx";

/** The history section of the report pages of `deps.store`'s records. */
export function historyReportSection(deps: { store: Store; service: ServiceDef }): ReportSection {
  const { store } = deps;
  return {
    id: "history",
    load: async ({ domain, stored }) => {
      const all = await historyOf(store, domain);
      if (!all.some((s) => s.id === stored.jobId)) return null;
      // What changed is shown when it can be read; the list of scans without it otherwise.
      const diff = await changesOf(store, domain, { to: stored.jobId }).catch(() => null);
      const url = (stored.record as { url?: unknown }).url;
      const perPage = deps.service.watchTarget === "page" && typeof url === "string";
      const scans = perPage ? all.filter((s) => s.url === url) : all;
      const pages = perPage
        ? (await pagesOf(store, domain)).map((p) => ({
          url: p.url,
          scannedAt: p.latest.scannedAt,
          status: p.latest.status,
          report: pageReportPath(domain, p.url),
        }))
        : [];
      return {
        lead: <ChangeLead diff={diff} />,
        top: <ReportChanges domain={domain} diff={diff} currentId={stored.jobId} />,
        end: (
          <>
            <ReportHistory domain={domain} scans={scans} currentId={stored.jobId} />
            {perPage && <SitePages pages={pages} current={url} />}
          </>
        ),
      };
    },
  };
}
