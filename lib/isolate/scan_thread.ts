/**
 * The body of a scan thread (lib/isolate/scan_threads.ts): runs the scans it is sent, one at a
 * time, with the same scanners the server would run, and answers each with its outcome. Its heap
 * is limited by the pool; whatever a page does to it ends here.
 */
import { parentPort } from "node:worker_threads";
import { setPriority } from "node:os";
import { SERVICES } from "../service.ts";
import { runThreadJob } from "./thread_jobs.ts";
import {
  type JobReplyMessage,
  type JobRequestMessage,
  SCAN_THREAD_NICE,
  type ScanReplyMessage,
  type ScanRequestMessage,
  THREAD_READY,
} from "./protocol.ts";

const port = parentPort;
if (!port) throw new Error("scan_thread.ts runs only as a worker thread");

// On Linux, setpriority(PRIO_PROCESS, 0) applies to the calling thread only: this thread yields
// the CPU to the server's own thread, so requests are answered while a page is analysed on a
// busy machine. Elsewhere (or without the permission) it may not apply; nothing depends on it.
try {
  setPriority(0, SCAN_THREAD_NICE);
} catch { /* not permitted or not supported */ }

port.on("message", async (m: ScanRequestMessage | JobRequestMessage) => {
  if ("job" in m) {
    let answer: JobReplyMessage;
    try {
      answer = { id: m.id, ok: true, answer: runThreadJob(m.job) };
    } catch (error) {
      answer = {
        id: m.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(answer);
    return;
  }
  let reply: ScanReplyMessage;
  try {
    const service = SERVICES[m.service];
    if (!service) throw new Error(`no ${m.service} service`);
    // The caller's clock, advancing with this thread's (tests inject fixed clocks).
    const offset = m.nowMs - Date.now();
    const outcome = await service.run(m.target, {
      config: m.config,
      now: () => new Date(Date.now() + offset),
      onProgress: (step) => port.postMessage({ id: m.id, progress: step } as ScanReplyMessage),
    });
    reply = { id: m.id, ok: true, outcome };
  } catch (error) {
    reply = { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});

port.postMessage(THREAD_READY);
