/**
 * The report page's history (lib/kit/web/report_sections.ts): after a second scan, what changed
 * against the scan before the one shown leads the page (beside the summary) and follows it in full,
 * and the kept scans close it, the one shown marked. Before a second scan it shows nothing.
 */
import type { Store } from "../../kit/storage/store.ts";
import type { ReportSection } from "../../kit/web/report_sections.ts";
import { changesOf, historyOf } from "../../engines/history/service.ts";
import { ChangeLead } from "./views/report_change_lead.tsx";
import { ReportChanges, ReportHistory } from "./views/report_changes.tsx";

/** The history section of the report pages of `store`'s records. */
export function historyReportSection(store: Store): ReportSection {
  return {
    id: "history",
    load: async ({ domain, stored }) => {
      const scans = await historyOf(store, domain);
      if (!scans.some((s) => s.id === stored.jobId)) return null;
      // What changed is shown when it can be read; the list of scans without it otherwise.
      const diff = await changesOf(store, domain, { to: stored.jobId }).catch(() => null);
      return {
        lead: <ChangeLead diff={diff} />,
        top: <ReportChanges domain={domain} diff={diff} currentId={stored.jobId} />,
        end: <ReportHistory domain={domain} scans={scans} currentId={stored.jobId} />,
      };
    },
  };
}
