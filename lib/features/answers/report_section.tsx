/**
 * The report page's answer presence (lib/kit/web/report_sections.ts): on the latest report of a
 * site, for the signed-in account that watches it, its plan, latest run and answers, right after
 * what changed. Nobody else sees it (a run is the account's), so the page is then not cached.
 */
import type { ReportSection } from "../../kit/web/report_sections.ts";
import type { AnswersDeps } from "./context.ts";
import { answersPanel } from "./panel.ts";
import { AnswerPresenceSection } from "./views/answer_presence_section.tsx";

/** Answer presence's section of the report pages. */
export function answersReportSection(deps: AnswersDeps): ReportSection {
  return {
    id: "answers",
    load: async ({ domain, kept, reader }) => {
      if (kept || !reader) return null;
      const panel = await answersPanel(deps, reader.accountId, domain, reader.csrf);
      return panel ? { top: <AnswerPresenceSection panel={panel} />, private: true } : null;
    },
  };
}
