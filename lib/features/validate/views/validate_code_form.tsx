/**
 * The "validate code" form of the schema service (like the Rich Results Test's Code tab): a
 * textarea for HTML or JSON-LD, posted to /validate, which renders the same result sections as a
 * scan report. Works without JavaScript.
 */
import type { VNode } from "preact";
import { VALIDATE_LIMIT } from "../../../kit/limits/limits.ts";
import { MAX_CODE_BYTES } from "../validate_code.ts";
import { PATHS } from "../../../kit/report_urls.ts";

/** The form; `code` and `url` refill it after a post. */
export function ValidateCodeForm(props: { code?: string; url?: string }): VNode {
  return (
    // The answer's page opens at its result (#result), not at the top of the form again.
    <form class="card validate-form" method="post" action={`${PATHS.validate}#result`}>
      <label for="validate-code">
        <strong>Paste HTML or JSON-LD</strong>
      </label>
      <textarea
        id="validate-code"
        name="code"
        rows={12}
        required
        spellcheck={false}
        placeholder='{"@context": "https://schema.org", "@type": "Product", ...}'
      >
        {props.code ?? ""}
      </textarea>
      <label for="validate-url">Page URL it stands for (optional)</label>
      <input
        id="validate-url"
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://example.com/"
        value={props.url ?? ""}
      />
      <button class="button" type="submit">Validate code</button>
      <p class="muted small">
        Nothing is fetched: the code is checked as it is. At most{" "}
        {Math.round(MAX_CODE_BYTES / 1024)} KB, {VALIDATE_LIMIT}{" "}
        validations per hour from one network (apart from the scan limits).
      </p>
    </form>
  );
}
