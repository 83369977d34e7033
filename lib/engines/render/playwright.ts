/**
 * playwright-core, imported on first use only: loading it costs a scan thread tens of MB
 * (docs/rendering.md, "Cost"), so scans that do not render never pay for it.
 */
import process from "node:process";

type Playwright = typeof import("playwright-core");

let loading: Promise<Playwright> | null = null;

/** The playwright-core module (one import per isolate). */
export function loadPlaywright(): Promise<Playwright> {
  if (loading) return loading;
  // The bundled is-wsl package probes /proc/sys/fs/binfmt_misc at import time, a path Deno refuses
  // without --allow-all. This variable (is-wsl's own test switch) defers the probe to the one
  // feature that uses it (opening a desktop browser), which rendering never calls.
  const before = process.env.__IS_WSL_TEST__;
  process.env.__IS_WSL_TEST__ = "1";
  loading = import("playwright-core").finally(() => {
    if (before === undefined) delete process.env.__IS_WSL_TEST__;
    else process.env.__IS_WSL_TEST__ = before;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
