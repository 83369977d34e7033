/**
 * The body of a scan thread (lib/kit/isolate/scan_threads.ts): runs the scans it is sent, one at a
 * time, with the same scanners the server would run, and answers each with its outcome. Its heap
 * is limited by the pool; whatever a page does to it ends here. While a scan runs it says every
 * BEAT_MS how full its heap is: lib/kit/isolate/scan_threads.ts ends a thread stopped at its limit.
 * Which scanners it has is the server's registry (lib/app/server.ts SERVICES): each service's scanner
 * module (lib/service.ts ScannerModule), named in the thread's workerData and loaded before the
 * thread says it is ready. The jobs it runs besides scans (code validation, summaries of oversized
 * records: lib/kit/isolate/protocol.ts ThreadJob) come the same way, a module per kind, and run under
 * the same heartbeats; a stream job's input arrives a piece at a time, as it asks
 * (lib/kit/isolate/stream_input.ts).
 */
import { workerData } from "node:worker_threads";
import { setPriority } from "node:os";
import type { ScannerModule } from "../../service.ts";
import {
  BEAT_MS,
  heartbeat,
  type JobReplyMessage,
  type JobRequestMessage,
  SCAN_THREAD_NICE,
  type ScanReplyMessage,
  serverChannel,
  type StreamInputMessage,
  type StreamJobModule,
  type StreamRequestMessage,
  THREAD_READY,
  type ThreadJobModule,
  type ThreadJobModules,
} from "./protocol.ts";
import { streamInput } from "./stream_input.ts";

// On Linux, setpriority(PRIO_PROCESS, 0) applies to the calling thread only: this thread yields
// the CPU to the server's own thread, so requests are answered while a page is analysed on a
// busy machine. Elsewhere (or without the permission) it may not apply; nothing depends on it.
try {
  setPriority(0, SCAN_THREAD_NICE);
} catch { /* not permitted or not supported */ }

// Listen first: the spawner's hello (the server's channel) may arrive while the scanners load.
const channel = serverChannel();

// The scanners, by service name, and the job modules, by kind: loaded once, before the first
// scan (THREAD_READY waits for them).
const data = workerData as { scanners?: Record<string, string>; jobs?: ThreadJobModules } | null;
const load = async <M>(urls: Record<string, string> = {}): Promise<Record<string, M>> =>
  Object.fromEntries(
    await Promise.all(Object.entries(urls).map(async ([k, url]) => [k, await import(url) as M])),
  );
const [scanners, jobs] = await Promise.all([
  load<ScannerModule>(data?.scanners),
  load<ThreadJobModule & Partial<StreamJobModule>>(data?.jobs),
]);

/** The input of the stream job running, by its id (pieces of another id are dropped). */
const inputs = new Map<number, (m: StreamInputMessage) => void>();

const server = await channel;

server.onMessage(async (m) => {
  if ("chunk" in m || "parts" in m || "chunk64" in m || "end" in m) {
    inputs.get(m.id)?.(m);
    return;
  }
  // Cleared when the work ends; work stopped at the heap limit never gets there, and its beats
  // say so (lib/kit/isolate/protocol.ts ThreadBeat).
  const beat = setInterval(() => server.post(heartbeat()), BEAT_MS);
  if ("stream" in m) {
    server.post(await runStream(m));
    clearInterval(beat);
    return;
  }
  if ("job" in m) {
    server.post(await runJob(m));
    clearInterval(beat);
    return;
  }
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

/** One stream job, its input read as the server sends it, answered or failed. */
async function runStream(m: StreamRequestMessage): Promise<JobReplyMessage> {
  const { stream, take } = streamInput(() => server.post({ id: m.id, more: true }));
  inputs.set(m.id, take);
  try {
    const module = jobs[m.job.kind];
    if (!module?.runStream) throw new Error(`no ${m.job.kind} stream job`);
    const answer = await module.runStream(
      m.job,
      stream,
      (progress) => server.post({ id: m.id, progress }),
    );
    return { id: m.id, ok: true, answer };
  } catch (error) {
    return { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    inputs.delete(m.id);
  }
}

/** One job (its module's code), answered or failed. */
async function runJob(m: JobRequestMessage): Promise<JobReplyMessage> {
  try {
    const module = jobs[m.job.kind];
    if (!module) throw new Error(`no ${m.job.kind} job`);
    return { id: m.id, ok: true, answer: await module.runJob(m.job) };
  } catch (error) {
    return { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
