/**
 * The screenshots in docs/screenshots/ (the README shows one): the app served on loopback with the
 * fixture sites, scanned through the API, photographed in Debian's Chromium at desktop and phone
 * width, in light and dark mode, and at 320 px (the narrowest phone, docs/comfort.md). Run again
 * after changing the pages:
 *
 *   deno task screenshots
 */
import { launchBrowser } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { PIPELINE } from "../helpers/app_env.ts";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
/** Extra shots: [file suffix, viewport, colour scheme]. */
const COMFORT = [
  ["dark-desktop", VIEWPORTS.desktop, "dark"],
  ["dark-phone", VIEWPORTS.phone, "dark"],
  ["320", { width: 320, height: 640 }, "light"],
] as const;

if (import.meta.main) {
  await Deno.mkdir(OUT, { recursive: true });
  const server = await startWebServer();
  const browser = await launchBrowser();
  try {
    for (const domain of ["no-llms.test", "good.test", "edge-blocks-bots.test"]) {
      const res = await server.env.scan({ url: domain }, {
        ip: "203.0.113.10",
        auth: `Bearer ${PIPELINE}`,
      });
      await res.body?.cancel();
      for (let i = 0; i < 300 && !(await server.env.store.getScan(domain)); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const shots: [string, string][] = [
      ["report", "/report/no-llms.test"],
      ["report-good", "/report/good.test"],
      ["report-capped", "/report/edge-blocks-bots.test"],
      ["learn", "/learn/access.edge"],
      ["home", "/"],
    ];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      for (const [name, path] of shots) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState("networkidle");
        const file = `${OUT}${name}-${size}.png`;
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
    for (const [suffix, viewport, colorScheme] of COMFORT) {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      for (const [name, path] of [...shots, ["docs", "/docs"]]) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState("networkidle");
        const file = `${OUT}${name}-${suffix}.png`;
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
