/**
 * Rendering one page in the scan's browser context: open a tab, navigate, wait until the page's
 * requests are quiet (or its time is up), stop its scripts, and read the DOM as HTML from an
 * isolated world (the page's own scripts cannot redefine what reads it), cut at a size bound. A
 * page that crashes its tab, hangs in a loop, opens dialogs without end or runs out of time ends
 * its own render; the scan goes on.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { FetchResult } from "../../kit/net/types.ts";
import { noRequests, type PageRequests, type RequestGate } from "./request_gate.ts";

/** Characters of rendered HTML read at most (the rest is cut, as the fetcher cuts bodies). */
export const MAX_RENDERED_CHARS = 2_000_000;
/** Dialogs (alert, confirm, prompt, beforeunload) dismissed before a page's render is ended. */
export const MAX_DIALOGS = 20;
/** The page is quiet when none of its requests is in flight for this long. */
const QUIET_MS = 500;
/** Time kept back from the page's budget to stop its scripts and read its DOM. */
const SNAPSHOT_MS = 1500;

/** How one page's render went. */
export interface PageRender {
  url: string;
  state: "rendered" | "failed";
  /** Why it failed, or what limited it ("the page's scripts were still running at 8 s"). */
  reason: string | null;
  /** The server HTML as the renderer's request got it (null when it never arrived). */
  document: FetchResult | null;
  /** The rendered DOM as HTML (null when it could not be read). */
  html: string | null;
  /** True when the rendered HTML was cut at {@link MAX_RENDERED_CHARS}. */
  cut: boolean;
  requests: PageRequests;
}

/** Renders `url` in a new tab of `context`, within `budgetMs`. Never throws. */
export async function renderPage(
  context: BrowserContext,
  gate: RequestGate,
  url: string,
  budgetMs: number,
): Promise<PageRender> {
  const started = performance.now();
  const left = () => budgetMs - (performance.now() - started);
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), Math.max(0, budgetMs));
  let page: Page | null = null;
  let requests: PageRequests = noRequests();
  let ended: string | null = null;
  const end = (why: string) => {
    ended ??= why;
    abort.abort();
  };
  try {
    page = await within(
      context.newPage(),
      Math.max(1000, left()),
      "the browser did not open a tab",
    );
    requests = gate.track(page, abort.signal);
    page.on("crash", () => end("the page crashed its browser tab (out of memory or a fault)"));
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs++;
      dialog.dismiss().catch(() => {});
      if (dialogs > MAX_DIALOGS) end(`the page opened more than ${MAX_DIALOGS} dialogs`);
    });
    // A WebSocket is never connected (the gate has no socket to lend it): counted and closed.
    const counted = requests;
    await page.routeWebSocket(/.*/, (ws) => {
      counted.refused++;
      counted.refusedKinds["websocket"] = (counted.refusedKinds["websocket"] ?? 0) + 1;
      ws.close({ code: 1008, reason: "refused" });
    });
    const cdp = await within(context.newCDPSession(page), 2000, "the browser did not answer");
    // The document is fetched first (its redirects followed and checked by the fetcher), and the
    // tab navigates to where it ended: the browser is never handed a redirect to follow.
    let target: string;
    try {
      target = (await gate.fetchDocument(page, url)).finalUrl;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return failed(url, `the page could not be fetched: ${why.slice(0, 160)}`, requests);
    }
    const navigation = page.goto(target, {
      waitUntil: "load",
      timeout: Math.max(500, left() - SNAPSHOT_MS),
    }).catch((error: Error) => {
      if (!/Timeout/i.test(error.message) && !ended) {
        ended = `the page did not load: ${error.message.split("\n")[0].slice(0, 160)}`;
      }
    });
    await Promise.race([navigation, aborted(abort.signal)]);
    await waitQuiet(requests, () => left() - SNAPSHOT_MS, abort.signal);
    if (ended && !requests.document) return failed(url, ended, requests);
    const limited = ended ??
      (left() <= SNAPSHOT_MS
        ? `the page's scripts or requests were still running at ${Math.round(budgetMs / 1000)} s`
        : null);
    const snapshot = await readDom(cdp, page);
    if (!snapshot) {
      return failed(url, ended ?? "the page's DOM could not be read (the tab was busy)", requests);
    }
    return {
      url,
      state: "rendered",
      reason: limited,
      document: requests.document,
      html: snapshot.html,
      cut: snapshot.cut,
      requests,
    };
  } catch (error) {
    return failed(url, ended ?? (error instanceof Error ? error.message : String(error)), requests);
  } finally {
    clearTimeout(deadline);
    abort.abort();
    if (page) {
      gate.forget(page);
      // Closing a tab whose renderer spins in a loop still ends it: the browser kills it.
      await within(page.close({ runBeforeUnload: false }), 3000, "").catch(() => {});
    }
  }
}

function failed(url: string, reason: string, requests: PageRequests): PageRender {
  return {
    url,
    state: "failed",
    reason,
    document: requests.document,
    html: null,
    cut: false,
    requests,
  };
}

/** Waits until no request of the page is in flight for {@link QUIET_MS}, or time is up. */
async function waitQuiet(
  requests: PageRequests,
  left: () => number,
  signal: AbortSignal,
): Promise<void> {
  let quietSince = performance.now();
  while (!signal.aborted && left() > 0) {
    if (requests.inFlight > 0) quietSince = performance.now();
    else if (performance.now() - quietSince >= QUIET_MS) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Stops the page's scripts (a loop is interrupted, no script runs after) and reads the DOM from
 * an isolated world, where the page's own code cannot redefine `outerHTML` or the serializer.
 */
async function readDom(
  cdp: CDPSession,
  page: Page,
): Promise<{ html: string; cut: boolean } | null> {
  const send = <T>(method: string, params?: Record<string, unknown>, ms = 1000) =>
    within(
      // deno-lint-ignore no-explicit-any
      (cdp.send as any)(method, params) as Promise<T>,
      ms,
      `${method} timed out`,
    );
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await send("Runtime.terminateExecution").catch(() => {});
      await send("Emulation.setScriptExecutionDisabled", { value: true });
      const tree = await send<{ frameTree: { frame: { id: string } } }>("Page.getFrameTree");
      const world = await send<{ executionContextId: number }>("Page.createIsolatedWorld", {
        frameId: tree.frameTree.frame.id,
        worldName: "ai-visibility-snapshot",
        grantUniveralAccess: false,
      });
      const answer = await send<{ result: { value?: { html: string; cut: boolean } } }>(
        "Runtime.evaluate",
        {
          expression: SNAPSHOT_EXPRESSION,
          contextId: world.executionContextId,
          returnByValue: true,
          timeout: 2000,
        },
        3000,
      );
      const value = answer.result.value;
      if (value && typeof value.html === "string") return value;
    } catch {
      if (page.isClosed()) return null;
    }
  }
  return null;
}

/**
 * The rendered DOM as HTML. A script's text is serialized as it is, so a "</script" inside it (a
 * JSON-LD string a script wrote with textContent) would end the element when the HTML is parsed
 * again: it is written "<\/script" first, which means the same in JSON and in a script's strings.
 * (Scripts no longer run; the page's DOM is not read again.)
 */
const SNAPSHOT_EXPRESSION = `(() => {
  const root = document.documentElement;
  if (!root) return { html: "", cut: false };
  for (const s of root.querySelectorAll("script")) {
    const text = s.textContent;
    if (/<\\/script/i.test(text)) s.textContent = text.replace(/<\\/(script)/gi, "<\\\\/$1");
  }
  const html = root.outerHTML;
  return html.length > ${MAX_RENDERED_CHARS}
    ? { html: html.slice(0, ${MAX_RENDERED_CHARS}), cut: true }
    : { html, cut: false };
})()`;

/** Resolves with `p`, or rejects after `ms` (the promise is left to settle on its own). */
export function within<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
