/** On a report, for a visitor without an account: watching and asking need one (free). */
import type { VNode } from "preact";
import { PATHS } from "../../../kit/report_urls.ts";

/** Where a visitor gets an account to watch `domain` and ask the assistants about it. */
export function SignUpOffer(props: { domain: string }): VNode {
  return (
    <section class="card answer-offer" aria-labelledby="signup-offer-title">
      <h2 id="signup-offer-title">Watch {props.domain} and ask the AI assistants</h2>
      <p>
        With a free account you can watch this site (checked again every week or day, with an e-mail
        when it gets worse) and ask ChatGPT, Perplexity, Claude and Gemini about it: how often they
        name and cite it, beside its competitors.
      </p>
      <p>
        <a class="button" href={PATHS.accountSignup}>Create a free account</a>{" "}
        <a href={PATHS.accountLogin}>or sign in</a>
      </p>
    </section>
  );
}
