/**
 * The one inline script every page carries (allowed by its SHA-256 hash in the page CSP, so no
 * 'unsafe-inline'). It runs in <head>, before the first paint, which an external script cannot do
 * without blocking the page: the theme the reader chose with the header's toggle is applied
 * before anything is drawn (no flash of the wrong theme), and `js` on <html> shows the toggle.
 * Everything else (the toggle's clicks, local times, print) is in islands/comfort.ts, which the
 * page's bundle loads deferred. Plain JavaScript, sent as written: keep it this small.
 */
import { createHash } from "node:crypto";

/** The script's source, exactly as it goes into the page. */
export const COMFORT_SCRIPT = "(function(d){d.classList.add('js');try{var t=localStorage.theme;" +
  "if(t=='dark'||t=='light')d.dataset.theme=t}catch(e){}})(document.documentElement)";

/** The CSP source that allows exactly this script: `'sha256-<base64>'`. */
export const COMFORT_SCRIPT_HASH = `'sha256-${
  createHash("sha256").update(COMFORT_SCRIPT, "utf8").digest("base64")
}'`;
