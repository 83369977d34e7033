/**
 * The server's side of the spawner thread (lib/kit/isolate/spawner_thread.ts): scan threads are
 * created there, so creating one never blocks the server's thread. Starting the spawner itself
 * blocks once (like any thread), when the pool starts, before the server listens.
 */
import { Worker as NodeWorker } from "node:worker_threads";
import { SPAWNER_READY, type SpawnerReply, type SpawnerRequest } from "./protocol.ts";

const SPAWNER_URL = new URL("./spawner_thread.ts", import.meta.url);

/** A started thread: its channel, and its end as the spawner saw it. */
export interface SpawnedThread {
  id: number;
  port: MessagePort;
}

/** How a thread ended. */
export interface ThreadExit {
  code: number;
  error?: string;
  /** It reached its heap limit (as far as its error says). */
  memory: boolean;
}

/** Creates, watches and ends threads through one spawner thread. */
export class ThreadSpawner {
  #worker: NodeWorker | null = null;
  #ready: Promise<void> | null = null;
  #nextId = 1;
  #spawned = new Map<number, (t: SpawnedThread | ThreadExit) => void>();
  #exits = new Map<number, (e: ThreadExit) => void>();

  /** Starts the spawner thread now (it blocks this thread once, briefly). */
  start(): Promise<void> {
    if (this.#ready) return this.#ready;
    // Small limits: it only creates threads and relays what becomes of them.
    const worker = new NodeWorker(SPAWNER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
    });
    this.#worker = worker;
    this.#ready = new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.on("message", (m: SpawnerReply | typeof SPAWNER_READY) => {
        if (m === SPAWNER_READY) return resolve();
        this.#receive(m);
      });
    });
    this.#ready.catch(() => {});
    // The spawner ending takes its threads with it: each is reported ended.
    worker.on("exit", () => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#ready = null;
      for (const id of [...this.#exits.keys(), ...this.#spawned.keys()]) {
        this.#receive({
          op: "exit",
          id,
          code: -1,
          error: "the spawner thread ended",
          memory: false,
        });
      }
    });
    return this.#ready;
  }

  #receive(m: SpawnerReply): void {
    if (m.op === "spawned") {
      const settle = this.#spawned.get(m.id);
      this.#spawned.delete(m.id);
      settle?.({ id: m.id, port: m.port });
    } else {
      const exit: ThreadExit = { code: m.code, error: m.error, memory: m.memory };
      const pending = this.#spawned.get(m.id);
      this.#spawned.delete(m.id);
      pending?.(exit);
      const onExit = this.#exits.get(m.id);
      this.#exits.delete(m.id);
      onExit?.(exit);
    }
  }

  #send(m: SpawnerRequest): void {
    this.#worker?.postMessage(m, m.op === "spawn" && m.life ? [m.life as never] : []);
  }

  /**
   * Starts a thread running `url` with these V8 limits; `onExit` is called once when it ends (by
   * itself, at a limit, or through {@link end}).
   */
  async spawn(
    url: URL,
    limits: { heapMb: number; youngMb: number; workerData?: unknown; life?: MessagePort },
    onExit: (e: ThreadExit) => void,
  ): Promise<SpawnedThread> {
    await this.start();
    const id = this.#nextId++;
    const result = await new Promise<SpawnedThread | ThreadExit>((resolve) => {
      this.#spawned.set(id, resolve);
      this.#exits.set(id, onExit);
      this.#send({ op: "spawn", id, url: url.href, ...limits });
    });
    if ("port" in result) return result;
    throw new Error(`the scan thread could not start: ${result.error ?? `exit ${result.code}`}`);
  }

  /** Ends the thread (its `onExit` follows). */
  end(id: number): void {
    this.#send({ op: "end", id });
  }

  /** Ends the spawner and with it every thread. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#ready = null;
    await worker?.terminate().catch(() => {});
  }
}
