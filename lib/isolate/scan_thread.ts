/**
 * The body of a scan thread (lib/isolate/scan_threads.ts): runs the scans it is sent, one at a
 * time, with the same scanners the server would run, and answers each with its outcome. Its heap
 * is limited by the pool; whatever a page does to it ends here. While a scan runs it says every
 * BEAT_MS how full its heap is: lib/isolate/scan_threads.ts ends a thread stopped at its limit.
 * Which scanners it has is the server's registry (lib/server.ts SERVICES): each service's scanner
 * module (lib/service.ts ScannerModule), named in the thread's workerData and loaded before the
 * thread says it is ready.
 */
import { workerData } from "node:worker_threads";
import { setPriority } from "node:os";
import type { ScannerModule } from "../service.ts";
import {
  BEAT_MS,
  heartbeat,
  SCAN_THREAD_NICE,
  type ScanReplyMessage,
  serverChannel,
  THREAD_READY,
} from "./protocol.ts";

// On Linux, setpriority(PRIO_PROCESS, 0) applies to the calling thread only: this thread yields
// the CPU to the server's own thread, so requests are answered while a page is analysed on a
// busy machine. Elsewhere (or without the permission) it may not apply; nothing depends on it.
try {
  setPriority(0, SCAN_THREAD_NICE);
} catch { /* not permitted or not supported */ }

// Listen first: the spawner's hello (the server's channel) may arrive while the scanners load.
const channel = serverChannel();

// The scanners, by service name: loaded once, before the first scan (THREAD_READY waits for them).
const modules = (workerData as { scanners?: Record<string, string> } | null)?.scanners ?? {};
const scanners: Record<string, ScannerModule> = Object.fromEntries(
  await Promise.all(
    Object.entries(modules).map(async ([name, url]) =>
      [name, await import(url) as ScannerModule] as const
    ),
  ),
);

const server = await channel;

server.onMessage(async (m) => {
  // Cleared when the scan ends; a scan stopped at the heap limit never gets there, and its beats
  // say so (lib/isolate/protocol.ts ThreadBeat).
  const beat = setInterval(() => server.post(heartbeat()), BEAT_MS);
  let reply: ScanReplyMessage;
  try {
    const service = scanners[m.service];
    if (!service) throw new Error(`no ${m.service} service`);
    // The caller's clock, advancing with this thread's (tests inject fixed clocks).
    const offset = m.nowMs - Date.now();
    const outcome = await service.run(m.target, {
      config: m.config,
      now: () => new Date(Date.now() + offset),
      onProgress: (step) => server.post({ id: m.id, progress: step }),
    });
    reply = { id: m.id, ok: true, outcome };
  } catch (error) {
    reply = { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearInterval(beat);
  }
  server.post(reply);
});

server.post(THREAD_READY);
