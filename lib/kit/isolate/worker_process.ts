/**
 * The body of a worker process (lib/kit/isolate/process_pool.ts starts it with the command of
 * lib/kit/isolate/worker_command.ts): runs the scans and jobs the server sends, one at a time, with the
 * same scanners and job modules the server would run, and answers each. Everything a scanned page
 * or a stranger's text does to it ends here: the pool kills this process at the work's time limit
 * (SIGKILL, which no code can outlast), V8 ends it at its heap limit (`--max-old-space-size`), and
 * the operating system takes back all of its memory either way.
 *
 * The conversation (lib/kit/isolate/protocol.ts messages, framed by lib/kit/isolate/frames.ts): the server
 * sends a {@link WorkerHello} naming the scanner of each service and the module of each job kind;
 * this process loads them all, answers `{ ready: <its Deno version> }`, then one request after
 * another (a scan's progress steps come before its answer). A stream job's input comes after its
 * request, one piece for each request this process writes (a raw frame without bytes: frames.ts
 * `pullFrame`; lib/kit/isolate/protocol.ts StreamJobModule), so
 * stdin is read while the work runs. When stdin ends (the server closed it, or died) the process
 * exits once its work has answered; lib/kit/isolate/orphan_watch.ts covers a server that died
 * while code here never returns.
 *
 * Nothing else may write to stdout (it carries the frames): console output goes to stderr, which
 * the pool keeps the end of for a crash's reason.
 */
import { setPriority } from "node:os";
import type { ScannerModule } from "../../service.ts";
import { encodeFrame, FrameReader, pullFrame } from "./frames.ts";
import {
  type JobProgressMessage,
  type JobReplyMessage,
  type JobRequestMessage,
  SCAN_THREAD_NICE,
  type ScanReplyMessage,
  type ScanRequestMessage,
  type StreamInputMessage,
  type StreamJobModule,
  type StreamPullMessage,
  type StreamRequestMessage,
  type ThreadJobModule,
  type WorkerHello,
} from "./protocol.ts";
import { streamInput } from "./stream_input.ts";

// stdout carries frames: whatever a library prints goes to stderr instead.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

// On Linux the nice value applies to the calling thread: this one, which runs the work, yields
// the CPU to the server's own thread on a busy machine. Without the permission it does not apply.
try {
  setPriority(0, SCAN_THREAD_NICE);
} catch { /* not permitted or not supported */ }

new Worker(new URL("./orphan_watch.ts", import.meta.url), { type: "module" });

const input = new FrameReader(Deno.stdin.readable);
const output = Deno.stdout.writable.getWriter();
const post = (
  m: ScanReplyMessage | JobReplyMessage | JobProgressMessage | StreamPullMessage,
) => output.write(encodeFrame(m));

const hello = await input.next() as WorkerHello | null;
if (!hello) Deno.exit(0);

const load = async <M>(urls: Record<string, string> = {}): Promise<Record<string, M>> =>
  Object.fromEntries(
    await Promise.all(Object.entries(urls).map(async ([k, url]) => [k, await import(url) as M])),
  );
const [scanners, jobs] = await Promise.all([
  load<ScannerModule>(hello.scanners),
  load<ThreadJobModule & Partial<StreamJobModule>>(hello.jobs),
]);
// Ready, saying which Deno runs it (the pool checks it is the server's own).
await output.write(encodeFrame({ ready: Deno.version.deno }));

/** The input of the stream job running, by its id (pieces of another id are dropped). */
const inputs = new Map<number, (m: StreamInputMessage) => void>();
// One piece of work at a time (the pool sends the next only after this one's answer); stdin is
// read meanwhile, for a stream job's pieces.
let working: Promise<unknown> = Promise.resolve();
for (;;) {
  const m = await input.next() as
    | ScanRequestMessage
    | JobRequestMessage
    | StreamRequestMessage
    | StreamInputMessage
    | null;
  if (!m) break;
  if ("chunk" in m || "parts" in m || "chunk64" in m || "end" in m) inputs.get(m.id)?.(m);
  else if ("stream" in m) working = working.then(async () => await post(await runStream(m)));
  else if ("job" in m) working = working.then(async () => await post(await runJob(m)));
  else working = working.then(async () => await post(await runScan(m)));
}
await working;
Deno.exit(0);

/** One scan, answered with its outcome (its steps are posted as they start). */
async function runScan(m: ScanRequestMessage): Promise<ScanReplyMessage> {
  try {
    const service = scanners[m.service];
    if (!service) throw new Error(`no ${m.service} service`);
    // The caller's clock, advancing with this process's (tests inject fixed clocks).
    const offset = m.nowMs - Date.now();
    const outcome = await service.run(m.target, {
      config: m.config,
      now: () => new Date(Date.now() + offset),
      onProgress: (step) => void post({ id: m.id, progress: step }),
    });
    return { id: m.id, ok: true, outcome };
  } catch (error) {
    return { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** One stream job, its input read as the server sends it, answered or failed. */
async function runStream(m: StreamRequestMessage): Promise<JobReplyMessage> {
  // Each request for a piece is the same raw frame (frames.ts pullFrame).
  const pull = pullFrame(m.id);
  const { stream, take } = streamInput(() => void output.write(pull));
  inputs.set(m.id, take);
  try {
    const module = jobs[m.job.kind];
    if (!module?.runStream) throw new Error(`no ${m.job.kind} stream job`);
    const answer = await module.runStream(
      m.job,
      stream,
      (progress) => void post({ id: m.id, progress }),
    );
    return { id: m.id, ok: true, answer };
  } catch (error) {
    return { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    inputs.delete(m.id);
  }
}

/** One job, answered or failed. */
async function runJob(m: JobRequestMessage): Promise<JobReplyMessage> {
  try {
    const module = jobs[m.job.kind];
    if (!module) throw new Error(`no ${m.job.kind} job`);
    return { id: m.id, ok: true, answer: await module.runJob(m.job) };
  } catch (error) {
    return { id: m.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
