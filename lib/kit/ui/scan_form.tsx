/**
 * The scan form as pages render it: a plain GET form to /report (without JavaScript it opens the
 * stored report of a site), the ScanForm island inside it (the POST to /api/scan, progress,
 * errors, the 429 countdown), and the challenge widget outside the island.
 */
import type { VNode } from "preact";
import type { ChallengeWidget } from "../auth/challenge.ts";
import { ScanForm, type ScanFormProps } from "../../../islands/ScanForm.tsx";
import { ChallengeField, Island } from "./layout.tsx";
import type { ServiceWords } from "../../service.ts";
import { PATHS } from "../report_urls.ts";

/**
 * The home page's scan form (or, with `rescanUrl`, a report page's "Scan again" form), with the
 * service's field texts (`form`). With `canRender` (the server can render pages in a browser) and
 * the service's checkbox label, the form offers "render in a browser" too, ticked with
 * `renderChecked`; "Scan again" offers it as well, ticked when the report was rendered.
 */
export function ScanFormBlock(props: {
  widget: ChallengeWidget;
  form: ServiceWords["form"];
  rescanUrl?: string;
  canRender?: boolean;
  /** The "render in a browser" box starts ticked (the service's default, or the scan rescanned). */
  renderChecked?: boolean;
  /** The service keeps a report per page: the form opens the scanned page's report. */
  perPage?: boolean;
  /** The address the field starts with (the not-scanned page of a site: "Scan it" opens it). */
  value?: string;
}): VNode {
  const { render, ...fields } = props.form;
  const renderBox = props.canRender && render
    ? { render, ...(props.renderChecked ? { renderChecked: true } : {}) }
    : {};
  const perPage = props.perPage ? { perPage: true } : {};
  const texts: Omit<ScanFormProps, "rescanUrl"> = {
    ...fields,
    ...renderBox,
    ...perPage,
    ...(props.value ? { value: props.value } : {}),
  };
  // The rescan form has no field: its island props (JSON in the page) carry no field texts; it
  // keeps (or offers) the render choice.
  const island: ScanFormProps = props.rescanUrl
    ? { button: "Scan again", rescanUrl: props.rescanUrl, ...renderBox, ...perPage }
    : texts;
  return (
    <form
      class={props.rescanUrl ? "rescan-form" : "card scan-card"}
      method="get"
      action={PATHS.reportForm}
      // The island validates; native validation would stop at the widget's required checkbox.
      noValidate
      aria-label={props.rescanUrl ? `Scan ${props.rescanUrl} again` : "Start a scan"}
    >
      <Island name="ScanForm" component={ScanForm} props={{ ...island }} />
      <ChallengeField
        widget={props.widget}
        lazy
        auto={props.rescanUrl ? "onfocus" : "onload"}
        invisible={!!props.rescanUrl}
      />
      <noscript>
        <p class="notice">
          {props.rescanUrl
            ? "Scanning needs JavaScript for the browser check that protects this free service."
            : "Starting a scan needs JavaScript, for the browser check that protects this free service. Without it, this form opens the latest stored report of a site."}
        </p>
      </noscript>
    </form>
  );
}
