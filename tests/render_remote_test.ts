/**
 * Rendering with a remote browser the operator names (RENDER_BROWSER_URL), as on a platform that
 * cannot start one: a Chromium started apart (here on loopback, with the lock-down flags
 * docs/rendering.md tells operators to give it) reached over CDP, and a Playwright browser server
 * reached over its WebSocket protocol. The same verdicts, the same 0 canary hits, and the
 * endpoint's token never shows in the record; a whole scan on a server where no local browser may
 * run (as on Deno Deploy) is rendered by the remote one; an unreachable endpoint is "failed", with
 * the host only.
 */
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { lockedDownArgs } from "../lib/engines/render/browser.ts";
import { startRefusingProxy } from "../lib/engines/render/refusing_proxy.ts";
import type { RenderView } from "../lib/engines/render/view.ts";
import { CHROMIUM, hasChromium } from "./e2e/browser.ts";
import { type RenderSites, startRenderSites } from "./fixtures/render_sites.ts";
import { startSentinels } from "./security/helpers/net_guard.ts";
import { renderFixtures, startRenderScanEnv } from "./helpers/render_env.ts";
import { loadConfig } from "../lib/kit/config.ts";
import { normaliseTarget } from "../lib/kit/net/target.ts";
import { scanSite } from "../lib/engines/visibility/scan.ts";

const STEP = { sanitizeOps: false, sanitizeResources: false } as const;
const ignore = !hasChromium();

function renderWith(sites: RenderSites, env: Record<string, string>, urls: string[]) {
  return renderFixtures(sites, urls, { env: { REQUEST_TIMEOUT_MS: "2000", ...env } });
}

/**
 * Chromium started apart with a DevTools port, locked down as docs/rendering.md tells operators
 * (the flags without a proxy: every host name and IP literal resolves to nothing).
 */
async function startDevToolsChromium(): Promise<{ url: string; close(): Promise<void> }> {
  const child = new Deno.Command(CHROMIUM, {
    args: [
      "--headless",
      "--no-sandbox",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${await Deno.makeTempDir()}`,
      ...lockedDownArgs(),
      "about:blank",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Chromium prints "DevTools listening on ws://127.0.0.1:<port>/devtools/browser/<id>".
  let text = "";
  const decoder = new TextDecoder();
  const reader = child.stderr.getReader();
  while (!/DevTools listening on (ws:\/\/\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`chromium exited: ${text}`);
    text += decoder.decode(value);
  }
  reader.releaseLock();
  child.stderr.cancel().catch(() => {});
  const ws = text.match(/DevTools listening on (ws:\/\/\S+)/)![1];
  return {
    url: `http://${new URL(ws).host}/?token=operator-secret`,
    close: async () => {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

function assertSpa(view: RenderView, label: RegExp) {
  assert.equal(view.status, "rendered", view.reason ?? "");
  assert.match(view.browser ?? "", label);
  assert.ok(!JSON.stringify(view).includes("operator-secret"), "the token leaked");
  assert.equal(view.pages[0].verdict, "js_only");
}

Deno.test({
  name: "render remote - over CDP and over Playwright's protocol: same verdicts, canaries 0",
  ignore,
  ...STEP,
  fn: async (t) => {
    const sites = startRenderSites();
    const sentinels = startSentinels();
    sites.setCanary({ port: sentinels.port, names: [] });
    try {
      await t.step("CDP (a Chromium with a DevTools port)", async () => {
        const remote = await startDevToolsChromium();
        try {
          const view = await renderWith(sites, { RENDER_BROWSER_URL: remote.url }, [
            "http://spa.test/",
            "http://hostile.test/canaries",
          ]);
          assertSpa(view, /^remote browser \(CDP\) at 127\.0\.0\.1:\d+, \d+\./);
          assert.equal(view.pages[1].state, "rendered", view.pages[1].reason ?? "");
        } finally {
          await remote.close();
        }
      });
      await t.step(
        "a whole scan where no local browser may run (RENDER_CHROMIUM=off, 512 MB): the remote one renders",
        async () => {
          const remote = await startDevToolsChromium();
          const env = await startRenderScanEnv();
          try {
            const config = loadConfig({
              ...env.env,
              MEMORY_MB: "512",
              RENDER_CHROMIUM: "off",
              RENDER_BROWSER_URL: remote.url,
            });
            const target = { ...normaliseTarget("http://spa.test/"), render: true };
            const { record } = await scanSite(target, {
              config,
              now: () => new Date("2026-11-26T12:00:00Z"),
            });
            assertSpa(record.render!, /^remote browser \(CDP\) at 127\.0\.0\.1:\d+, \d+\./);
            const signal = record.result!.pillars.flatMap((p) => p.signals)
              .find((s) => s.id === "content.server_text")!;
            assert.ok(
              signal.evidence.some((e) =>
                /^rendered in a browser: \d+ words after scripts/.test(e)
              ),
              signal.evidence.join(" | "),
            );
          } finally {
            await env.close();
            await remote.close();
          }
        },
      );
      await t.step("Playwright protocol (a browser server)", async () => {
        const proxy = startRefusingProxy();
        const server = await chromium.launchServer({
          executablePath: CHROMIUM,
          chromiumSandbox: false,
          args: lockedDownArgs(proxy.url),
        });
        try {
          const view = await renderWith(sites, {
            RENDER_BROWSER_URL: `${server.wsEndpoint()}?token=operator-secret`,
            RENDER_BROWSER_PROTOCOL: "playwright",
          }, ["http://spa.test/", "http://hostile.test/canaries"]);
          assertSpa(view, /^remote browser \(Playwright\) at 127\.0\.0\.1:\d+/);
        } finally {
          await server.close();
          await proxy.close();
        }
      });
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(sentinels.total(), 0, JSON.stringify(sentinels.accepted()));
      await t.step("an unreachable endpoint: failed, the host named, no token", async () => {
        const view = await renderWith(sites, {
          RENDER_BROWSER_URL: "ws://127.0.0.1:9/devtools/browser/x?token=operator-secret",
          RENDER_BUDGET_MS: "3000",
        }, ["http://spa.test/"]);
        assert.equal(view.status, "failed");
        assert.match(
          view.reason ?? "",
          /remote browser \(CDP\) at 127\.0\.0\.1:9 could not be reached/,
        );
        assert.ok(!JSON.stringify(view).includes("operator-secret"));
      });
    } finally {
      await sentinels.close();
      await sites.close();
    }
  },
});
