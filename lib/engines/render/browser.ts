/**
 * Getting a browser for one scan's rendering: a local Chromium started for the scan (and ended
 * with it), or a connection to a remote browser the operator names (RENDER_BROWSER_URL: a CDP or
 * Playwright WebSocket endpoint such as a Browserless instance). Without either, rendering is
 * "unavailable" and nothing is guessed from that.
 *
 * A local Chromium can reach nothing by itself: every request goes to a proxy that refuses it
 * (lib/engines/render/refusing_proxy.ts; `<-loopback>` sends loopback there too), host names resolve to
 * nothing (`--host-resolver-rules`), QUIC is off and WebRTC may not use UDP outside the proxy. The
 * pages' requests are answered by the renderer itself, through the guarded fetcher
 * (lib/engines/render/request_gate.ts). A remote browser gets the same request routing, but its own
 * network is its operator's to close (docs/rendering.md, "Threat model").
 */
import type { Browser } from "playwright-core";
import type { RenderBrowser } from "../../kit/config.ts";
import { loadPlaywright } from "./playwright.ts";
import { type RefusingProxy, startRefusingProxy } from "./refusing_proxy.ts";

/** A page's V8 heap limit in a local Chromium: a script that allocates more crashes its tab. */
export const TAB_HEAP_MB = 256;

/**
 * The flags that keep a Chromium off the network: every host name and IP literal resolves to
 * nothing, WebRTC may not use UDP outside a proxy, no QUIC, no pings, no background traffic. A
 * local Chromium also gets `proxyUrl` (the refusing proxy) for everything, loopback included; a
 * remote browser is given the same flags without it (docs/rendering.md).
 */
export function lockedDownArgs(proxyUrl?: string): string[] {
  const proxy = proxyUrl
    ? [
      `--proxy-server=${proxyUrl}`,
      // Chromium bypasses the proxy for loopback unless told not to.
      "--proxy-bypass-list=<-loopback>",
      `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${new URL(proxyUrl).hostname}`,
    ]
    : ["--host-resolver-rules=MAP * ~NOTFOUND"];
  return [
    ...proxy,
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-quic",
    "--no-pings",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--no-first-run",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--mute-audio",
    "--renderer-process-limit=4",
    `--js-flags=--max-old-space-size=${TAB_HEAP_MB}`,
  ];
}

/** A browser for one scan. */
export interface BrowserHandle {
  browser: Browser;
  /** What rendered, for the record ("local Chromium 156.0.8078.108"). */
  label: string;
  /** The refusing proxy of a local Chromium (null for a remote browser). */
  proxy: RefusingProxy | null;
  /** Ends the local browser (or the connection to a remote one). Never throws. */
  close(): Promise<void>;
}

/** A browser, or why there is none. */
export type BrowserOutcome =
  | { ok: true; handle: BrowserHandle }
  | { ok: false; status: "unavailable" | "failed"; reason: string };

/**
 * A browser opened ahead of its use: a rendering scan starts it while it still reads the site
 * (the raw fetch, robots.txt, the sampled pages), so the browser's start-up overlaps that work
 * instead of adding to it. Whoever ends the scan calls `release()`: a browser nobody took (the
 * scan failed first, or the render was refused) is closed there.
 */
export interface EarlyBrowser {
  /** The browser, or why there is none; once (a second call gets "failed"). */
  take(): Promise<BrowserOutcome>;
  /** Closes the browser if it was never taken. Never throws. */
  release(): Promise<void>;
}

/** Time a browser is given to start or answer (part of a render session's budget). */
export const OPEN_MS = 15_000;

/**
 * For a scan that asks to render (`wanted`), starts opening `setting`'s browser now (within
 * {@link OPEN_MS}); undefined when it does not ask or rendering is off. See {@link EarlyBrowser}.
 */
export function openEarly(wanted: boolean, setting: RenderBrowser): EarlyBrowser | undefined {
  if (!wanted || setting.kind === "off") return undefined;
  const opening = openBrowser(setting, OPEN_MS);
  let taken = false;
  return {
    take: () => {
      if (taken) {
        return Promise.resolve({ ok: false, status: "failed", reason: "the browser was taken" });
      }
      taken = true;
      return opening;
    },
    release: async () => {
      if (taken) return;
      taken = true;
      const outcome = await opening;
      if (outcome.ok) await outcome.handle.close();
    },
  };
}

/** Opens the configured browser within `timeoutMs`. Never throws. */
export async function openBrowser(
  setting: RenderBrowser,
  timeoutMs: number,
): Promise<BrowserOutcome> {
  if (setting.kind === "off") return { ok: false, status: "unavailable", reason: setting.reason };
  if (setting.kind === "local") return await openLocal(setting.path, timeoutMs);
  return await openRemote(setting.url, setting.protocol, timeoutMs);
}

async function openLocal(path: string, timeoutMs: number): Promise<BrowserOutcome> {
  try {
    if (!(await Deno.stat(path)).isFile) throw new Error("not a file");
  } catch {
    return {
      ok: false,
      status: "unavailable",
      reason: `no browser: ${path} is not installed and no RENDER_BROWSER_URL is set`,
    };
  }
  const permission = await Deno.permissions.query({ name: "run", command: path });
  if (permission.state !== "granted") {
    return {
      ok: false,
      status: "unavailable",
      reason: `this server may not start ${path} (it runs without --allow-run=${path}) and no ` +
        "RENDER_BROWSER_URL is set",
    };
  }
  const proxy = startRefusingProxy();
  try {
    const { chromium } = await loadPlaywright();
    const browser = await chromium.launch({
      executablePath: path,
      headless: true,
      // Chromium's sandbox cannot start as root; elsewhere it stays on (docs/rendering.md).
      chromiumSandbox: !runsAsRoot(),
      args: lockedDownArgs(proxy.url),
      timeout: timeoutMs,
      // A server's signals are its own: the browser ends with the scan, not with a Ctrl-C handler.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return {
      ok: true,
      handle: {
        browser,
        label: `local Chromium ${browser.version()}`,
        proxy,
        close: async () => {
          await browser.close().catch(() => {});
          await proxy.close();
        },
      },
    };
  } catch (error) {
    await proxy.close();
    return { ok: false, status: "failed", reason: `Chromium did not start: ${short(error)}` };
  }
}

async function openRemote(
  url: string,
  protocol: "cdp" | "playwright",
  timeoutMs: number,
): Promise<BrowserOutcome> {
  // The endpoint may carry a token: only its host is ever shown.
  const where = `remote browser (${protocol === "cdp" ? "CDP" : "Playwright"}) at ${
    new URL(url).host
  }`;
  try {
    const { chromium } = await loadPlaywright();
    const browser = protocol === "cdp"
      ? await chromium.connectOverCDP(url, { timeout: timeoutMs })
      : await chromium.connect(url, { timeout: timeoutMs });
    return {
      ok: true,
      handle: {
        browser,
        label: `${where}, ${browser.version()}`,
        proxy: null,
        close: () => browser.close().catch(() => {}),
      },
    };
  } catch (error) {
    return {
      ok: false,
      status: "failed",
      // Playwright's message may quote the endpoint (and its token): URLs are left out.
      reason: `the ${where} could not be reached: ${
        short(error).replace(/(wss?|https?):\/\/\S+/g, "<endpoint>")
      }`,
    };
  }
}

function runsAsRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

/** The first line of an error, capped (Playwright's messages carry long call logs). */
function short(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0].slice(0, 200);
}
