/**
 * A Web Worker that runs lib/kit/auth/password_wasm.ts off the main thread: a WASM argon2id hash takes
 * ~100 ms of CPU, which would otherwise stall every request of the process for that long.
 * Messages: {id, op: "hash", password, params} | {id, op: "verify", phc, password}
 * -> {id, result} | {id, error}.
 */
import { wasmHash, wasmVerify } from "./password_wasm.ts";

type Request =
  | {
    id: number;
    op: "hash";
    password: string;
    params: { memoryCost: number; timeCost: number; parallelism: number };
  }
  | { id: number; op: "verify"; phc: string; password: string };

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (e) => {
  const m = e.data;
  try {
    const result = m.op === "hash"
      ? await wasmHash(m.password, m.params)
      : await wasmVerify(m.phc, m.password);
    scope.postMessage({ id: m.id, result });
  } catch (error) {
    scope.postMessage({ id: m.id, error: error instanceof Error ? error.message : String(error) });
  }
};
