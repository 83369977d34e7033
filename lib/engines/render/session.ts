/**
 * One scan's rendering session: one browser (lib/engines/render/browser.ts), one browser context with
 * everything a page could use to act outside its tab turned off (service workers blocked,
 * downloads refused, no permissions, popups closed, dialogs and `window.open` disarmed, WebRTC
 * removed, WebSockets closed), every request answered by the gate (lib/engines/render/request_gate.ts),
 * and the pages rendered two at a time within the session's budget. Each page is handed to
 * `analyse` as soon as it is rendered and its HTML dropped, so memory holds one or two pages.
 */
import type { BrowserContext } from "playwright-core";
import type { RenderSettings } from "../../kit/config.ts";
import { type EarlyBrowser, OPEN_MS, openBrowser } from "./browser.ts";
import { type PageRender, renderPage, within } from "./page_render.ts";
import { type GateOptions, RequestGate } from "./request_gate.ts";

/** Pages rendered at once (the polite fetcher keeps the site at 2 requests in flight anyway). */
const PAGE_WORKERS = 2;

/** What a session needs. */
export interface SessionOptions {
  settings: RenderSettings;
  gate: GateOptions;
  /** navigator.userAgent of the pages (the fetcher sends the scan's own on the wire). */
  userAgent: string;
  /** Aborts the session (the scan's own deadline). */
  signal?: AbortSignal;
  onProgress?: (step: string) => void;
  /** A browser already opening (lib/engines/render/browser.ts openEarly); else one is opened here. */
  browser?: EarlyBrowser;
  /** The clock the session's budget is kept by, in ms (tests inject one; default: performance.now). */
  now?: () => number;
}

/** A session's outcome; `pages` holds what `analyse` made of each page, in `urls` order. */
export interface SessionOutcome<T> {
  status: "rendered" | "partial" | "unavailable" | "failed";
  reason: string | null;
  browser: string | null;
  elapsedMs: number;
  /** One entry per URL: analysed, or skipped (null) when the budget ran out first. */
  pages: (T | null)[];
  /** Connections a local browser tried outside the gate (all refused by its proxy). */
  escapes: readonly string[];
}

/**
 * Scripts every frame runs before its own: dialogs answer at once, `window.open` opens nothing,
 * and neither WebRTC (UDP outside the gate), WebTransport nor SharedWorker (whose requests no route
 * sees) exists. Service workers are blocked by the context.
 */
const HARDENING_SCRIPT = `(() => {
  const fixed = (name, value) => {
    try {
      Object.defineProperty(window, name, { value, writable: false, configurable: false });
    } catch {}
  };
  fixed("alert", () => undefined);
  fixed("confirm", () => false);
  fixed("prompt", () => null);
  fixed("print", () => undefined);
  fixed("open", () => null);
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel",
    "RTCIceCandidate", "RTCSessionDescription", "WebTransport", "SharedWorker"]) {
    fixed(name, undefined);
  }
})();`;

/**
 * Renders `urls` (the first is the home page) and hands each to `analyse`. Never throws; the
 * browser is always closed.
 */
export async function renderPages<T>(
  urls: string[],
  options: SessionOptions,
  analyse: (render: PageRender) => T,
): Promise<SessionOutcome<T>> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const { settings } = options;
  const deadline = started + settings.budgetMs;
  const left = () => deadline - now();
  const pages: (T | null)[] = urls.map(() => null);
  const outcome = (
    status: SessionOutcome<T>["status"],
    reason: string | null,
    browser: string | null,
    escapes: readonly string[] = [],
  ): SessionOutcome<T> => ({
    status,
    reason,
    browser,
    elapsedMs: Math.round(now() - started),
    pages,
    escapes,
  });
  if (!urls.length) {
    await options.browser?.release();
    return outcome("rendered", null, null);
  }
  options.onProgress?.("starting the browser to render the pages");
  const opened = options.browser
    ? await options.browser.take()
    : await openBrowser(settings.browser, Math.min(OPEN_MS, Math.max(1000, left())));
  if (!opened.ok) return outcome(opened.status, opened.reason, null);
  const handle = opened.handle;
  let context: BrowserContext | null = null;
  let stopped: string | null = null;
  const onAbort = () => {
    stopped ??= "the scan's time ran out";
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    context = await within(
      handle.browser.newContext({
        serviceWorkers: "block",
        acceptDownloads: false,
        permissions: [],
        userAgent: options.userAgent,
        viewport: { width: 1280, height: 900 },
        locale: "en-US",
      }),
      OPEN_MS,
      "the browser did not open a context",
    );
    await context.addInitScript({ content: HARDENING_SCRIPT });
    const gate = new RequestGate(options.gate);
    await context.route("**/*", gate.handle);
    // A WebSocket is never connected: the gate has no socket to lend it.
    await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: "refused" }));
    context.on("page", async (page) => {
      // A popup (window.open is disarmed, a target=_blank link may still open one): its requests
      // belong to no page the gate tracks, so it loads nothing; it is closed all the same.
      if (await page.opener().catch(() => null)) {
        page.close({ runBeforeUnload: false }).catch(() => {});
      }
    });
    const ctx = context;
    let next = 0;
    const worker = async () => {
      while (next < urls.length) {
        const i = next++;
        if (stopped || left() < 1000) {
          stopped ??= "the render budget ran out";
          continue;
        }
        options.onProgress?.(`rendering ${urls[i]}`);
        const budget = Math.min(settings.pageMs, left());
        const result = await renderPage(ctx, gate, urls[i], budget);
        pages[i] = analyse(result);
        if (!handle.browser.isConnected()) stopped ??= "the browser went away";
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGE_WORKERS, urls.length) }, worker));
    const missing = pages.filter((p) => p === null).length;
    return outcome(
      missing ? "partial" : "rendered",
      missing ? `${missing} of ${urls.length} pages were not rendered: ${stopped}` : null,
      handle.label,
      handle.proxy?.refused ?? [],
    );
  } catch (error) {
    return outcome(
      "failed",
      `the browser failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`,
      handle.label,
      handle.proxy?.refused ?? [],
    );
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    if (context) await within(context.close(), 5000, "").catch(() => {});
    await within(handle.close(), 10_000, "").catch(() => {});
  }
}
