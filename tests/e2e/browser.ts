/**
 * Browser tests drive Debian's Chromium (/usr/bin/chromium, installed by .ci/run with apt-get)
 * through npm:playwright-core; no browser is ever downloaded. The flags keep Chromium off the
 * network: only the loopback server under test is reached.
 */
import { type Browser, chromium } from "playwright-core";

/** Where Debian puts Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** True when Chromium is installed (browser tests are skipped with a loud message otherwise). */
export function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/** Launches headless Chromium with a fresh profile (`extraArgs`: e.g. a DevTools port). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      ...extraArgs,
    ],
  });
}

/** Where screenshots go (kept out of git). */
export const SCREENSHOTS = new URL("../output/screenshots/", import.meta.url).pathname;

/** Viewports the browser tests use. */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const NARROW = { width: 320, height: 640 };

/** A browser test: skipped without Chromium, given a fresh browser that is closed afterwards. */
export function browserTest(name: string, fn: (b: Browser) => Promise<void>): void {
  Deno.test({
    name: `[browser] ${name}`,
    ignore: !hasChromium(),
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const browser = await launchBrowser();
      try {
        await fn(browser);
      } finally {
        await browser.close();
      }
    },
  });
}
