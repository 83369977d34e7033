/**
 * The Schema Markup Generator's home page: what the service does, the scan form with its browser
 * challenge, the form to validate code in hand, and what a report holds.
 */
import type { VNode } from "preact";
import type { HomeProps } from "../../service.ts";
import { LIMITS } from "../../kit/limits/limits.ts";
import { ScanFormBlock } from "../../kit/ui/scan_form.tsx";
import { DevelopersSection } from "../../kit/ui/developers_section.tsx";
import { SCHEMA_WORDS } from "./words.ts";

/** The Schema Markup Generator's home page body. */
export function SchemaHome(props: HomeProps): VNode {
  return (
    <>
      <section class="hero" aria-labelledby="home-title">
        <h1 id="home-title">Structured data, checked and written for you</h1>
        <p class="lead">
          Search engines and AI assistants read schema.org markup to know what a page is: a product,
          an article, a business. Enter a page address: see the markup it has, what is wrong with
          it, and get JSON-LD ready to paste.
        </p>
        <ScanFormBlock
          widget={props.widget}
          form={SCHEMA_WORDS.form}
          canRender={props.canRender}
          // This service renders by default where it can, as Google's Rich Results Test does,
          // and keeps a report per page.
          renderChecked
          perPage
        />
        <p class="muted small">
          Free and without an account. Up to {LIMITS.ip} new scans per hour from one network.
        </p>
      </section>
      <section aria-labelledby="validate-title">
        <h2 id="validate-title">Or validate code</h2>
        <p>Not published yet? Paste the HTML or JSON-LD and check it as it is.</p>
        {props.validateForm}
      </section>
      <section aria-labelledby="get-title">
        <h2 id="get-title">What you get</h2>
        <ol class="get-list">
          <li>
            <strong>Everything the page declares</strong>: JSON-LD, microdata and RDFa, item by
            item.
          </li>
          <li>
            <strong>Errors and warnings</strong>{" "}
            against schema.org and Google's rich-result rules, each with the property path and how
            to fix it, and any search feature Google has retired.
          </li>
          <li>
            <strong>JSON-LD to paste</strong>, built from what the page says, highlighted, with a
            copy button and a list of what to fill in by hand.
          </li>
        </ol>
      </section>
      <DevelopersSection sister={props.sister} sourceUrl={props.sourceUrl} />
    </>
  );
}
