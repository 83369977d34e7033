/**
 * The thread that starts scan threads (lib/kit/isolate/thread_spawner.ts is its other end). Creating
 * a `node:worker_threads` Worker blocks the creating thread while the new thread's runtime is set
 * up (0.1-0.3 s measured with deno 2.9.6), so the server's thread never creates one: it asks this
 * thread, which creates the scan thread with its V8 limits, hands the server one end of a
 * MessageChannel to talk to it directly, and reports its end (exit, error).
 */
import { MessageChannel, parentPort, Worker as NodeWorker } from "node:worker_threads";
import {
  SPAWNER_READY,
  type SpawnerReply,
  type SpawnerRequest,
  type ThreadHello,
} from "./protocol.ts";

const port = parentPort;
if (!port) throw new Error("spawner_thread.ts runs only as a worker thread");

const threads = new Map<number, NodeWorker>();

/** True for the error a thread ends with when it reaches its heap limit. */
function isMemoryError(e: unknown): boolean {
  return (e as { code?: string })?.code === "ERR_WORKER_OUT_OF_MEMORY" ||
    /memory limit|out of memory/i.test(String((e as Error)?.message ?? e));
}

port.on("message", async (m: SpawnerRequest) => {
  const reply = (r: SpawnerReply, transfer: Transferable[] = []) =>
    port.postMessage(r, transfer as never);
  if (m.op === "spawn") {
    let worker: NodeWorker;
    try {
      worker = new NodeWorker(new URL(m.url), {
        resourceLimits: { maxOldGenerationSizeMb: m.heapMb, maxYoungGenerationSizeMb: m.youngMb },
        workerData: m.workerData,
      });
    } catch (error) {
      reply({ op: "exit", id: m.id, code: -1, error: String(error), memory: false });
      return;
    }
    threads.set(m.id, worker);
    let ended = false;
    const end = (code: number, error?: unknown) => {
      if (ended) return;
      ended = true;
      threads.delete(m.id);
      reply({
        op: "exit",
        id: m.id,
        code,
        error: error === undefined ? undefined : String((error as Error)?.message ?? error),
        memory: error !== undefined && isMemoryError(error),
      });
    };
    worker.on("error", (e: unknown) => end(1, e));
    worker.on("exit", (code: number) => end(code));
    const { port1, port2 } = new MessageChannel();
    const hello: ThreadHello = { port: port2 as unknown as MessagePort, life: m.life };
    worker.postMessage(hello, m.life ? [port2, m.life as never] : [port2]);
    reply({ op: "spawned", id: m.id, port: port1 as unknown as MessagePort }, [
      port1 as unknown as Transferable,
    ]);
  } else if (m.op === "end") {
    const worker = threads.get(m.id);
    if (worker) await worker.terminate().catch(() => {});
  }
});

port.postMessage(SPAWNER_READY);
