/**
 * The report's "Answer presence" section: shown only to the signed-in account watching the site
 * (never to a visitor, never cached publicly), with the estimate before a run, a run started from
 * the page's form (CSRF-checked), its k-of-N table beside the crawler verdicts, the answers as
 * text (a hostile answer's markup escaped, a javascript: source dropped), the questions editable.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { answersOf, idle } from "../../../lib/features/answers/context.ts";
import { formToken, WebClient } from "../../helpers/web_client.ts";
import { DOMAIN, scanned, world } from "../../helpers/answers_env.ts";

const PASSWORD = "correct horse battery staple";

Deno.test("answers page - the section: the owner only, the estimate, a run from the form, its answers as text", async () => {
  const w = await world({
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "100",
    ANSWERS_GLOBAL_CALLS_PER_DAY: "100",
  });
  try {
    await scanned(w.env);
    const owner = new WebClient(w.env, "198.51.100.71");
    assertEquals((await owner.signUp("answers-owner@example.com", PASSWORD)).status, 303);
    // Before watching the site, its report has no section.
    assert(!(await owner.page(`/report/${DOMAIN}`)).html.includes('id="answers"'));
    const watched = await owner.submit("/account", "/account/watches", { url: DOMAIN });
    assertEquals(watched.status, 303);

    const visitor = new WebClient(w.env, "198.51.100.72");
    const publicPage = await visitor.page(`/report/${DOMAIN}`);
    assert(!publicPage.html.includes('id="answers"'));
    assert(!/private/.test(publicPage.res.headers.get("cache-control") ?? ""));

    const before = await owner.page(`/report/${DOMAIN}`);
    assertEquals(before.res.headers.get("cache-control"), "private, no-store");
    assert(before.html.includes('id="answers"'));
    assert(before.html.includes("No run yet."));
    assert(/A run makes 18 calls .* costs about \$0\.40: an estimate/.test(before.html));
    assert(before.html.includes("What is Good Coffee Roasters?"));

    // A form post without the session's token is refused; with it the run starts.
    const forged = await owner.request(`/account/answers/${DOMAIN}/run`, { form: { csrf: "x" } });
    assertEquals(forged.status, 403);
    assertEquals(w.replay.requests.length, 0);
    w.replay.script("openai", ["hostile", "answer"]);
    const started = await owner.request(`/account/answers/${DOMAIN}/run`, {
      form: { csrf: formToken(before.html, `/account/answers/${DOMAIN}/run`) },
    });
    assertEquals(started.status, 303);
    assertEquals(started.headers.get("location"), `/report/${DOMAIN}#answers`);
    await idle(answersOf(w.env.deps));

    const after = (await owner.page(`/report/${DOMAIN}`)).html;
    assert(after.includes("Perplexity (Sonar)"));
    assert(after.includes("6 of 6 (61-100%)"), "the cited rate of OpenAI, with its interval");
    assert(/<code>PerplexityBot<\/code>:\s*blocked by robots.txt/.test(after));
    assert(after.includes("Not configured: no key (the operator sets GEMINI_API_KEY)"));
    // The hostile answer is text: no markup of it reaches the page, no javascript: link.
    assert(!after.includes("<script>alert('answer')"));
    assert(after.includes("Good Coffee Roasters &lt;script>alert('answer')&lt;/script> is fine."));
    assert(!after.includes("<img src=x"));
    assert(!after.includes("javascript:alert"));

    // The questions are the owner's to edit.
    const saved = await owner.request(`/account/answers/${DOMAIN}/questions`, {
      form: {
        csrf: formToken(after, `/account/answers/${DOMAIN}/questions`),
        questions: "Which roasters ship within two days?\nIs Good Coffee Roasters any good?",
        competitors: "rival-roasters.example",
      },
    });
    assertEquals(saved.status, 303);
    const edited = (await owner.page(`/report/${DOMAIN}`)).html;
    assert(edited.includes("Which roasters ship within two days? <span"));
    assert(edited.includes("written by the site's owner; names the site"));
  } finally {
    await w.close();
  }
});
