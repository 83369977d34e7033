/**
 * `deno task lighthouse`: Lighthouse (npm:lighthouse) against the home, report and docs pages of
 * both services (the AI Visibility Checker and the Schema Markup Generator), served on 127.0.0.1
 * by the in-process app with the worker scanning fixture sites, in Debian's Chromium started with
 * the no-network flags of tests/e2e/browser.ts, at mobile and desktop settings. Prints the
 * performance, accessibility, best-practices and SEO scores as a Markdown table (docs/lighthouse.md
 * publishes it), fails when performance is under 95 or another category under 100, and writes the
 * JSON reports to tests/output/lighthouse/.
 *
 * Not part of `deno task test`: it takes a few minutes.
 */
import lighthouse from "lighthouse";
import {
  screenEmulationMetrics,
  throttling,
  userAgents,
} from "lighthouse/core/config/constants.js";
import { PIPELINE } from "../helpers/app_env.ts";
import { CHROMIUM, hasChromium, launchBrowser } from "./browser.ts";
import { startWebServer, type WebServer } from "./web_server.ts";
import { schemaService } from "../../lib/features/schema/service.ts";

const OUT = new URL("../output/lighthouse/", import.meta.url).pathname;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/** The least score each category must reach. */
const MINIMUM: Record<string, number> = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};

/** Scores (0-100) per category, and the audits that did not pass. */
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
    screenEmulation: desktop ? screenEmulationMetrics.desktop : screenEmulationMetrics.mobile,
    throttlingMethod: "simulate",
    // Lighthouse's own presets (its constants, as `--preset desktop` uses them): a slow 4G phone
    // with a 4x slower CPU, or a desktop on a fast connection with its CPU as is. Without this,
    // "desktop" would be measured with the phone's throttling.
    throttling: desktop ? throttling.desktopDense4G : throttling.mobileSlow4G,
    emulatedUserAgent: desktop ? userAgents.desktop : userAgents.mobile,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  // A broken trace (e.g. NO_NAVSTART on a machine under load) scores 0 without measuring
  // anything: say so, so the run can be repeated rather than a 0 published.
  if (lhr.runtimeError) {
    return { scores: {}, failed: [`runtime error: ${lhr.runtimeError.code}`], json: "" };
  }
  const scores: Record<string, number> = {};
  const failed: string[] = [];
  for (const id of CATEGORIES) {
    const cat = lhr.categories[id];
    scores[id] = Math.round((cat?.score ?? 0) * 100);
    for (const ref of cat?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      // Performance metrics rarely score a full 1: name only those under 0.9.
      const bar = id === "performance" ? 0.9 : 1;
      if (ref.weight > 0 && a && a.score !== null && a.score < bar) {
        failed.push(`${id}: ${a.id} (${a.title}: ${a.displayValue ?? a.score})`);
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
  const visibility = await startWebServer();
  const schema = await startWebServer({ service: schemaService });
  const port = freePort();
  // Chromium with the same no-network flags, plus a DevTools port for Lighthouse.
  const browser = await launchBrowser([`--remote-debugging-port=${port}`]);
  let ok = true;
  try {
    await scanned(visibility, "no-llms.test", "no-llms.test");
    await scanned(schema, "https://good.test/", "good.test");
    const pages: [string, string][] = [
      ["home", `${visibility.url}/`],
      ["report", `${visibility.url}/report/no-llms.test`],
      ["docs", `${visibility.url}/docs`],
      ["schema home", `${schema.url}/`],
      ["schema report", `${schema.url}/report/good.test`],
    ];
    console.log("| page | form factor | performance | accessibility | best practices | SEO |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    for (const [name, url] of pages) {
      for (const formFactor of ["mobile", "desktop"] as const) {
        let r = await audit(url, port, formFactor);
        for (let tries = 1; tries < 3 && r.failed[0]?.startsWith("runtime error"); tries++) {
          console.log(`    ${r.failed[0]}: measuring again`);
          r = await audit(url, port, formFactor);
        }
        await Deno.writeTextFile(`${OUT}${name.replace(" ", "-")}-${formFactor}.json`, r.json);
        const s = r.scores;
        console.log(
          `| ${name} (${new URL(url).pathname}) | ${formFactor} | ${s.performance} | ` +
            `${s.accessibility} | ${s["best-practices"]} | ${s.seo} |`,
        );
        for (const f of r.failed) console.log(`    not passed: ${f}`);
        if (CATEGORIES.some((c) => s[c] < MINIMUM[c])) ok = false;
      }
    }
  } finally {
    await browser.close();
    await visibility.close();
    await schema.close();
  }
  if (!ok) {
    console.error(
      "A page scored under 95 in performance or under 100 in accessibility, best practices or SEO.",
    );
    Deno.exit(1);
  }
}

/** Admits a scan of `url` by the pipeline token and waits for the stored record of `domain`. */
async function scanned(server: WebServer, url: string, domain: string): Promise<void> {
  const scan = await server.env.scan({ url }, { auth: `Bearer ${PIPELINE}` });
  await scan.body?.cancel();
  for (let i = 0; i < 100 && !(await server.env.store.getScan(domain)); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
}
