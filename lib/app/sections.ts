/**
 * The sections features add to other features' pages, in page order, each built from its
 * feature's own dependencies: the account page's (lib/kit/web/account_sections.ts: the watched
 * sites, the account's own AI vendor keys) and the report pages' (lib/kit/web/report_sections.ts:
 * what changed and the kept scans, answer presence). createServer (lib/app/server.ts) hands them
 * to the pages (AppDeps.accountSections, AppDeps.reportSections); adding a section is a line here.
 */
import type { AccountSection } from "../kit/web/account_sections.ts";
import type { ReportSection } from "../kit/web/report_sections.ts";
import type { Store } from "../kit/storage/store.ts";
import type { ServiceDef } from "../service.ts";
import type { WatchDeps } from "../features/watch/context.ts";
import type { AnswersDeps } from "../features/answers/context.ts";
import { watchAccountSection } from "../features/watch/account_section.tsx";
import { answerKeysAccountSection } from "../features/answers/account_section.tsx";
import { historyReportSection } from "../features/history/report_section.tsx";
import { answersReportSection } from "../features/answers/report_section.tsx";

/** What the sections are built from: the service, its store and the features' deps. */
export interface SectionParts {
  service: ServiceDef;
  store: Store;
  watch: WatchDeps;
  answers: AnswersDeps;
}

/** The account page's sections, after the account's API keys. */
export function accountSections(parts: SectionParts): AccountSection[] {
  return [watchAccountSection(parts.watch), answerKeysAccountSection(parts.answers)];
}

/** The report pages' sections (each placed where the service's report gives its places). */
export function reportSections(parts: SectionParts): ReportSection[] {
  return [historyReportSection(parts), answersReportSection(parts.answers)];
}
