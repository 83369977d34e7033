/**
 * The body of a scan thread (lib/isolate/scan_threads.ts): runs the scans it is sent, one at a
 * time, with the same scanners the server would run, and answers each with its outcome. Its heap
 * is limited by the pool; whatever a page does to it ends here.
 */
import { parentPort } from "node:worker_threads";
import { SERVICES } from "../service.ts";
import type { ScanReplyMessage, ScanRequestMessage } from "./scan_threads.ts";

const port = parentPort;
if (!port) throw new Error("scan_thread.ts runs only as a worker thread");

port.on("message", async (m: ScanRequestMessage) => {
  let reply: ScanReplyMessage;
  try {
    const service = SERVICES[m.service];
    if (!service) throw new Error(`no ${m.service} service`);
    // The caller's clock, advancing with this thread's (tests inject fixed clocks).
    const offset = m.nowMs - Date.now();
    const outcome = await service.run(m.target, {
      config: m.config,
      now: () => new Date(Date.now() + offset),
    });
    reply = { id: m.id, ok: true, outcome };
  } catch (error) {
    reply = { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
