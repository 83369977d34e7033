/**
 * `deno task lighthouse`: Lighthouse (npm:lighthouse) against the home page and a report page of
 * the app served on 127.0.0.1 (the in-process app with the worker scanning a fixture site), in
 * Debian's Chromium started with the no-network flags of tests/e2e/browser.ts. Prints the
 * performance, accessibility, best-practices and SEO scores, fails when accessibility,
 * best practices or SEO is under 95, and writes the JSON reports to tests/output/lighthouse/.
 *
 * Not part of `deno task test`: it takes a minute.
 */
import lighthouse from "lighthouse";
import { PIPELINE } from "../helpers/app_env.ts";
import { CHROMIUM, hasChromium, launchBrowser } from "./browser.ts";
import { startWebServer } from "./web_server.ts";

const OUT = new URL("../output/lighthouse/", import.meta.url).pathname;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const MINIMUM = 95;

/** Scores (0-100) per category, and the audits that failed in the three we hold to 95. */
export interface LighthouseResult {
  scores: Record<string, number>;
  failed: string[];
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Runs Lighthouse on `url` through a Chromium listening for DevTools on `port`. */
async function audit(
  url: string,
  port: number,
  formFactor: "mobile" | "desktop",
): Promise<LighthouseResult & { json: string }> {
  const desktop = formFactor === "desktop";
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    formFactor,
    screenEmulation: desktop
      ? { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false }
      : { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    throttlingMethod: "simulate",
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  const scores: Record<string, number> = {};
  const failed: string[] = [];
  for (const id of CATEGORIES) {
    const cat = lhr.categories[id];
    scores[id] = Math.round((cat?.score ?? 0) * 100);
    if (id === "performance") continue;
    for (const ref of cat?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) {
        failed.push(`${id}: ${a.id} (${a.title})`);
      }
    }
  }
  return { scores, failed, json: result.report as string };
}

if (import.meta.main) {
  if (!hasChromium()) {
    console.error(`Lighthouse needs Chromium at ${CHROMIUM}`);
    Deno.exit(2);
  }
  await Deno.mkdir(OUT, { recursive: true });
  const server = await startWebServer();
  const port = freePort();
  // Chromium with the same no-network flags, plus a DevTools port for Lighthouse.
  const browser = await launchBrowser([`--remote-debugging-port=${port}`]);
  let ok = true;
  try {
    const scan = await server.env.scan({ url: "no-llms.test" }, { auth: `Bearer ${PIPELINE}` });
    await scan.body?.cancel();
    for (let i = 0; i < 100 && !(await server.env.store.getScan("no-llms.test")); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const pages = { home: "/", report: "/report/no-llms.test" };
    console.log("| page | form factor | performance | accessibility | best practices | SEO |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    for (const [name, path] of Object.entries(pages)) {
      for (const formFactor of ["mobile", "desktop"] as const) {
        const r = await audit(`${server.url}${path}`, port, formFactor);
        await Deno.writeTextFile(`${OUT}${name}-${formFactor}.json`, r.json);
        const s = r.scores;
        console.log(
          `| ${name} (${path}) | ${formFactor} | ${s.performance} | ${s.accessibility} | ` +
            `${s["best-practices"]} | ${s.seo} |`,
        );
        for (const f of r.failed) console.log(`    not passed: ${f}`);
        if (s.accessibility < MINIMUM || s["best-practices"] < MINIMUM || s.seo < MINIMUM) {
          ok = false;
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (!ok) {
    console.error(`A page scored under ${MINIMUM} in accessibility, best practices or SEO.`);
    Deno.exit(1);
  }
}
