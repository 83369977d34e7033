/**
 * Watching and asking the assistants in a real browser (Debian's Chromium through
 * npm:playwright-core), as a new user would (issue 44, "Done when"): the home page offers both and
 * leads to sign-up; a report of a site the account does not watch offers one button that watches
 * it and asks the assistants; "Ask the assistants now" shows the run running with its progress and
 * the page lands on its result by itself; the account page's "Run now" starts the watch's scan; an
 * address typed in the watch form gets a confirmation mail at the local SMTP server, is confirmed
 * in the browser, and after a regression gets the alert, whose unsubscribe link works in the
 * browser. The vendors are the replay server, the site a loopback copy of good.test.
 */
import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { hasChromium, launchBrowser } from "./browser.ts";
import { startReplay } from "../helpers/answers_replay.ts";
import { startMutableSite } from "../helpers/watch_env.ts";
import { PIPELINE, startAppEnv, type TestEnv } from "../helpers/app_env.ts";
import { WebClient } from "../helpers/web_client.ts";
import { answersOf } from "../../lib/features/answers/context.ts";
import { watchOf } from "../../lib/features/watch/context.ts";

const DOMAIN = "good.test";

function startSmtp(): Promise<{ port: number; mails: string[]; close(): Promise<void> }> {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(
      stream: { on(e: string, f: (c?: Uint8Array) => void): void },
      _s: unknown,
      done: () => void,
    ) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c) => chunks.push(c!));
      stream.on("end", () => {
        mails.push(
          new TextDecoder().decode(Buffer.concat(chunks)).replace(/=\r?\n/g, "").replace(
            /=3D/g,
            "=",
          ),
        );
        done();
      });
    },
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.server.address() as { port: number }).port,
        mails,
        close: () => new Promise((r) => server.close(() => r(undefined))),
      }))
  );
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function scansStored(env: TestEnv) {
  const w = watchOf(env.deps);
  await until("the watch's scan", async () => {
    for (const p of await w.watches.pending(100)) {
      const e = (await w.watches.get(p.accountId, p.id)).value;
      if (e?.pending && !(await env.store.history.lookup(e.pending.scanId))) return false;
    }
    return true;
  });
}

Deno.test({
  name:
    "[browser] a new user finds watching and asking; a run shows its progress and lands on its result; an e-mail alert and its unsubscribe link",
  ignore: !hasChromium(),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const smtp = await startSmtp();
    const site = await startMutableSite(DOMAIN);
    const replay = startReplay();
    const env = await startAppEnv({
      worker: true,
      extraResolve: [`${DOMAIN}=127.0.0.1:${site.port}`],
      env: {
        ANSWERS_RESOLVE: replay.resolve,
        OPENAI_API_KEY: "sk-operator-browser-0001",
        ANSWERS_SAMPLES: "3",
        ANSWERS_CANARY: "0",
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      },
    });
    // The browser's cookies live in real time.
    Object.defineProperty(env.clock, "now", { get: () => Date.now(), set: () => {} });
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req, info) => env.app.fetch(req, info),
    );
    const url = `http://127.0.0.1:${server.addr.port}`;
    watchOf(env.deps).origin = url;
    const browser = await launchBrowser();
    try {
      // A scanned site.
      await (await env.scan({ url: DOMAIN }, { auth: `Bearer ${PIPELINE}` })).body?.cancel();
      await until(
        "the scan",
        async () => !!(await env.store.getScan(DOMAIN)) && !(await env.store.getInflight(DOMAIN)),
      );

      const page = await (await browser.newContext()).newPage();
      // The home page offers watching and asking, and leads to sign-up.
      await page.goto(`${url}/`);
      assert.ok(
        await page.getByRole("heading", { name: "Keep an eye on it, and ask the AI assistants" })
          .isVisible(),
      );
      await page.getByRole("link", { name: "Create a free account" }).first().click();
      await page.waitForURL(/\/account\/signup$/);
      assert.ok(await page.getByText("Ask the AI assistants").isVisible());

      // Signed up (the challenge is solved in process), the session handed to the browser.
      const client = new WebClient(env, "198.51.100.91");
      assert.equal(
        (await client.signUp("browser-owner@example.com", "a browser test passphrase")).status,
        303,
      );
      await page.context().addCookies([{ name: "sid", value: client.cookies.get("sid")!, url }]);

      // The report of a site it does not watch: one button watches it and asks the assistants.
      await page.goto(`${url}/report/${DOMAIN}`);
      await page.getByRole("button", { name: "Watch this site and ask the assistants" }).click();
      await page.waitForURL(/\/account$/);
      assert.ok(await page.getByRole("heading", { name: "Your account", exact: true }).isVisible());
      assert.ok(await page.getByRole("button", { name: "Run now" }).isVisible());

      // Ask the assistants now: the page shows the run running, then lands on its result.
      const a = answersOf(env.deps);
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
      await page.goto(`${url}/report/${DOMAIN}`);
      await page.getByRole("button", { name: "Ask the assistants now" }).click();
      await page.waitForURL(new RegExp(`/report/${DOMAIN}`));
      assert.ok(await page.getByText(/Asking the assistants now: 0 of at most 6/).isVisible());
      release();
      // No reload by the test: the page comes back by itself (Refresh) with the result.
      await page.getByText(/named the site in 6 of 6 answers/).waitFor({ timeout: 25_000 });
      await page.getByText("The numbers (per question").click();
      assert.ok(await page.getByRole("cell", { name: "6 of 6 (61-100%)" }).first().isVisible());

      // The report's import form: a Search Console export, read in the browser and posted.
      await page.getByText("Add what Bing and Google saw").click();
      await page.getByLabel("Export").selectOption("gsc");
      await page.getByLabel("CSV file").setInputFiles({
        name: "Pages.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(
          await Deno.readFile(new URL("../fixtures/first_party/gsc_pages.csv", import.meta.url)),
        ),
      });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await page.getByText(/Imported 3 rows \(pages\)/).waitFor();

      // Run now from the account page starts the watch's scan at once.
      await page.goto(`${url}/account`);
      await page.getByRole("button", { name: "Run now" }).click();
      await page.waitForURL(new RegExp(`/report/${DOMAIN}$`));
      await scansStored(env);
      await env.server.watchTick();

      // The watch again, by the account page's form, with an e-mail address for the alerts.
      await page.goto(`${url}/account`);
      await page.getByRole("button", { name: "Remove" }).click();
      await page.waitForURL(/\/account$/);
      await page.getByLabel("Watch", { exact: true }).fill(DOMAIN);
      await page.getByLabel(/E-mail for alerts/).fill("owner@example.com");
      await page.getByRole("button", { name: "Add watch" }).click();
      await page.waitForURL(/\/account$/);
      assert.ok(await page.getByText(/o…@example\.com \(waiting for confirmation\)/).isVisible());
      // The confirmation mail reaches the SMTP server; its link is confirmed in the browser.
      await env.server.watchTick();
      await until("the confirmation mail", () => smtp.mails.length === 1);
      const confirm =
        smtp.mails[0].match(/http:\/\/127\.0\.0\.1:\d+\/watch\/email\/confirm\?token=[\w-]+/)![0];
      await page.goto(confirm);
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByText(/Confirmed: this address gets an e-mail/).waitFor();

      // robots.txt now blocks OAI-SearchBot; Run now; the alert reaches the SMTP server.
      site.setRobots(site.blockingRobots);
      await page.goto(`${url}/account`);
      await page.getByRole("button", { name: "Run now" }).click();
      await page.waitForURL(new RegExp(`/report/${DOMAIN}$`));
      await scansStored(env);
      await env.server.watchTick();
      await until("the alert mail", () => smtp.mails.length === 2);
      const alert = smtp.mails[1];
      assert.match(alert, /Subject: good\.test got worse/);
      assert.match(alert, /robots\.txt now blocks OAI-SearchBot/);
      // Its unsubscribe link works in the browser.
      const unsubscribe =
        alert.match(/http:\/\/127\.0\.0\.1:\d+\/watch\/email\/unsubscribe\?token=[\w-]+/)![0];
      await page.goto(unsubscribe);
      await page.getByRole("button", { name: "Stop the e-mails" }).click();
      await page.getByText(/No more e-mails for good\.test/).waitFor();
      await page.goto(`${url}/account`);
      assert.ok(!(await page.getByText(/o…@example\.com/).isVisible()));
    } finally {
      await browser.close();
      await server.shutdown();
      await env.close();
      await replay.close();
      await site.close();
      await smtp.close();
    }
  },
});
