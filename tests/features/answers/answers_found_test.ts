/**
 * Found and read by non-experts (issue 44, item 5), in-process: the home page, the sign-up page
 * and a report offer watching a site and asking the assistants (a visitor is sent to sign up; a
 * signed-in account that does not watch the site gets the form that watches it); the account page
 * is named for all it holds; the results read in plain words with the numbers one click away; a
 * run in progress shows that it runs and how far it is, and the page comes back by itself.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { answersOf, idle } from "../../../lib/features/answers/context.ts";
import { formToken, WebClient } from "../../helpers/web_client.ts";
import { DOMAIN, scanned, world } from "../../helpers/answers_env.ts";

const PASSWORD = "correct horse battery staple";

Deno.test("answers found - home, sign-up and report offer watching and asking; the result in plain words; a run's progress", async () => {
  const w = await world({
    ANSWERS_ACCOUNT_CALLS_PER_DAY: "100",
    ANSWERS_GLOBAL_CALLS_PER_DAY: "100",
  });
  try {
    await scanned(w.env);
    const visitor = new WebClient(w.env, "198.51.100.81");
    const home = (await visitor.page("/")).html;
    assert(/Keep an eye on it, and ask the AI assistants/.test(home));
    assert(home.includes('href="/account/signup"'));
    const signup = (await visitor.page("/account/signup")).html;
    assert(
      /<strong>Watch your site<\/strong>/.test(signup) && /Ask the AI assistants/.test(signup),
    );
    // A visitor's report: where to get an account.
    const anon = (await visitor.page(`/report/${DOMAIN}`)).html;
    assert(anon.includes(`Watch ${DOMAIN} and ask the AI assistants`));

    const user = new WebClient(w.env, "198.51.100.82");
    assertEquals((await user.signUp("found-owner@example.com", PASSWORD)).status, 303);
    const account = (await user.page("/account")).html;
    assert(account.includes("<title>Your account |"), "the account page is named for all it holds");
    // The signed-in account's report of a site it does not watch: one button watches it.
    const offer = (await user.page(`/report/${DOMAIN}`)).html;
    assert(offer.includes("Watch this site and ask the assistants"));
    const watched = await user.request("/account/watches", {
      form: { csrf: formToken(offer, "/account/watches"), url: DOMAIN },
    });
    assertEquals(watched.status, 303);
    const section = (await user.page(`/report/${DOMAIN}`)).html;
    assert(section.includes('id="answers"'), "now the answers section");
    const a = answersOf(w.env.deps);
    const started = await user.request(`/account/answers/${DOMAIN}/run`, {
      form: { csrf: formToken(section, `/account/answers/${DOMAIN}/run`) },
    });
    assertEquals(started.status, 303);
    await idle(a);
    const result = (await user.page(`/report/${DOMAIN}`)).html;
    // Plain words first: the fixtures' OpenAI answers name and cite the site in all 6.
    assert(
      result.includes(
        "ChatGPT search (OpenAI) named the site in 6 of 6 answers; with more answers we could say " +
          "between 61% and 100%, and cited it as a source in 6 of 6 answers; with more answers we " +
          "could say between 61% and 100%.",
      ),
    );
    assert(result.includes("API with web search (the Responses API), not the ChatGPT app"));
    // The numbers one click away.
    assert(/<details><summary>The numbers \(per question/.test(result));
  } finally {
    await w.close();
  }
});

Deno.test("answers found - a run in progress shows its progress and the page comes back by itself", async () => {
  const w = await world();
  try {
    await scanned(w.env);
    const user = new WebClient(w.env, "198.51.100.83");
    assertEquals((await user.signUp("found-progress@example.com", PASSWORD)).status, 303);
    const offer = (await user.page(`/report/${DOMAIN}`)).html;
    await user.request("/account/watches", {
      form: { csrf: formToken(offer, "/account/watches"), url: DOMAIN },
    });
    const page = (await user.page(`/report/${DOMAIN}`)).html;
    // Hold the vendors: the run stays in progress until released.
    const a = answersOf(w.env.deps);
    let release!: () => void;
    const held = new Promise<void>((r) => release = r);
    const fetcher = a.vendorFetcher;
    a.vendorFetcher = {
      ...fetcher,
      fetch: async (...args: Parameters<typeof fetcher.fetch>) => {
        await held;
        return fetcher.fetch(...args);
      },
    } as typeof fetcher;
    await user.request(`/account/answers/${DOMAIN}/run`, {
      form: { csrf: formToken(page, `/account/answers/${DOMAIN}/run`) },
    });
    const running = await user.page(`/report/${DOMAIN}`);
    assertEquals(running.res.headers.get("refresh"), `10; url=/report/${DOMAIN}`);
    assert(
      /Asking the assistants now: 0 of at most 18\s*answers so far/.test(running.html),
      running.html.match(/Asking[^<]*/)?.[0] ?? "no progress",
    );
    assert(running.html.includes("<progress"));
    release();
    await idle(a);
    const done = await user.page(`/report/${DOMAIN}`);
    assertEquals(done.res.headers.get("refresh"), null);
    assert(!done.html.includes("Asking the assistants now"));
    assert(done.html.includes("named the site in"));
  } finally {
    await w.close();
  }
});
