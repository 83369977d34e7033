/**
 * The report page's answer presence (lib/kit/web/report_sections.ts), on the latest report of a
 * site, right after what changed: for the signed-in account that watches it, its plan, latest run
 * and answers (nobody else sees them, so the page is then not cached, and while a run is in
 * progress the page comes back by itself every 10 s); for a signed-in account that does not, the
 * offer to watch it and ask the assistants; for a visitor without an account, where to get one.
 */
import type { ReportSection } from "../../kit/web/report_sections.ts";
import type { AnswersDeps } from "./context.ts";
import { answersOffer, answersPanel } from "./panel.ts";
import { AnswerOfferSection, AnswerPresenceSection } from "./views/answer_presence_section.tsx";
import { SignUpOffer } from "./views/sign_up_offer.tsx";

/** Seconds between the page's own reloads while a run is in progress. */
const RUNNING_REFRESH_S = 10;

/** Answer presence's section of the report pages. */
export function answersReportSection(deps: AnswersDeps): ReportSection {
  return {
    id: "answers",
    load: async ({ domain, view, reader }) => {
      if (view !== "latest") return null;
      if (!reader) return { top: <SignUpOffer domain={domain} /> };
      const panel = await answersPanel(deps, reader.accountId, domain, reader.csrf);
      if (panel) {
        return {
          top: <AnswerPresenceSection panel={panel} />,
          private: true,
          ...(panel.running ? { refreshSeconds: RUNNING_REFRESH_S } : {}),
        };
      }
      const offer = await answersOffer(deps, reader.accountId, domain, reader.csrf);
      return offer ? { top: <AnswerOfferSection offer={offer} /> } : null;
    },
  };
}
