/**
 * The /validate page's result sections as HTML: code in hand shown as the schema report shows a
 * page. Rendered where the validation ran: a worker (the "validate-html" job, lib/app/server.ts
 * JOB_KINDS names this module), so the server's thread never parses or renders what a visitor's
 * code produced; it places the HTML in the page (lib/features/validate/routes/validate.tsx). The HTML is this renderer's own output from the
 * validation's bounded answer (lib/features/validate/validate_job.ts): every text in it is escaped
 * by Preact, as on any report page.
 */
import { renderToString } from "preact-render-to-string";
import type { Result } from "../../../engines/structured/record.ts";
import { SchemaResultSections } from "./schema_report.tsx";

/** The result sections of a validation's JSON answer, as HTML. */
export function validateResultHtml(json: string): string {
  const { result } = JSON.parse(json) as { result: Result };
  return renderToString(<SchemaResultSections result={result} />);
}

/** The thread job (see the module comment). */
export function runJob(job: { kind: "validate-html"; json: string }): { html: string } {
  return { html: validateResultHtml(job.json) };
}
